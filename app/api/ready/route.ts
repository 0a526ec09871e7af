import { readyGet } from '@/server/http/health';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/ready — readiness: database reachable, migrations applied, model loaded (503 otherwise). */
export const GET = readyGet;
