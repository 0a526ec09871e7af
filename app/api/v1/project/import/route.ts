import { NextResponse } from 'next/server';
import { archiveUpload } from '@/server/http/archive';
import { authenticate, rateLimit, requireAdminKey } from '@/server/http/respond';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * POST /api/v1/project/import — loads an export file (gzip or plain NDJSON, streamed, no size limit)
 * into the key's project, which must hold no data yet; all or nothing.
 */
export async function POST(req: Request) {
  const auth = await authenticate(req);
  if (auth instanceof NextResponse) return auth;
  return (
    requireAdminKey(auth, 'importing a project') ??
    (await rateLimit(auth.db, auth.keyId)) ??
    archiveUpload(auth.db, auth.projectId, req)
  );
}
