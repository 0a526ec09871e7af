import { NextResponse } from 'next/server';
import { ready } from '@/server/bootstrap';
import { stoppingSignal } from '@/server/lifecycle';
import { awaitDecision, MAX_WAIT_SECONDS } from '@/server/services/decisions';
import { authenticate, jsonError, rateLimit, withDomainErrors } from './respond';

/**
 * GET /api/v1/memory-events/{id}?wait=<seconds> — what became of a memory event the agent sent (see
 * server/services/decisions.ts). With `wait`, a long poll: the answer comes as soon as a pending review is decided
 * (on any instance), or after `wait` seconds with `final: false`. 404 when the project holds no such event.
 */
export async function memoryEventGet(req: Request, ctx: { params: Promise<{ id: string }> }) {
  const auth = await authenticate(req);
  if (auth instanceof NextResponse) return auth;
  // Each poll counts against the key's rate limit, as an ingest request does.
  const limited = await rateLimit(auth.db, auth.keyId);
  if (limited) return limited;
  const { id } = await ctx.params;
  const raw = new URL(req.url).searchParams.get('wait');
  const wait = raw === null || raw === '' ? 0 : Number(raw);
  if (!(Number.isFinite(wait) && wait >= 0 && wait <= MAX_WAIT_SECONDS))
    return jsonError(400, `wait: ${JSON.stringify(raw)} is not a number of seconds from 0 to ${MAX_WAIT_SECONDS}`);
  return withDomainErrors(async () => {
    // A wait ends early, with what is known so far (`final: false`), when the client goes or this instance stops.
    const d = await awaitDecision(await ready(), auth.projectId, id, wait * 1000, req.signal, stoppingSignal());
    if (!d)
      return jsonError(
        404,
        `memory event ${JSON.stringify(id)} not found in this project (not sent yet, refused as invalid, or sent ` +
          'with a key of another project)',
      );
    return NextResponse.json(d, { headers: { 'cache-control': 'no-store' } });
  });
}
