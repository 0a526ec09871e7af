import { ingestPost } from '@/server/http/ingest';
import { methodNotAllowed, withDomainErrors } from '@/server/http/respond';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** POST /api/v1/ingest — records in, one result each (server/http/ingest.ts). */
export const POST = (req: Request) => withDomainErrors(() => ingestPost(req));
export const GET = methodNotAllowed('POST');
