import { substrateExportGet } from '@/server/http/exports';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/v1/agents/{agent}/ucs/export — an agent's substrate as NDJSON (server/http/exports.ts). */
export const GET = substrateExportGet;
