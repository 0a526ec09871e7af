import { otlpTracesPost } from '@/server/http/ingest';
import { withDomainErrors } from '@/server/http/respond';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** POST /api/v1/otel/v1/traces — OTLP/HTTP traces in (server/http/ingest.ts). */
export const POST = (req: Request) => withDomainErrors(() => otlpTracesPost(req));
