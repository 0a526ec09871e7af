import { healthGet } from '@/server/http/health';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/health — liveness for load balancers and orchestrators (no database, no data). */
export const GET = healthGet;
