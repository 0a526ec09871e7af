import { sessionExportGet } from '@/server/http/exports';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/v1/sessions/{id}/export — the session as NDJSON envelopes (server/http/exports.ts). */
export const GET = sessionExportGet;
