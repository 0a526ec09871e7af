import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '@/server/db';
import { artifacts, sessions, turns } from '@/server/db/schema/sessions';
import type { Envelope } from '@/lib/ingest/contract';
import { downsample } from '@/lib/charts/downsample';
import type { SessionListItem } from '@/lib/sessions/list';
import { NotFoundError } from './errors';

const iso = (col: unknown) => sql<string | null>`to_json(${col})#>>'{}'`;

export interface SessionSummary extends SessionListItem {
  /** CCS and transcript-replay footprint in tokens per turn, at most 64 points. */
  footprint: { ccs: (number | null)[]; transcript: (number | null)[] };
}

const finiteOrNull = (xs: unknown[] | null): (number | null)[] =>
  (xs ?? []).map((x) => (typeof x === 'number' && Number.isFinite(x) ? x : null));

export async function listSessions(db: Tx, projectId: string): Promise<SessionSummary[]> {
  const rows = await db
    .select({
      id: sessions.id,
      agentId: sessions.agentId,
      title: sessions.title,
      domain: sessions.domain,
      createdAt: iso(sessions.createdAt),
      turnCount: sql<number>`count(${turns.turn})::int`,
      firstAt: iso(sql`min(${turns.ts})`),
      lastAt: iso(sql`max(${turns.ts})`),
      meanH: sql<number | null>`avg(${turns.hallucination})::float8`,
      meanD: sql<number | null>`avg(${turns.drift})::float8`,
      // json_agg, not array_agg: postgres.js reads a NULL inside a float8[] as NaN.
      ccs: sql<(number | null)[]>`json_agg((${turns.footprint}->>'ccs')::float8 order by ${turns.turn})`,
      transcript: sql<(number | null)[]>`json_agg((${turns.footprint}->>'transcript')::float8 order by ${turns.turn})`,
    })
    .from(sessions)
    .leftJoin(turns, and(eq(turns.projectId, sessions.projectId), eq(turns.sessionId, sessions.id)))
    .where(eq(sessions.projectId, projectId))
    .groupBy(sessions.projectId, sessions.id)
    .orderBy(sql`max(${turns.ts}) desc nulls last`, asc(sessions.id));
  return rows.map((r) => ({
    id: r.id,
    agentId: r.agentId,
    title: r.title,
    domain: r.domain,
    turnCount: r.turnCount,
    firstAt: r.firstAt ?? (r.turnCount ? null : r.createdAt),
    lastAt: r.lastAt,
    meanHallucination: r.meanH,
    meanDrift: r.meanD,
    footprint: {
      ccs: downsample(r.turnCount ? finiteOrNull(r.ccs) : [], 64),
      transcript: downsample(r.turnCount ? finiteOrNull(r.transcript) : [], 64),
    },
  }));
}

export async function getSession(db: Tx, projectId: string, id: string) {
  const [row] = await db
    .select({
      id: sessions.id,
      agentId: sessions.agentId,
      title: sessions.title,
      domain: sessions.domain,
      metadata: sessions.metadata,
      createdAt: iso(sessions.createdAt),
    })
    .from(sessions)
    .where(and(eq(sessions.projectId, projectId), eq(sessions.id, id)));
  if (!row) throw new NotFoundError('session', id);
  return row;
}

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
  return out;
}

/** The latest CCS of a session, or the one committed at `turn` (the MCP `get_session_state` tool). */
export async function sessionState(db: Tx, projectId: string, sessionId: string, turn?: number) {
  const [row] = await db
    .select({
      turn: turns.turn,
      agent: turns.agentId,
      ccs: turns.ccs,
      timestamp: turns.timestamp,
      hallucination: turns.hallucination,
      drift: turns.drift,
      title: sessions.title,
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
    ccs: row.ccs,
    hallucination: row.hallucination,
    drift: row.drift,
    url: `/sessions/${encodeURIComponent(sessionId)}?turn=${row.turn}`,
  };
}
