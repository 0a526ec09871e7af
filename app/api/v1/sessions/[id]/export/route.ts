import { NextResponse } from 'next/server';
import { authenticate, jsonError } from '@/server/http/respond';
import { exportSession } from '@/server/services/sessions';
import { NotFoundError } from '@/server/services/errors';
import { toNdjson } from '@/lib/ingest/ndjson';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/v1/sessions/{id}/export — the session as NDJSON envelopes, in the format the importer takes. */
export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }) {
  const auth = await authenticate(req);
  if (auth instanceof NextResponse) return auth;
  const { id } = await ctx.params;
  try {
    const envelopes = await exportSession(auth.db, auth.projectId, id);
    return new NextResponse(toNdjson(envelopes), {
      headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'content-disposition': `attachment; filename="session-${encodeURIComponent(id)}.ndjson"` },
    });
  } catch (e) {
    if (e instanceof NotFoundError) return jsonError(404, e.message);
    throw e;
  }
}
