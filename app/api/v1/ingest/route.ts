import { ingestPost } from '@/server/http/ingest';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** POST /api/v1/ingest — records in, one result each (server/http/ingest.ts). */
export const POST = ingestPost;
