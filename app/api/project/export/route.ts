import { archiveDownload } from '@/server/http/archive';
import { jsonError } from '@/server/http/respond';
import { createContext } from '@/server/trpc/init';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/project/export — Settings' download of the current project, for its admins. */
export async function GET(req: Request) {
  const ctx = await createContext({ req });
  if (ctx.role === 'none') return jsonError(401, 'sign in first');
  if (ctx.role !== 'admin') return jsonError(403, 'exporting a project needs the admin role');
  return archiveDownload(ctx.db, ctx.projectId);
}
