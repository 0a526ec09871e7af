import { and, asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/server/db';
import { sessions, turns } from '@/server/db/schema/sessions';
import { encodeOutline, type SessionOutline } from '@/lib/ccs/outline';
import { NotFoundError } from './errors';

// Outlines of recently opened sessions, each valid while the session's turn count and last ingest
// time are unchanged; a cheap check replaces re-reading thousands of CCS on every open or poll.
const MAX_CACHED = 20;
// One cache per database handle, so two databases in one process (tests) never share entries.
const caches = new WeakMap<object, Map<string, { stamp: string; json: string }>>();

/**
 * Stress turns declared in session metadata: `{"stress_turns": {"15": "conflict"}}` or
 * `[{"turn": 15, "kind": "conflict"}]`.
 */
function stressFromMetadata(metadata: Record<string, unknown>): Map<number, string> {
  const out = new Map<number, string>();
  const s = metadata.stress_turns;
  if (Array.isArray(s)) {
    for (const x of s)
      if (x && typeof x === 'object' && typeof (x as { turn?: unknown }).turn === 'number')
        out.set((x as { turn: number }).turn, String((x as { kind?: unknown }).kind ?? 'stress'));
  } else if (s && typeof s === 'object') {
    for (const [k, v] of Object.entries(s)) if (Number.isFinite(Number(k))) out.set(Number(k), String(v));
  }
  return out;
}

/**
 * The session's outline as JSON text (sent as is: a large nested array is cheaper to parse natively than to
 * walk); the UI reads it with `parseOutline`.
 */
async function outlineMeta(db: Tx, projectId: string, id: string) {
  const [meta] = await db
    .select({
      metadata: sessions.metadata,
      count: sql<number>`(select count(*)::int from ${turns} t
        where t.project_id = ${sessions.projectId} and t.session_id = ${sessions.id})`,
      last: sql<string | null>`(select max(t.ingested_at)::text from ${turns} t
        where t.project_id = ${sessions.projectId} and t.session_id = ${sessions.id})`,
    })
    .from(sessions)
    .where(and(eq(sessions.projectId, projectId), eq(sessions.id, id)));
  if (!meta) throw new NotFoundError('session', id);
  return { ...meta, stamp: `${meta.count}|${meta.last}|${JSON.stringify(meta.metadata.stress_turns ?? null)}` };
}

/**
 * What changes whenever the session's outline does (its turn count, last write and stress marks), in a few dozen
 * bytes: an open replay page polls this and fetches the outline again only when it differs.
 */
export async function sessionOutlineStamp(db: Tx, projectId: string, id: string): Promise<string> {
  return (await outlineMeta(db, projectId, id)).stamp;
}

export async function sessionOutlineJson(db: Tx, projectId: string, id: string): Promise<string> {
  const meta = await outlineMeta(db, projectId, id);
  const stamp = meta.stamp;
  const key = `${projectId}\u0000${id}`;
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(key);
  if (hit?.stamp === stamp) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.json;
  }
  const rows = await db
    .select({
      turn: turns.turn,
      timestamp: turns.timestamp,
      stress: sql<string | null>`${turns.extra}->>'stress'`,
      footprint: turns.footprint,
      hallucination: turns.hallucination,
      drift: turns.drift,
      judge: turns.judge,
      ccs: turns.ccs,
    })
    .from(turns)
    .where(and(eq(turns.projectId, projectId), eq(turns.sessionId, id)))
    .orderBy(asc(turns.turn));
  const declared = stressFromMetadata(meta.metadata);
  const outline: SessionOutline = encodeOutline(
    rows.map((r) => ({ ...r, stress: r.stress ?? declared.get(r.turn) ?? null })),
  );
  const json = JSON.stringify({ ...outline, stamp });
  cache.set(key, { stamp, json });
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  return json;
}
