import { notFoundApi } from '@/server/http/respond';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Any /api path no route serves: a JSON 404 that names it (an agent's HTTP client reads JSON, not the app's page). */
export const GET = notFoundApi;
export const POST = notFoundApi;
export const PUT = notFoundApi;
export const PATCH = notFoundApi;
export const DELETE = notFoundApi;
