import { NextResponse } from 'next/server';
import { toNdjson } from '@/lib/ingest/ndjson';
import { exportSession } from '@/server/services/sessions';
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
