import { sessionLiveGet } from '@/server/http/live';
import { decodeSegment } from '@/lib/net/path';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/sessions/{id}/live — news of the session's new turns for an open replay page (server/http/live.ts). */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return sessionLiveGet(req, decodeSegment((await params).id));
}
