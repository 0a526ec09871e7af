import { sql } from 'drizzle-orm';
import type { IngestResult } from '@/lib/ingest/contract';
import type { OtlpEnvelope } from '@/lib/otel/otlp';
import { rowsOf, type Db } from '@/server/db';
import { countResults, ingest, type IngestSummary } from './ingest';
import { notifyTurnEventsOf } from './live';

/** Numbering rounds: each one stores at least one of the turns that collided, so N writers at once need N at worst. */
const ROUNDS = 16;

/** `x1, x2, …` as SQL parameters, for `in (…)`. */
export const list = (xs: string[]) =>
  sql.join(
    xs.map((x) => sql`${x}`),
    sql`, `,
  );

/**
 * Stores what OTLP traces became (lib/otel/otlp.ts). Turns assembled from whole traces carry no number: each gets the
 * next free one in its session, in the order its spans started, except that a span already stored keeps its number
 * (a retried export is a duplicate, not a new turn). No lock is held between numbering and writing, so instances
 * never wait on one another: a number another writer took meanwhile comes back as a duplicate whose stored span is
 * not ours, and that turn is numbered again (each round stores at least one).
 */
export async function ingestOtel(
  db: Db,
  projectId: string,
  envelopes: OtlpEnvelope[],
  actor: string,
): Promise<IngestSummary> {
  const results: IngestResult[] = new Array(envelopes.length);
  let todo = envelopes.map((_, i) => i);
  const numbered = new Set<number>();
  // What the curator made of the events: all in the first round (only turns are numbered again); none in the others.
  let curation: IngestSummary['curation'];
  for (let round = 0; round < ROUNDS && todo.length; round++) {
    // Writers that collided back off a little, differently, so the next round does not collide again.
    if (round) await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * round));
    const need = todo.filter((i) => envelopes[i]!.type === 'turn' && envelopes[i]!.data.turn === undefined);
    if (need.length) await number(db, projectId, envelopes, need, numbered);
    // A memory event emitted in a turn numbered here takes the turn's number, stored with it in one transaction (so
    // that a page that hears of the turn finds its events); should the turn be numbered again, so is the event, below.
    for (const i of todo) {
      const turn = envelopes[i]!.turnOf;
      if (turn) envelopes[i]!.data.turn = turn.data.turn;
    }
    const last = await ingest(
      db,
      projectId,
      todo.map((i) => ({
        ok: true as const,
        value: { type: envelopes[i]!.type, data: envelopes[i]!.data, source: `otlp:${envelopes[i]!.source}` },
      })),
      actor,
      { spanRetries: true },
    );
    curation ??= last.curation;
    const again: number[] = [];
    const taken = await collisions(
      db,
      projectId,
      last.results.flatMap((r, k) =>
        (r.status === 'duplicate' || r.status === 'conflict') && numbered.has(todo[k]!) ? [todo[k]!] : [],
      ),
      envelopes,
    );
    last.results.forEach((r, k) => {
      const i = todo[k]!;
      if (taken.has(i)) {
        delete envelopes[i]!.data.turn;
        again.push(i);
      } else results[i] = { ...r, index: i };
    });
    todo = again;
  }
  for (const i of todo)
    results[i] = {
      index: i,
      status: 'rejected',
      type: 'turn',
      errors: [{ path: 'data.turn', message: 'could not be numbered: its session is being written too fast; retry' }],
    };
  await renumberEvents(db, projectId, envelopes, results);
  return { results, ...countResults(results), ...(curation ? { curation } : {}) };
}

/** `event_id in (…)` with the ids as one parameter, however many. */
const eventIn = (ids: string[]) => sql`event_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;

/**
 * Memory events stored at a turn that was then numbered again (another writer took its number), or refused: moved to
 * the turn's final number, or to no turn (still of the session). An event already stored (a retried export) is moved
 * too where it is not at its turn: the request before may have stopped between storing it and moving it.
 */
async function renumberEvents(db: Db, projectId: string, envelopes: OtlpEnvelope[], results: IngestResult[]) {
  const at = new Map(envelopes.map((e, i) => [e, i]));
  const moved = new Map<number | null, string[]>();
  const again = new Map<number | null, string[]>();
  envelopes.forEach((e, i) => {
    const status = results[i]?.status;
    if (!e.turnOf || (status !== 'accepted' && status !== 'duplicate')) return;
    const stored = results[at.get(e.turnOf)!]?.status !== 'rejected';
    const turn = stored ? ((e.turnOf.data.turn as number | undefined) ?? null) : null;
    if (status === 'accepted' && turn === e.data.turn) return;
    const into = status === 'accepted' ? moved : again;
    into.set(turn, [...(into.get(turn) ?? []), String(e.data.event_id)]);
  });
  // Of the events sent again, those stored elsewhere than their turn (most are where they belong: nothing to do),
  // read in one query however many turns the export holds.
  const sentAgain = [...again.values()].flat();
  if (sentAgain.length) {
    const storedAt = new Map(
      rowsOf<{ event_id: string; turn: number | null }>(
        await db.execute(
          sql`select event_id, turn from memory_events where project_id = ${projectId} and ${eventIn(sentAgain)}`,
        ),
      ).map((r) => [r.event_id, r.turn === null ? null : Number(r.turn)]),
    );
    for (const [turn, ids] of again) {
      const astray = ids.filter((id) => storedAt.has(id) && storedAt.get(id) !== turn);
      if (astray.length) moved.set(turn, [...(moved.get(turn) ?? []), ...astray]);
    }
  }
  // The event as sent (`raw`, which an export gives back) says so too.
  for (const [turn, ids] of moved)
    await db.transaction(async (tx) => {
      // Before the move: an event moved to no turn is no longer found by the turns' sessions.
      await notifyTurnEventsOf(tx, projectId, ids);
      const these = eventIn(ids);
      await tx.execute(
        turn === null
          ? sql`update memory_events set turn = null, raw = raw - 'turn' where project_id = ${projectId} and ${these}`
          : sql`update memory_events set turn = ${turn}, raw = jsonb_set(raw, '{turn}', to_jsonb(${turn}::int))
              where project_id = ${projectId} and ${these}`,
      );
    });
}

/** Gives each unnumbered turn its stored number (same span) or the next free one in its session. */
async function number(db: Db, projectId: string, envelopes: OtlpEnvelope[], need: number[], numbered: Set<number>) {
  const sessions = [...new Set(need.map((i) => String(envelopes[i]!.data.session_id)))];
  const spanOf = (i: number) => (envelopes[i]!.data.otel as { span_id?: string | null } | undefined)?.span_id ?? null;
  const spans = need.map(spanOf).filter((s): s is string => !!s);
  const [known, maxes] = await Promise.all([
    spans.length
      ? db.execute(
          sql`select session_id, turn, extra->'otel'->>'span_id' as span from turns
              where project_id = ${projectId} and session_id in (${list(sessions)})
                and extra->'otel'->>'span_id' in (${list(spans)})`,
        )
      : null,
    db.execute(
      sql`select session_id, max(turn) as n from turns where project_id = ${projectId}
          and session_id in (${list(sessions)}) group by session_id`,
    ),
  ]);
  const stored = new Map(
    rowsOf<{ session_id: string; turn: number; span: string }>(known ?? { rows: [] }).map((r) => [
      `${r.session_id}\u0000${r.span}`,
      Number(r.turn),
    ]),
  );
  const next = new Map(rowsOf<{ session_id: string; n: number }>(maxes).map((r) => [r.session_id, Number(r.n)]));
  // Numbers already given in this request (explicit ones included) are not given again.
  for (const e of envelopes)
    if (e.type === 'turn' && typeof e.data.turn === 'number') {
      const s = String(e.data.session_id);
      next.set(s, Math.max(next.get(s) ?? 0, e.data.turn));
    }
  const order = [...need].sort(
    (a, b) =>
      String(envelopes[a]!.data.timestamp ?? '').localeCompare(String(envelopes[b]!.data.timestamp ?? '')) || a - b,
  );
  for (const i of order) {
    const d = envelopes[i]!.data;
    const s = String(d.session_id);
    const mine = spanOf(i) && stored.get(`${s}\u0000${spanOf(i)}`);
    if (mine) d.turn = mine;
    else {
      const n = (next.get(s) ?? 0) + 1;
      next.set(s, n);
      d.turn = n;
      numbered.add(i);
    }
  }
}

/** Of the turns numbered here that came back duplicate, those whose number holds another span (taken meanwhile). */
async function collisions(db: Db, projectId: string, dups: number[], envelopes: OtlpEnvelope[]) {
  const out = new Set<number>();
  if (!dups.length) return out;
  const rows = rowsOf<{ session_id: string; turn: number; span: string | null }>(
    await db.execute(
      sql`select session_id, turn, extra->'otel'->>'span_id' as span from turns where project_id = ${projectId}
          and (session_id, turn) in (${sql.join(
            dups.map((i) => sql`(${String(envelopes[i]!.data.session_id)}, ${Number(envelopes[i]!.data.turn)})`),
            sql`, `,
          )})`,
    ),
  );
  const at = new Map(rows.map((r) => [`${r.session_id}\u0000${r.turn}`, r.span]));
  for (const i of dups) {
    const d = envelopes[i]!.data;
    const span = (d.otel as { span_id?: string | null } | undefined)?.span_id ?? null;
    if (at.get(`${d.session_id}\u0000${d.turn}`) !== span) out.add(i);
  }
  return out;
}
