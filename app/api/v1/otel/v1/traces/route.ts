import { otlpTracesPost } from '@/server/http/ingest';
import { methodNotAllowed } from '@/server/http/respond';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** POST /api/v1/otel/v1/traces — OTLP/HTTP traces in (server/http/ingest.ts; it answers errors itself). */
export const POST = (req: Request) => otlpTracesPost(req);
export const GET = methodNotAllowed('POST');
