import { NextResponse } from 'next/server';
import { z } from 'zod';
import { annotationFilterSchema, annotationRecord } from '@/lib/annotations/contract';
import { env } from '@/server/env';
import { listAnnotations } from '@/server/services/annotations';
import { storePrepared } from '@/server/services/ingest';
import { prepareItems } from '@/server/services/ingest-prepare';
import { authedBody, authenticate, jsonError, withDomainErrors } from './respond';

/**
 * POST /api/v1/annotations — one annotation (the `data` of an `annotation` record) or a JSON array of them, e.g. an
 * automated judge's scores. The same as sending `{"type":"annotation","data":…}` records to /api/v1/ingest; one
 * result per annotation, 207 when any was rejected.
 */
export async function annotationsPost(req: Request) {
  const { MNEMOSCOPE_MAX_BODY_BYTES, MNEMOSCOPE_MAX_BATCH } = env();
  const got = await authedBody(req, MNEMOSCOPE_MAX_BODY_BYTES);
  if (got instanceof NextResponse) return got;
  const { auth, body } = got;
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (e) {
    return jsonError(400, `body is not JSON: ${e instanceof SyntaxError ? e.message : 'it is not valid UTF-8'}`);
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (!list.length) return jsonError(400, 'body holds no annotations');
  if (list.length > MNEMOSCOPE_MAX_BATCH)
    return jsonError(413, `at most ${MNEMOSCOPE_MAX_BATCH} annotations a request (got ${list.length})`);
  const prepared = prepareItems(list.map((data) => ({ ok: true, value: { type: 'annotation', data } })));
  return withDomainErrors(async () => {
    const summary = await storePrepared(auth.db, auth.projectId, prepared, auth.actor);
    return NextResponse.json(summary, { status: summary.rejected || summary.conflicts ? 207 : 200 });
  });
}

const query = annotationFilterSchema.omit({ commented: true, turn: true }).extend({
  commented: z.enum(['true', 'false']).optional(),
  turn: z.coerce.number().int().nonnegative().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  /** The `next` of the previous page, as given. */
  cursor: z.string().max(600).optional(),
});

/**
 * GET /api/v1/annotations?session_id=&target=&name=&author=&commented=&proposal_id=&entry_id=&turn=&limit=&cursor=
 * — newest first; `next` is the cursor of the following page (null at the end).
 */
export async function annotationsGet(req: Request) {
  const auth = await authenticate(req);
  if (auth instanceof NextResponse) return auth;
  const params = new URL(req.url).searchParams;
  const snake: Record<string, string> = { session_id: 'sessionId', proposal_id: 'proposalId', entry_id: 'entryId' };
  const raw: Record<string, string> = {};
  for (const [k, v] of params) raw[snake[k] ?? k] = v;
  const q = query.strict().safeParse(raw);
  if (!q.success) {
    const i = q.error.issues[0]!;
    const name = String(i.path[0] ?? '');
    const back = Object.entries(snake).find(([, v]) => v === name)?.[0] ?? name;
    return jsonError(
      400,
      `${back || 'query'}: ${i.code === 'unrecognized_keys' ? `unknown parameter(s) ${i.keys.join(', ')}` : i.message}`,
    );
  }
  let after: { at: string; id: string } | null = null;
  if (q.data.cursor) {
    try {
      const c = JSON.parse(Buffer.from(q.data.cursor, 'base64url').toString('utf8')) as { at?: unknown; id?: unknown };
      if (typeof c.at !== 'string' || typeof c.id !== 'string' || !/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(c.at))
        throw new Error();
      after = { at: c.at, id: c.id };
    } catch {
      return jsonError(400, 'cursor: not a cursor this server gave (pass `next` from the previous page as it is)');
    }
  }
  return withDomainErrors(async () => {
    const { cursor: _, commented, ...f } = q.data;
    const page = await listAnnotations(auth.db, auth.projectId, {
      ...f,
      commented: commented === undefined ? undefined : commented === 'true',
      after,
    });
    return NextResponse.json({
      annotations: page.items.map(annotationRecord),
      matching: page.matching,
      next: page.next ? Buffer.from(JSON.stringify(page.next)).toString('base64url') : null,
    });
  });
}
