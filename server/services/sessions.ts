import { and, asc, desc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { SessionState } from '@/lib/api/contract';
import { rowsOf, type Tx } from '@/server/db';
import { annotations } from '@/server/db/schema/annotations';
import { artifacts, sessionStats, sessions, turns } from '@/server/db/schema/sessions';
import { TURN_EXTRA_FIELDS, type Envelope } from '@/lib/ingest/contract';
import { bucketsMean, sparkline } from '@/lib/sessions/stats';
import type { SessionListItem, SessionSort } from '@/lib/sessions/list';
import { NotFoundError } from './errors';
import { forkOrigin } from '@/lib/ccs/fork';
import { annotationRecord } from '@/lib/annotations/contract';
import type { TurnCall, TurnUsage } from '@/lib/otel/otlp';
import { appLink } from '@/server/env';

const iso = (col: unknown) => sql<string | null>`to_json(${col})#>>'{}'`;

export interface SessionSummary extends SessionListItem {
  /** CCS and transcript-replay footprint in tokens per turn, at most 64 points. */
  footprint: { ccs: (number | null)[]; transcript: (number | null)[] };
}

const summaryColumns = {
  id: sessions.id,
  agentId: sessions.agentId,
  title: sessions.title,
  domain: sessions.domain,
  createdAt: iso(sessions.createdAt),
  turnCount: sql<number>`coalesce(${sessionStats.turnCount}, 0)`,
  firstAt: iso(sessionStats.firstAt),
  lastAt: iso(sessionStats.lastAt),
  hSum: sessionStats.hSum,
  hN: sessionStats.hN,
  dSum: sessionStats.dSum,
  dN: sessionStats.dN,
  ccs: sessionStats.ccs,
  transcript: sessionStats.transcript,
  tokens: sessionStats.tokens,
  tokensN: sessionStats.tokensN,
  cost: sessionStats.cost,
  costN: sessionStats.costN,
  latencySum: sessionStats.latencySum,
  latencyN: sessionStats.latencyN,
};

const withStats = and(eq(sessionStats.projectId, sessions.projectId), eq(sessionStats.sessionId, sessions.id));
const summaries = (db: Tx) => db.select(summaryColumns).from(sessions).leftJoin(sessionStats, withStats);
type SummaryRow = Awaited<ReturnType<typeof summaries>>[number];

const toSummary = (r: SummaryRow): SessionSummary => ({
  id: r.id,
  agentId: r.agentId,
  title: r.title,
  domain: r.domain,
  turnCount: Number(r.turnCount),
  firstAt: r.firstAt ?? (Number(r.turnCount) ? null : r.createdAt),
  lastAt: r.lastAt,
  createdAt: r.createdAt,
  meanHallucination: r.hN ? Number(r.hSum) / r.hN : null,
  meanDrift: r.dN ? Number(r.dSum) / r.dN : null,
  tokens: r.tokensN ? Number(r.tokens) : null,
  cost: r.costN ? Number(r.cost) : null,
  meanLatency: r.latencyN ? Number(r.latencySum) / r.latencyN : null,
  meanCcs: bucketsMean(r.ccs ?? []),
  footprint: { ccs: sparkline(r.ccs ?? []), transcript: sparkline(r.transcript ?? []) },
});

/** Every session of a project with its figures, most recent first: one small row a session, no turn read. */
export async function listSessions(db: Tx, projectId: string): Promise<SessionSummary[]> {
  const rows = await summaries(db)
    .where(eq(sessions.projectId, projectId))
    .orderBy(sql`${sessionStats.lastAt} desc nulls last`, asc(sessions.id));
  return rows.map(toSummary);
}

/** The orders of `SESSION_SORTS` in SQL, each ending in the id so that pages never overlap. */
const ORDER: Record<SessionSort, SQL[]> = {
  // A session without timestamps sorts by when it arrived (its creation), so one just imported is not lost at the
  // end of the list.
  recent: [sql`coalesce(${sessionStats.lastAt}, ${sessionStats.firstAt}, ${sessions.createdAt}) desc`],
  oldest: [sql`coalesce(${sessionStats.firstAt}, ${sessions.createdAt}) asc`],
  turns: [sql`coalesce(${sessionStats.turnCount}, 0) desc`],
  title: [sql`coalesce(${sessions.title}, ${sessions.id}) asc`],
  hallucination: [sql`${sessionStats.hSum} / nullif(${sessionStats.hN}, 0) desc nulls last`],
  drift: [sql`${sessionStats.dSum} / nullif(${sessionStats.dN}, 0) desc nulls last`],
  // Sessions that sent no such figure last (as the list shows them: none).
  tokens: [sql`case when ${sessionStats.tokensN} > 0 then ${sessionStats.tokens} end desc nulls last`],
  cost: [sql`case when ${sessionStats.costN} > 0 then ${sessionStats.cost} end desc nulls last`],
  latency: [sql`${sessionStats.latencySum} / nullif(${sessionStats.latencyN}, 0) desc nulls last`],
};

export interface SessionPage {
  items: SessionSummary[];
  /** Sessions that match the search. */
  matching: number;
  /** The whole project: sessions and turns, and whether any turn sent a traced agent's tokens, cost, latency. */
  total: { sessions: number; turns: number; traced: { tokens: boolean; cost: boolean; latency: boolean } };
  /** Offset of the next page, null after the last. */
  next: number | null;
}

/**
 * One page of the sessions list, searched and sorted by the database: every word of `search` must appear in the
 * title, id, agent or domain (case-insensitive, as `filterSessions`). Reads `session_stats`, never the turns.
 */
export async function pageSessions(
  db: Tx,
  projectId: string,
  opts: { search?: string; sort: SessionSort; offset: number; limit: number },
): Promise<SessionPage> {
  const words = (opts.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const hay = sql`lower(concat_ws(' ', ${sessions.title}, ${sessions.id}, ${sessions.agentId}, ${sessions.domain}))`;
  const where = and(eq(sessions.projectId, projectId), ...words.map((w) => sql`strpos(${hay}, ${w}) > 0`));
  const [rows, [counts], [total]] = await Promise.all([
    summaries(db)
      .where(where)
      .orderBy(...ORDER[opts.sort], asc(sessions.id))
      .limit(opts.limit)
      .offset(opts.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(sessions)
      .where(where),
    db
      .select({
        sessions: sql<number>`count(*)::int`,
        turns: sql<number>`coalesce(sum(${sessionStats.turnCount}), 0)::int`,
        tokens: sql<boolean>`coalesce(bool_or(${sessionStats.tokensN} > 0), false)`,
        cost: sql<boolean>`coalesce(bool_or(${sessionStats.costN} > 0), false)`,
        latency: sql<boolean>`coalesce(bool_or(${sessionStats.latencyN} > 0), false)`,
      })
      .from(sessions)
      .leftJoin(sessionStats, withStats)
      .where(eq(sessions.projectId, projectId)),
  ]);
  const matching = Number(counts?.n ?? 0);
  const end = opts.offset + rows.length;
  return {
    items: rows.map(toSummary),
    matching,
    total: {
      sessions: Number(total?.sessions ?? 0),
      turns: Number(total?.turns ?? 0),
      traced: { tokens: total?.tokens === true, cost: total?.cost === true, latency: total?.latency === true },
    },
    next: end < matching ? end : null,
  };
}

/**
 * The position of the first turn numbered `turn` or later (the last when there is none), as `indexOfTurn` gives
 * it from the outline: one index range count, without reading the outline.
 */
export async function turnPosition(db: Tx, projectId: string, sessionId: string, turn: number): Promise<number> {
  const [r] = rowsOf<{ before: number; n: number }>(
    await db.execute(sql`
      select (select count(*) from turns
               where project_id = ${projectId} and session_id = ${sessionId} and turn < ${turn})::int as before,
             (select turn_count from session_stats
               where project_id = ${projectId} and session_id = ${sessionId}) as n`),
  );
  return Math.max(0, Math.min(Number(r?.before ?? 0), Number(r?.n ?? 0) - 1));
}

/**
 * Where a link to an artifact opens its session: the first turn that recalled it (A_t) or let it in (A_t+), else the
 * turn it was made at when the session holds that turn; null when neither.
 */
export async function artifactTurn(db: Tx, projectId: string, sessionId: string, artifactId: string) {
  const ref = (col: typeof turns.recalled | typeof turns.qualified) =>
    sql`(${col} @> jsonb_build_array(jsonb_build_object('id', ${artifactId}::text))
         or ${col} @> jsonb_build_array(${artifactId}::text))`;
  const [r] = rowsOf<{ turn: number | null }>(
    await db.execute(sql`
      select coalesce(
        (select turn from turns where project_id = ${projectId} and session_id = ${sessionId}
           and (${ref(turns.recalled)} or ${ref(turns.qualified)}) order by turn limit 1),
        (select t.turn from artifacts a join turns t on t.project_id = a.project_id and t.session_id = a.session_id
           and t.turn = a.created_turn
         where a.project_id = ${projectId} and a.id = ${artifactId} and a.session_id = ${sessionId})) as turn`),
  );
  return r?.turn === null || r?.turn === undefined ? null : Number(r.turn);
}

export async function getSession(db: Tx, projectId: string, id: string) {
  // With the session's figures kept as turns arrive (session_stats): its span and how many turns, for the page's head
  // before the digest has come.
  const [row] = await db
    .select({
      id: sessions.id,
      agentId: sessions.agentId,
      title: sessions.title,
      domain: sessions.domain,
      metadata: sessions.metadata,
      createdAt: iso(sessions.createdAt),
      turnCount: sql<number>`coalesce(${sessionStats.turnCount}, 0)`.mapWith(Number),
      firstAt: iso(sessionStats.firstAt),
      lastAt: iso(sessionStats.lastAt),
    })
    .from(sessions)
    .leftJoin(
      sessionStats,
      and(eq(sessionStats.projectId, sessions.projectId), eq(sessionStats.sessionId, sessions.id)),
    )
    .where(and(eq(sessions.projectId, projectId), eq(sessions.id, id)));
  if (!row) throw new NotFoundError('session', id);
  return row;
}

/**
 * The extra fields of a turn that are not the agent's own: those the replay draws in places of their own, the turn
 * fields kept in `extra` (the hygiene lab's), and what the OTLP and LangGraph converters add. The rest are listed.
 */
const SHOWN_APART = ['stress', 'calls', 'usage', 'state', 'langgraph', 'state_changes', 'otel', ...TURN_EXTRA_FIELDS];

/** The turns of a session, in order, with everything the replay shows; a window of them with offset and limit. */
export async function listTurns(
  db: Tx,
  projectId: string,
  sessionId: string,
  window?: { offset: number; limit: number },
) {
  const q = db
    .select({
      turn: turns.turn,
      agentId: turns.agentId,
      input: turns.input,
      output: turns.output,
      ccs: turns.ccs,
      ccsRaw: turns.ccsRaw,
      recalled: turns.recalled,
      qualified: turns.qualified,
      footprint: turns.footprint,
      judge: turns.judge,
      hallucination: turns.hallucination,
      drift: turns.drift,
      timestamp: turns.timestamp,
      redactions: turns.redactions,
      stress: sql<string | null>`${turns.extra}->>'stress'`,
      // What a traced agent did in the turn (OTLP whole traces, lib/otel/otlp.ts): its LLM and tool calls, and totals.
      calls: sql<TurnCall[] | null>`${turns.extra}->'calls'`,
      usage: sql<TurnUsage | null>`${turns.extra}->'usage'`,
      // A LangGraph turn (lib/import/langgraph.ts): its graph state, shown where the turn has no CCS, and its step.
      state: sql<unknown>`${turns.extra}->'state'`,
      langgraph: sql<unknown>`${turns.extra}->'langgraph'`,
      // Every other field the agent sent that a turn does not define, shown with the turn as it was stored.
      others: sql<Record<string, unknown> | null>`nullif(${turns.extra} - array[${sql.join(
        SHOWN_APART.map((k) => sql`${k}`),
        sql`, `,
      )}]::text[], '{}'::jsonb)`,
    })
    .from(turns)
    .where(and(eq(turns.projectId, projectId), eq(turns.sessionId, sessionId)))
    .orderBy(asc(turns.turn));
  return window ? q.offset(window.offset).limit(window.limit) : q;
}

/** The session's external artifact store: what its turns recalled, with content and provenance. */
export async function listArtifacts(db: Tx, projectId: string, sessionId: string) {
  return db
    .select({
      id: artifacts.id,
      kind: artifacts.kind,
      content: artifacts.content,
      provenance: artifacts.provenance,
      createdTurn: artifacts.createdTurn,
      redactions: artifacts.redactions,
    })
    .from(artifacts)
    .where(and(eq(artifacts.projectId, projectId), eq(artifacts.sessionId, sessionId)))
    .orderBy(asc(artifacts.id));
}

const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/**
 * A session in the format the importer takes: the session record, its artifacts, then its turns.
 * Importing the output into an empty database and exporting again gives the same output.
 */
export async function exportSession(db: Tx, projectId: string, id: string): Promise<Envelope[]> {
  const [s] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.projectId, projectId), eq(sessions.id, id)));
  if (!s) throw new NotFoundError('session', id);
  const out: Envelope[] = [
    {
      type: 'session',
      data: defined({
        ...s.extra,
        id: s.id,
        agent: s.agentId,
        title: s.title,
        domain: s.domain,
        metadata: Object.keys(s.metadata).length ? s.metadata : null,
      }),
    },
  ];
  const arts = await db
    .select()
    .from(artifacts)
    .where(and(eq(artifacts.projectId, projectId), eq(artifacts.sessionId, id)))
    .orderBy(asc(artifacts.createdTurn), asc(artifacts.id));
  for (const a of arts)
    out.push({
      type: 'artifact',
      data: defined({
        ...a.extra,
        id: a.id,
        session_id: a.sessionId,
        agent: a.agentId,
        kind: a.kind,
        content: a.content,
        provenance: a.provenance,
        created_turn: a.createdTurn,
        timestamp: a.timestamp,
      }),
    });
  const rows = await db
    .select()
    .from(turns)
    .where(and(eq(turns.projectId, projectId), eq(turns.sessionId, id)))
    .orderBy(asc(turns.turn));
  for (const t of rows)
    out.push({
      type: 'turn',
      data: defined({
        ...t.extra,
        session_id: t.sessionId,
        agent: t.agentId,
        turn: t.turn,
        input: t.input,
        output: t.output,
        ccs: t.ccsRaw ?? t.ccs,
        recalled: t.recalled,
        qualified: t.qualified,
        footprint: t.footprint,
        judge: t.judge,
        hallucination: t.hallucination,
        drift: t.drift,
        timestamp: t.timestamp,
      }),
    });
  // Reviewers' and judges' annotations on the session, oldest first, as the importer takes them back.
  const notes = await db
    .select({
      ...getTableColumns(annotations),
      createdAt: sql<string>`to_char(${annotations.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(annotations)
    .where(and(eq(annotations.projectId, projectId), eq(annotations.sessionId, id)))
    .orderBy(asc(annotations.createdAt), asc(annotations.id));
  for (const a of notes) out.push({ type: 'annotation', data: defined(annotationRecord(a)) });
  return out;
}

/** The latest CCS of a session, or the one committed at `turn` (the MCP `get_session_state` tool). */
export async function sessionState(
  db: Tx,
  projectId: string,
  sessionId: string,
  turn?: number,
): Promise<SessionState | null> {
  const [row] = await db
    .select({
      turn: turns.turn,
      agent: turns.agentId,
      ccs: turns.ccs,
      timestamp: turns.timestamp,
      hallucination: turns.hallucination,
      drift: turns.drift,
      title: sessions.title,
      metadata: sessions.metadata,
    })
    .from(turns)
    .innerJoin(sessions, and(eq(sessions.projectId, turns.projectId), eq(sessions.id, turns.sessionId)))
    .where(
      and(
        eq(turns.projectId, projectId),
        eq(turns.sessionId, sessionId),
        turn === undefined ? undefined : eq(turns.turn, turn),
      ),
    )
    .orderBy(desc(turns.turn))
    .limit(1);
  if (!row) return null;
  const [{ n }] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from turns where project_id = ${projectId} and session_id = ${sessionId}`,
    ),
  ) as [{ n: number }];
  return {
    session_id: sessionId,
    title: row.title,
    agent: row.agent,
    turn: row.turn,
    turns: n,
    timestamp: row.timestamp,
    ccs: row.ccs as Record<string, string[]>,
    hallucination: row.hallucination,
    drift: row.drift,
    /** Set on a fork: the session and turn it was taken from, by whom (a reviewer's corrected CCS). */
    forked_from: forkOrigin(row.metadata),
    url: appLink(`/sessions/${encodeURIComponent(sessionId)}?turn=${row.turn}`),
  };
}
