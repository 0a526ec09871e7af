import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '@/server/db';
import type { CcsTerms } from '@/lib/ccs/contract';
import {
  BLAME_COUNT_CAP,
  DIGEST_VERSION,
  DigestBuilder,
  digestView,
  emptyDigest,
  type DigestRow,
  type SessionDigest,
  type TermEventRow,
} from '@/lib/ccs/digest';
import type { TermEventKind } from '@/lib/ccs/provenance';
import { NotFoundError } from './errors';

/**
 * The replay's digest of a session (`lib/ccs/digest.ts`) and its terms' history, kept in `session_digests` and
 * `term_events`. Turns are only ever added, so the digest is brought up to date by reading just the turns after
 * the last one it holds, a chunk per short transaction (a writer never waits long, and a reader of a 100,000-turn
 * session never holds them all in memory); a turn that arrives out of order, or a change to the session's declared
 * stress turns, rebuilds it. Several app instances may catch up the same session at once: each chunk locks the
 * digest's row and continues from what it finds there.
 */

const CHUNK = 2000;

/** Stress turns declared in session metadata: `{"stress_turns": {"15": "conflict"}}` or `[{"turn": 15, "kind": …}]`. */
export function stressFromMetadata(metadata: Record<string, unknown>): Map<number, string> {
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

interface Current {
  turns: number;
  /** How many of its turns a correction replaced: a replaced turn changes the digest without changing the count. */
  revisions: number;
  /** The session's declared stress turns, as JSON text (they change the digest's stress marks). */
  stressMeta: string;
  metadata: Record<string, unknown>;
}

/** What the digest must reflect now: two primary-key lookups, never a scan of the turns. */
async function current(db: Tx, projectId: string, id: string): Promise<Current> {
  const [row] = rowsOf<{ metadata: Record<string, unknown>; turns: number | null; revisions: number }>(
    await db.execute(sql`
      select s.metadata, st.turn_count as turns,
             (select count(*)::int from record_versions v
               where v.project_id = s.project_id and v.record_type = 'turn'
                 and left(v.record_id, length(s.id) + 1) = s.id || '/') as revisions
        from sessions s left join session_stats st on st.project_id = s.project_id and st.session_id = s.id
       where s.project_id = ${projectId} and s.id = ${id}`),
  );
  if (!row) throw new NotFoundError('session', id);
  return {
    turns: Number(row.turns ?? 0),
    revisions: Number(row.revisions),
    stressMeta: JSON.stringify(row.metadata.stress_turns ?? null),
    metadata: row.metadata,
  };
}

const stampOf = (c: { turns: number; revisions: number; stressMeta: string }) =>
  `${c.turns}|${c.stressMeta.length}:${hash(c.stressMeta)}${c.revisions ? `|r${c.revisions}` : ''}`;

/** A short, stable hash (FNV-1a) of the declared stress turns, so the stamp stays a few bytes. */
function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/**
 * A few bytes that change whenever the session's digest does (its turn count and declared stress turns): what an
 * open replay page polls, to fetch the digest and the new turns only when it moved on.
 */
export async function sessionStamp(db: Tx, projectId: string, id: string): Promise<string> {
  return stampOf(await current(db, projectId, id));
}

interface Stored {
  turns: number;
  last_turn: number | null;
  stress_meta: string;
  digest: SessionDigest;
  last_ccs: CcsTerms;
}

async function stored(db: Tx, projectId: string, id: string, lock = false): Promise<Stored | null> {
  const [row] = rowsOf<Stored>(
    await db.execute(sql`
      select turns, last_turn, stress_meta, digest, last_ccs from session_digests
       where project_id = ${projectId} and session_id = ${id} ${lock ? sql`for update` : sql``}`),
  );
  return row
    ? { ...row, turns: Number(row.turns), last_turn: row.last_turn === null ? null : Number(row.last_turn) }
    : null;
}

async function saveEvents(tx: Tx, projectId: string, id: string, events: TermEventRow[]) {
  for (let k = 0; k < events.length; k += 20000)
    await tx.execute(sql`
      insert into term_events (project_id, session_id, field, term, turn, kind, other)
      select ${projectId}, ${id}, e.field, e.term, e.turn, e.kind, e.other
        from jsonb_to_recordset(${JSON.stringify(events.slice(k, k + 20000))}::jsonb)
          as e(field text, term text, turn int, kind text, other text)`);
}

/**
 * One chunk: up to CHUNK turns after the digest's last, under the digest row's lock, against what the session is
 * now (read under that lock: a caller that looked earlier may be behind another that has caught up since).
 */
async function advance(db: Tx, projectId: string, id: string): Promise<'more' | 'done' | 'rebuild'> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into session_digests (project_id, session_id, turns, last_turn, stress_meta, digest, last_ccs)
      values (${projectId}, ${id}, 0, null, 'null', ${JSON.stringify(emptyDigest())}::jsonb, '{}'::jsonb)
      on conflict do nothing`);
    const s = (await stored(tx, projectId, id, true))!;
    const now = await current(tx, projectId, id);
    // Built by an earlier version of this code: it may lack what this one keeps (alerts, before version 2).
    if ((s.digest.v ?? 1) !== DIGEST_VERSION) return 'rebuild';
    if (s.stress_meta !== now.stressMeta) return s.turns === 0 ? fresh(tx, projectId, id, now) : 'rebuild';
    if (s.turns >= now.turns) return 'done';
    const rows = rowsOf<DigestRow>(
      await tx.execute(sql`
        select turn, timestamp, extra->>'stress' as stress, left(input, 20000) as input, footprint, hallucination,
               drift, judge, ccs,
               extra->'usage' as usage,
               case when jsonb_typeof(extra->'state_changes') = 'number'
                    then (extra->>'state_changes')::float8 end as "stateChanges"
          from turns
         where project_id = ${projectId} and session_id = ${id}
               ${s.last_turn === null ? sql`` : sql`and turn > ${s.last_turn}`}
         order by turn
         limit ${CHUNK}`),
    );
    // Fewer turns after the last one than the count says: one arrived out of order, before it.
    if (!rows.length) return 'rebuild';
    const declared = stressFromMetadata(now.metadata);
    const b = new DigestBuilder({ digest: s.digest, last: s.last_ccs, lastTurn: s.last_turn });
    const events: TermEventRow[] = [];
    for (const r of rows) events.push(...b.push({ ...r, stress: r.stress ?? declared.get(r.turn) ?? null }));
    await saveEvents(tx, projectId, id, events);
    await tx.execute(sql`
      update session_digests
         set turns = ${b.digest.n}, last_turn = ${b.lastTurn}, digest = ${JSON.stringify(b.digest)}::jsonb,
             last_ccs = ${JSON.stringify(b.last)}::jsonb, built_at = now()
       where project_id = ${projectId} and session_id = ${id}`);
    return b.digest.n >= now.turns ? 'done' : 'more';
  });
}

/** An empty digest takes the session's declared stress turns as they are: nothing to rebuild yet. */
async function fresh(tx: Tx, projectId: string, id: string, now: Current): Promise<'more'> {
  await tx.execute(sql`update session_digests set stress_meta = ${now.stressMeta}
                        where project_id = ${projectId} and session_id = ${id}`);
  return 'more';
}

/** Starts the digest and the term history again from nothing (under the row's lock). */
async function reset(db: Tx, projectId: string, id: string) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from session_digests
                          where project_id = ${projectId} and session_id = ${id} for update`);
    const now = await current(tx, projectId, id);
    await tx.execute(sql`delete from term_events where project_id = ${projectId} and session_id = ${id}`);
    await tx.execute(sql`
      update session_digests
         set turns = 0, last_turn = null, stress_meta = ${now.stressMeta},
             digest = ${JSON.stringify(emptyDigest())}::jsonb, last_ccs = '{}'::jsonb, built_at = now()
       where project_id = ${projectId} and session_id = ${id}`);
  });
}

/** Brings the stored digest up to the session's turns; a no-op (two small reads) when it is. */
async function catchUp(db: Tx, projectId: string, id: string, stop: () => boolean = () => false) {
  const now = await current(db, projectId, id);
  const [s] = rowsOf<{ turns: number; stress_meta: string; v: string | null }>(
    await db.execute(sql`select turns, stress_meta, digest->>'v' as v from session_digests
                          where project_id = ${projectId} and session_id = ${id}`),
  );
  if (s && Number(s.turns) === now.turns && s.stress_meta === now.stressMeta && Number(s.v) === DIGEST_VERSION) return;
  let rebuilt = false;
  for (;;) {
    // Between chunks, the event loop runs: on the embedded database every query resolves without I/O, so a catch-up
    // of a long session never let this process answer a request (a 100,000-turn session: ~25 s of no answers), nor
    // hear that ingest resumed.
    await new Promise((r) => setImmediate(r));
    if (stop()) return;
    const step = await advance(db, projectId, id);
    if (step === 'done') break;
    if (step === 'rebuild') {
      // Once: a session still receiving turns out of order is caught up on the next view.
      if (rebuilt) break;
      rebuilt = true;
      await reset(db, projectId, id);
    }
  }
}

/** The stored digest, brought up to the session's turns, with its stamp. */
export async function refreshDigest(
  db: Tx,
  projectId: string,
  id: string,
): Promise<{ stamp: string; digest: SessionDigest }> {
  await catchUp(db, projectId, id);
  const [s, now] = await Promise.all([stored(db, projectId, id), current(db, projectId, id)]);
  // A replaced turn dropped the digest (forgetDigests), so one built since reflects the revisions counted now.
  return {
    stamp: stampOf({ turns: s!.turns, revisions: now.revisions, stressMeta: s!.stress_meta }),
    digest: s!.digest,
  };
}

/** What the replay page lays out before the digest has come (`digestShape`). */
export interface DigestShape {
  /** How many alerts of each kind. */
  alertCounts: SessionDigest['alertCounts'];
  /** The series that hold a value (`SessionDigest.series` keys), in the digest's order (it colours them). */
  series: string[];
}

/**
 * The shape of the stored digest, read in the database without sending the digest: the page the server renders lays
 * out the charts and alerts to the size they will have, so the turn it shows does not move when they are drawn. As
 * stored (it may lag the newest turns until a view or the background catches it up); null before it is built.
 */
export async function digestShape(db: Tx, projectId: string, id: string): Promise<DigestShape | null> {
  const [row] = rowsOf<{ alert_counts: DigestShape['alertCounts'] | null; series: string[] }>(
    await db.execute(sql`
      select d.digest -> 'alertCounts' as alert_counts,
        array(select e.key from jsonb_each(d.digest -> 'series') e
          where jsonb_path_exists(e.value, '$.max[*] ? (@ != null)')) as series
      from session_digests d where d.project_id = ${projectId} and d.session_id = ${id}`),
  );
  return row ? { alertCounts: row.alert_counts ?? {}, series: row.series } : null;
}

/** The digest as JSON text for the browser (`digestView`), with the stamp it answers to. */
export async function sessionDigestJson(db: Tx, projectId: string, id: string): Promise<string> {
  const { stamp, digest } = await refreshDigest(db, projectId, id);
  return JSON.stringify({ ...digestView(digest), stamp });
}

/**
 * Background catch-up, in idle time: ingest is the hot path, so digests are brought up to date once this process
 * has had no ingest for `IDLE_MS` (like autovacuum after a burst), one session at a time, stopping between chunks
 * when ingest resumes. A page that opens a session meanwhile catches it up itself. Per process; what one process
 * leaves undone, any other (or the next view) finishes from the stored state.
 */
const IDLE_MS = 1000;
const background = {
  pending: new Map<string, { db: Tx; projectId: string; id: string }>(),
  lastIngest: 0,
  inFlight: 0,
  busy: false,
};

/** Ingest requests tell the background work when they start and end: it waits while any is running. */
export async function duringIngest<T>(f: () => Promise<T>): Promise<T> {
  background.inFlight++;
  try {
    return await f();
  } finally {
    background.inFlight--;
    background.lastIngest = Date.now();
  }
}

/** After turns are written: queue their sessions' digests for catching up when ingest pauses. */
export function refreshDigestsSoon(db: Tx, projectId: string, ids: Iterable<string>) {
  background.lastIngest = Date.now();
  for (const id of ids) background.pending.set(`${projectId}\u0000${id}`, { db, projectId, id });
  schedule();
}

function schedule() {
  if (background.busy || !background.pending.size) return;
  background.busy = true;
  setTimeout(() => void drain(), IDLE_MS);
}

const ingestResumed = () => background.inFlight > 0 || Date.now() - background.lastIngest < IDLE_MS;

async function drain() {
  try {
    while (background.pending.size && !ingestResumed()) {
      const [key, job] = background.pending.entries().next().value!;
      background.pending.delete(key);
      try {
        await catchUp(job.db, job.projectId, job.id, ingestResumed);
      } catch {
        // Left for the next view, which catches up itself.
      }
      // Stopped for ingest before the end: back in the queue.
      if (ingestResumed()) background.pending.set(key, job);
    }
  } finally {
    background.busy = false;
    schedule();
  }
}

export interface TermBlame {
  /** Turn that brought the term in, as of each turn of the window where it is present (aligned with `turns`). */
  introduced: (number | null)[];
  /**
   * The term's first events in the session (at most 8) and how many it has in all, counted up to BLAME_COUNT_CAP + 1
   * (more means "over BLAME_COUNT_CAP"): a term that comes and goes all session long is not counted to the end on
   * every step.
   */
  first: { turn: number; kind: TermEventKind; other: string | null }[];
  total: number;
}

/**
 * For a window of turns (by position), where each of their terms came from: one indexed lookup per distinct term
 * in `term_events`, reading only the events inside the window, the last one before it and the term's first eight.
 */
export async function windowBlame(
  db: Tx,
  projectId: string,
  id: string,
  offset: number,
  limit: number,
): Promise<{ turns: number[]; terms: Record<string, TermBlame> }> {
  await catchUp(db, projectId, id);
  const window = rowsOf<{ turn: number; ccs: CcsTerms }>(
    await db.execute(sql`
      select turn, ccs from turns where project_id = ${projectId} and session_id = ${id}
       order by turn offset ${offset} limit ${limit}`),
  );
  if (!window.length) return { turns: [], terms: {} };
  const keys = new Map<string, { field: string; term: string }>();
  for (const t of window)
    for (const [field, list] of Object.entries(t.ccs))
      for (const term of list ?? []) keys.set(`${field}\u0000${term}`, { field, term });
  const lo = window[0]!.turn;
  const hi = window.at(-1)!.turn;
  const events = rowsOf<{
    field: string;
    term: string;
    turn: number;
    kind: TermEventKind;
    other: string | null;
    total: number;
    part: string;
  }>(
    await db.execute(sql`
      with k as (select * from jsonb_to_recordset(${JSON.stringify([...keys.values()])}::jsonb)
                   as k(field text, term text))
      select k.field, k.term, e.turn, e.kind, e.other, e.part, c.total
        from k
        cross join lateral (select count(*)::int as total from (select 1 from term_events x
                             where x.project_id = ${projectId} and x.session_id = ${id}
                               and x.field = k.field and md5(x.term) = md5(k.term) and x.term = k.term
                             limit ${BLAME_COUNT_CAP + 1}) capped) c
        cross join lateral (
          (select turn, kind, other, 'in' as part from term_events x
            where x.project_id = ${projectId} and x.session_id = ${id} and x.field = k.field
              and md5(x.term) = md5(k.term) and x.term = k.term and x.turn between ${lo} and ${hi})
          union all
          (select turn, kind, other, 'before' from term_events x
            where x.project_id = ${projectId} and x.session_id = ${id} and x.field = k.field
              and md5(x.term) = md5(k.term) and x.term = k.term and x.turn < ${lo}
            order by x.turn desc limit 1)
          union all
          (select turn, kind, other, 'first' from term_events x
            where x.project_id = ${projectId} and x.session_id = ${id} and x.field = k.field
              and md5(x.term) = md5(k.term) and x.term = k.term
            order by x.turn limit 8)
        ) e`),
  );
  const byKey = new Map<
    string,
    { timeline: { turn: number; kind: TermEventKind }[]; first: TermBlame['first']; total: number }
  >();
  for (const e of events) {
    const k = `${e.field}\u0000${e.term}`;
    let b = byKey.get(k);
    if (!b) byKey.set(k, (b = { timeline: [], first: [], total: Number(e.total) }));
    const ev = { turn: Number(e.turn), kind: e.kind, other: e.other };
    if (e.part === 'first') b.first.push(ev);
    else b.timeline.push(ev);
  }
  const out: Record<string, TermBlame> = {};
  for (const [k, b] of byKey) {
    b.timeline.sort((x, y) => x.turn - y.turn);
    b.first.sort((x, y) => x.turn - y.turn);
    const { field, term } = keys.get(k)!;
    let e = 0;
    let intro: number | null = null;
    const introduced = window.map((t) => {
      while (e < b.timeline.length && b.timeline[e]!.turn <= t.turn) {
        const ev = b.timeline[e++]!;
        if (ev.kind === 'added' || ev.kind === 'changed_to') intro = ev.turn;
      }
      return t.ccs[field]?.includes(term) ? intro : null;
    });
    out[k] = { introduced, first: b.first, total: b.total };
  }
  return { turns: window.map((t) => Number(t.turn)), terms: out };
}

/**
 * Turns of these sessions were replaced (a superseding correction): their digests and term histories are dropped, in
 * the replacing transaction, and built again from the turns as they now are on the next view or refresh.
 */
export async function forgetDigests(tx: Tx, projectId: string, ids: Iterable<string>) {
  const list = JSON.stringify([...ids]);
  await tx.execute(sql`delete from term_events where project_id = ${projectId}
                        and session_id in (select jsonb_array_elements_text(${list}::jsonb))`);
  await tx.execute(sql`delete from session_digests where project_id = ${projectId}
                        and session_id in (select jsonb_array_elements_text(${list}::jsonb))`);
}
