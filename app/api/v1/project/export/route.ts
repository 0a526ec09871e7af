import { NextResponse } from 'next/server';
import { archiveDownload } from '@/server/http/archive';
import { authenticate, rateLimit, requireAdminKey } from '@/server/http/respond';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/v1/project/export — the key's whole project as one gzip NDJSON file (see server/services/archive.ts). */
export async function GET(req: Request) {
  const auth = await authenticate(req);
  if (auth instanceof NextResponse) return auth;
  return (
    requireAdminKey(auth, 'exporting the whole project') ??
    (await rateLimit(auth.db, auth.keyId)) ??
    archiveDownload(auth.db, auth.projectId)
  );
}
