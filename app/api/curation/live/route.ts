import { inboxLiveGet } from '@/server/http/live';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/curation/live — news of proposals made or decided, for an open inbox (server/http/live.ts). */
export function GET(req: Request) {
  return inboxLiveGet(req);
}
