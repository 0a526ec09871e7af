import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Tx } from '@/server/db';
import {
  addTurns,
  bucketOf,
  emptyStats,
  widthFor,
  type Bucket,
  type SessionStats,
  type StatsTurn,
} from '@/lib/sessions/stats';

/**
 * The sessions list's per-session figures (`lib/sessions/stats.ts`) in `session_stats`: added to by every ingest
 * batch in its own transaction, rebuilt from the turns after a project import and for sessions that have turns
 * but no figures yet (the back-fill after upgrading, run with the migrations).
 */

interface StatsRow {
  session_id: string;
  turn_count: number;
  first_at: string | null;
  last_at: string | null;
  h_sum: number;
  h_n: number;
  d_sum: number;
  d_n: number;
  first_turn: number | null;
  first_drift: number | null;
  width: number;
  ccs: Bucket[];
  transcript: Bucket[];
  tokens: number;
  tokens_n: number;
  cost: number;
  cost_n: number;
  latency_sum: number;
  latency_n: number;
}

const fromRow = (r: StatsRow): SessionStats => ({
  turnCount: Number(r.turn_count),
  firstAt: r.first_at,
  lastAt: r.last_at,
  hSum: Number(r.h_sum),
  hN: Number(r.h_n),
  dSum: Number(r.d_sum),
  dN: Number(r.d_n),
  firstTurn: r.first_turn === null ? null : Number(r.first_turn),
  firstDrift: r.first_drift === null ? null : Number(r.first_drift),
  width: Number(r.width),
  ccs: r.ccs,
  transcript: r.transcript,
  tokens: Number(r.tokens),
  tokensN: Number(r.tokens_n),
  cost: Number(r.cost),
  costN: Number(r.cost_n),
  latencySum: Number(r.latency_sum),
  latencyN: Number(r.latency_n),
});

async function save(tx: Tx, projectId: string, stats: Map<string, SessionStats>) {
  if (!stats.size) return;
  const payload = JSON.stringify(
    [...stats].map(([session_id, s]) => ({
      session_id,
      turn_count: s.turnCount,
      first_at: s.firstAt,
      last_at: s.lastAt,
      h_sum: s.hSum,
      h_n: s.hN,
      d_sum: s.dSum,
      d_n: s.dN,
      first_turn: s.firstTurn,
      first_drift: s.firstDrift,
      width: s.width,
      ccs: s.ccs,
      transcript: s.transcript,
      tokens: s.tokens,
      tokens_n: s.tokensN,
      cost: s.cost,
      cost_n: s.costN,
      latency_sum: s.latencySum,
      latency_n: s.latencyN,
    })),
  );
  await tx.execute(sql`
    insert into session_stats (project_id, session_id, turn_count, first_at, last_at, h_sum, h_n, d_sum, d_n,
                               first_turn, first_drift, width, ccs, transcript, tokens, tokens_n, cost, cost_n,
                               latency_sum, latency_n)
    select ${projectId}, x.session_id, x.turn_count, x.first_at::timestamptz, x.last_at::timestamptz, x.h_sum,
           x.h_n, x.d_sum, x.d_n, x.first_turn, x.first_drift, x.width, x.ccs, x.transcript, x.tokens, x.tokens_n,
           x.cost, x.cost_n, x.latency_sum, x.latency_n
      from jsonb_to_recordset(${payload}::jsonb) as x(session_id text, turn_count int, first_at text, last_at text,
           h_sum float8, h_n int, d_sum float8, d_n int, first_turn int, first_drift float8, width int, ccs jsonb,
           transcript jsonb, tokens float8, tokens_n int, cost float8, cost_n int, latency_sum float8, latency_n int)
    on conflict (project_id, session_id) do update set
      turn_count = excluded.turn_count, first_at = excluded.first_at, last_at = excluded.last_at,
      h_sum = excluded.h_sum, h_n = excluded.h_n, d_sum = excluded.d_sum, d_n = excluded.d_n,
      first_turn = excluded.first_turn, first_drift = excluded.first_drift,
      width = excluded.width, ccs = excluded.ccs, transcript = excluded.transcript, tokens = excluded.tokens,
      tokens_n = excluded.tokens_n, cost = excluded.cost, cost_n = excluded.cost_n,
      latency_sum = excluded.latency_sum, latency_n = excluded.latency_n`);
}

/**
 * The sessions' rows, made if missing and locked, in session order (so that writers never deadlock), with their
 * figures.
 */
async function lockStats(tx: Tx, projectId: string, sessionIds: Iterable<string>) {
  const ids = [...new Set(sessionIds)].sort();
  return rowsOf<StatsRow>(
    await tx.execute(sql`
      insert into session_stats (project_id, session_id)
      select ${projectId}, id from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) with ordinality as x(id, n)
       order by n
      on conflict (project_id, session_id) do update set turn_count = session_stats.turn_count
      returning session_id, turn_count, to_jsonb(first_at) #>> '{}' as first_at, to_jsonb(last_at) #>> '{}' as last_at,
                h_sum, h_n, d_sum, d_n, first_turn, first_drift, width, ccs, transcript, tokens, tokens_n, cost,
                cost_n, latency_sum, latency_n`),
  );
}

/**
 * Adds newly stored turns to their sessions' figures, in the ingest batch's transaction. The rows are locked in
 * session order (an upsert that returns them), so concurrent batches on one session add up and never deadlock.
 */
export async function addToSessionStats(tx: Tx, projectId: string, turns: (StatsTurn & { sessionId: string })[]) {
  if (!turns.length) return;
  const bySession = new Map<string, StatsTurn[]>();
  for (const t of turns) {
    const list = bySession.get(t.sessionId) ?? [];
    list.push(t);
    bySession.set(t.sessionId, list);
  }
  const current = await lockStats(tx, projectId, bySession.keys());
  const next = new Map<string, SessionStats>();
  for (const row of current) next.set(row.session_id, addTurns(fromRow(row), bySession.get(row.session_id)!));
  await save(tx, projectId, next);
}

/**
 * A turn's tokens (in + out; null when neither was sent), cost and latency as SQL over the `extra` column of `turns`
 * (prefixed: `t.` in a query, nothing in a RETURNING clause): the usage a whole OTLP trace left there. `usage` is an
 * extra field agents may send in any shape, so only JSON numbers not below 0 count (`usageNumber`); anything else is no
 * figure, never an error.
 */
export function usageSql(prefix: '' | 't.') {
  // Nested, not `and`: the cast must only ever see a JSON number (the order of `and` is not PostgreSQL's promise).
  const v = (key: string) => `(${prefix}extra->'usage'->>'${key}')::float8`;
  const n = (key: string) =>
    `case when jsonb_typeof(${prefix}extra->'usage'->'${key}') = 'number' ` +
    `then case when ${v(key)} >= 0 then ${v(key)} end end`;
  return {
    tokens: sql.raw(
      `case when ${n('input_tokens')} is not null or ${n('output_tokens')} is not null ` +
        `then coalesce(${n('input_tokens')}, 0) + coalesce(${n('output_tokens')}, 0) end`,
    ),
    cost: sql.raw(n('cost')),
    latency: sql.raw(n('latency_ms')),
  };
}
const { tokens: TOKENS, cost: COST, latency: LATENCY } = usageSql('t.');

/**
 * Recomputes the figures from the turns: of one project (after an import), or of every session that has turns
 * but no figures (the back-fill). Two aggregate queries over the turns, however many sessions.
 */
export async function rebuildSessionStats(
  tx: Tx,
  scope: { projectId: string; sessionIds?: string[] } | 'missing',
): Promise<number> {
  const where: SQL =
    scope === 'missing'
      ? sql`not exists (select 1 from session_stats s
                         where s.project_id = t.project_id and s.session_id = t.session_id)`
      : scope.sessionIds
        ? sql`t.project_id = ${scope.projectId}
              and t.session_id in (select jsonb_array_elements_text(${JSON.stringify(scope.sessionIds)}::jsonb))`
        : sql`t.project_id = ${scope.projectId}`;
  const base = rowsOf<
    Pick<
      StatsRow,
      | 'session_id'
      | 'first_at'
      | 'last_at'
      | 'h_sum'
      | 'h_n'
      | 'd_sum'
      | 'd_n'
      | 'first_turn'
      | 'first_drift'
      | 'tokens'
      | 'tokens_n'
      | 'cost'
      | 'cost_n'
      | 'latency_sum'
      | 'latency_n'
    > & {
      project_id: string;
      n: number;
      max_turn: number;
    }
  >(
    await tx.execute(sql`
      select t.project_id, t.session_id, count(*)::int as n, to_jsonb(min(t.ts)) #>> '{}' as first_at,
             to_jsonb(max(t.ts)) #>> '{}' as last_at,
             coalesce(sum(t.hallucination), 0)::float8 as h_sum, count(t.hallucination)::int as h_n,
             coalesce(sum(t.drift) filter (where t.turn > f.turn), 0)::float8 as d_sum,
             count(t.drift) filter (where t.turn > f.turn)::int as d_n, max(t.turn)::int as max_turn,
             f.turn as first_turn, f.drift as first_drift,
             coalesce(sum(${TOKENS}), 0)::float8 as tokens, count(${TOKENS})::int as tokens_n,
             coalesce(sum(${COST}), 0)::float8 as cost, count(${COST})::int as cost_n,
             coalesce(sum(${LATENCY}), 0)::float8 as latency_sum, count(${LATENCY})::int as latency_n
        from turns t
        -- Each session's first turn (the lowest number) and its drift, which D̄ leaves out.
        join (select distinct on (t.project_id, t.session_id) t.project_id, t.session_id, t.turn, t.drift
                from turns t where ${where} order by t.project_id, t.session_id, t.turn) f
          on f.project_id = t.project_id and f.session_id = t.session_id
       where ${where} group by t.project_id, t.session_id, f.turn, f.drift`),
  );
  if (!base.length) return 0;
  const key = (p: string, s: string) => `${p}\u0000${s}`;
  const stats = new Map<string, SessionStats & { projectId: string; sessionId: string }>();
  for (const b of base) {
    const width = widthFor(Number(b.max_turn));
    const buckets = () => Array.from({ length: bucketOf(Number(b.max_turn), width) + 1 }, (): Bucket => [0, 0]);
    stats.set(key(b.project_id, b.session_id), {
      ...emptyStats(),
      projectId: b.project_id,
      sessionId: b.session_id,
      turnCount: Number(b.n),
      firstAt: b.first_at,
      lastAt: b.last_at,
      hSum: Number(b.h_sum),
      hN: Number(b.h_n),
      dSum: Number(b.d_sum),
      dN: Number(b.d_n),
      firstTurn: Number(b.first_turn),
      firstDrift: b.first_drift === null ? null : Number(b.first_drift),
      tokens: Number(b.tokens),
      tokensN: Number(b.tokens_n),
      cost: Number(b.cost),
      costN: Number(b.cost_n),
      latencySum: Number(b.latency_sum),
      latencyN: Number(b.latency_n),
      width,
      ccs: buckets(),
      transcript: buckets(),
    });
  }
  const widths = JSON.stringify([...stats.values()].map((s) => ({ p: s.projectId, s: s.sessionId, w: s.width })));
  const cells = rowsOf<{ p: string; s: string; b: number; cs: number; cn: number; ts: number; tn: number }>(
    await tx.execute(sql`
      select x.p, x.s, (greatest(t.turn, 1) - 1) / x.w as b,
             coalesce(sum((t.footprint->>'ccs')::float8), 0)::float8 as cs,
             count((t.footprint->>'ccs')::float8)::int as cn,
             coalesce(sum((t.footprint->>'transcript')::float8), 0)::float8 as ts,
             count((t.footprint->>'transcript')::float8)::int as tn
        from jsonb_to_recordset(${widths}::jsonb) as x(p text, s text, w int)
        join turns t on t.project_id = x.p and t.session_id = x.s
       group by x.p, x.s, x.w, b`),
  );
  for (const c of cells) {
    const s = stats.get(key(c.p, c.s))!;
    s.ccs[Number(c.b)] = [Number(c.cs), Number(c.cn)];
    s.transcript[Number(c.b)] = [Number(c.ts), Number(c.tn)];
  }
  const byProject = new Map<string, Map<string, SessionStats>>();
  for (const s of stats.values()) {
    const m = byProject.get(s.projectId) ?? new Map<string, SessionStats>();
    m.set(s.sessionId, s);
    byProject.set(s.projectId, m);
  }
  for (const [projectId, m] of byProject) await save(tx, projectId, m);
  return stats.size;
}

/** Counts these sessions' figures again from their turns (after turns were replaced, not added). */
export async function recountSessionStats(tx: Tx, projectId: string, ids: Iterable<string>) {
  const sessionIds = [...new Set(ids)].sort();
  // The rows are locked first (as addToSessionStats locks them): a batch adding turns to one of these sessions
  // meanwhile commits before the turns are read, or waits; it is never counted over.
  await lockStats(tx, projectId, sessionIds);
  await rebuildSessionStats(tx, { projectId, sessionIds });
}
