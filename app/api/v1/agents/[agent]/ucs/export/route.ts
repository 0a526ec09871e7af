import { NextResponse } from 'next/server';
import { authenticate, jsonError } from '@/server/http/respond';
import { exportUcsAgent } from '@/server/services/ucs';
import { toNdjson } from '@/lib/ingest/ndjson';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/v1/agents/{agent}/ucs/export — an agent's substrate (states, documents, action log) as NDJSON envelopes. */
export async function GET(req: Request, ctx: { params: Promise<{ agent: string }> }) {
  const auth = await authenticate(req);
  if (auth instanceof NextResponse) return auth;
  const { agent } = await ctx.params;
  const envelopes = await exportUcsAgent(auth.db, auth.projectId, agent);
  if (!envelopes.length) return jsonError(404, `no substrate data for agent ${JSON.stringify(agent)}`);
  return new NextResponse(toNdjson(envelopes), { headers: { 'content-type': 'application/x-ndjson; charset=utf-8' } });
}
