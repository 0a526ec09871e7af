import { NextResponse } from 'next/server';
import { toNdjson } from '@/lib/ingest/ndjson';
import { exportSession, sessionState } from '@/server/services/sessions';
import { exportSubstrate } from '@/server/services/substrate';
import { authenticate, jsonError, withDomainErrors } from './respond';

/** GET /api/v1/sessions/{id}/export — the session as NDJSON envelopes, in the format the importer takes. */
export async function sessionExportGet(req: Request, ctx: { params: Promise<{ id: string }> }) {
  const auth = await authenticate(req);
  if (auth instanceof NextResponse) return auth;
  const { id } = await ctx.params;
  return withDomainErrors(async () => {
    const envelopes = await exportSession(auth.db, auth.projectId, id);
    return new NextResponse(toNdjson(envelopes), {
      headers: {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'content-disposition': `attachment; filename="session-${encodeURIComponent(id)}.ndjson"`,
      },
    });
  });
}

/** GET /api/v1/agents/{agent}/ucs/export — an agent's substrate (states, documents, action log) as NDJSON envelopes. */
export async function substrateExportGet(req: Request, ctx: { params: Promise<{ agent: string }> }) {
  const auth = await authenticate(req);
  if (auth instanceof NextResponse) return auth;
  const { agent } = await ctx.params;
  const envelopes = await exportSubstrate(auth.db, auth.projectId, agent);
  if (!envelopes.length) return jsonError(404, `no substrate data for agent ${JSON.stringify(agent)}`);
  return new NextResponse(toNdjson(envelopes), { headers: { 'content-type': 'application/x-ndjson; charset=utf-8' } });
}

/**
 * GET /api/v1/sessions/{id}/state?turn= — the session's latest CCS, or the one committed at `turn`, with its turn,
 * H_t / D_t and, for a fork, where it was forked from: what an agent resumes from (MCP `get_session_state` too).
 */
export async function sessionStateGet(req: Request, ctx: { params: Promise<{ id: string }> }) {
  const auth = await authenticate(req);
  if (auth instanceof NextResponse) return auth;
  const { id } = await ctx.params;
  const raw = new URL(req.url).searchParams.get('turn');
  const turn = raw === null || raw === '' ? undefined : Number(raw);
  if (turn !== undefined && !(Number.isInteger(turn) && turn >= 0))
    return jsonError(400, `turn: ${JSON.stringify(raw)} is not a whole number ≥ 0`);
  return withDomainErrors(async () => {
    const state = await sessionState(auth.db, auth.projectId, id, turn);
    if (!state)
      return jsonError(
        404,
        turn === undefined
          ? `session ${JSON.stringify(id)} not found or has no turns`
          : `session ${JSON.stringify(id)} has no turn ${turn}`,
      );
    return NextResponse.json(state);
  });
}
