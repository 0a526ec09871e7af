import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { NotFoundError } from './errors';
import type { Tx } from '@/server/db';
import {
  ucsActions,
  ucsArtifacts,
  ucsDeadEnds,
  ucsDocuments,
  ucsMethodology,
  ucsSnapshots,
  ucsAnnotations,
  ucsJudgments,
  ucsPpHistory,
} from '@/server/db/schema/substrate';
import type { Envelope, RecordType } from '@/lib/ingest/contract';
import { joinUcsState } from '@/lib/ucs/state';
import { wouldReopen } from '@/lib/ucs/reopen';

export interface SubstrateAgentSummary {
  agentId: string;
  snapshots: number;
  firstT: number | null;
  lastT: number | null;
  thetaBins: number | null;
  phiBins: number | null;
  artifacts: number;
  annotated: number;
  deadEnds: number;
  methodology: number;
  judgments: number;
  actions: number;
}

const count = (
  table:
    | typeof ucsArtifacts
    | typeof ucsDeadEnds
    | typeof ucsMethodology
    | typeof ucsAnnotations
    | typeof ucsJudgments
    | typeof ucsActions,
  projectId: string,
) => sql<number>`(select count(*)::int from ${table} x where x.project_id = ${projectId} and x.agent_id = s.agent_id)`;

export async function listSubstrateAgents(db: Tx, projectId: string): Promise<SubstrateAgentSummary[]> {
  const rows = await db
    .select({
      agentId: sql<string>`s.agent_id`,
      snapshots: sql<number>`count(*)::int`,
      firstT: sql<number | null>`min(s.t)`,
      lastT: sql<number | null>`max(s.t)`,
      thetaBins: sql<number | null>`max(s.theta_bins)`,
      phiBins: sql<number | null>`max(s.phi_bins)`,
      artifacts: count(ucsArtifacts, projectId),
      annotated: count(ucsAnnotations, projectId),
      deadEnds: count(ucsDeadEnds, projectId),
      methodology: count(ucsMethodology, projectId),
      judgments: count(ucsJudgments, projectId),
      actions: count(ucsActions, projectId),
    })
    .from(sql`${ucsSnapshots} s`)
    .where(sql`s.project_id = ${projectId}`)
    .groupBy(sql`s.agent_id`)
    .orderBy(sql`s.agent_id`);
  return rows;
}

const DOC_TYPES: Record<string, RecordType> = {
  index: 'ucs_index',
  export: 'ucs_export',
  pp_history: 'ucs_pp_history',
  knowledge: 'ucs_knowledge',
  status: 'ucs_status',
  consult_samples: 'ucs_consult_samples',
};

/**
 * Everything stored for one agent's substrate, as ingest envelopes: the state snapshots rebuilt as the
 * bridge wrote them, the whole documents, and the action log, so an import of it gives the same data.
 */
export async function exportSubstrate(db: Tx, projectId: string, agentId: string): Promise<Envelope[]> {
  const out: Envelope[] = [];
  const snaps = await db
    .select()
    .from(ucsSnapshots)
    .where(and(eq(ucsSnapshots.projectId, projectId), eq(ucsSnapshots.agentId, agentId)))
    .orderBy(asc(ucsSnapshots.t));
  for (const s of snaps)
    out.push({ type: 'ucs_state', agent: agentId, ...(s.source ? { source: s.source } : {}), data: joinUcsState(s) });
  const docs = await db
    .select()
    .from(ucsDocuments)
    .where(and(eq(ucsDocuments.projectId, projectId), eq(ucsDocuments.agentId, agentId)))
    .orderBy(asc(ucsDocuments.kind), asc(ucsDocuments.ingestedAt), asc(ucsDocuments.key));
  for (const d of docs)
    out.push({
      type: DOC_TYPES[d.kind] ?? 'ucs_status',
      agent: agentId,
      ...(d.source ? { source: d.source } : {}),
      data: d.content,
    });
  const actions = await db
    .select({ data: ucsActions.data })
    .from(ucsActions)
    .where(and(eq(ucsActions.projectId, projectId), eq(ucsActions.agentId, agentId)))
    .orderBy(asc(ucsActions.t));
  for (const a of actions) out.push({ type: 'ucs_action', agent: agentId, data: a.data });
  return out;
}

export interface SnapshotMeta {
  t: number;
  thetaBins: number;
  phiBins: number;
  fields: string[];
  cursor: { node?: string; theta?: number; phi?: number } | null;
  source: string | null;
}

/** The agent's snapshots in step order, with what the field player needs to lay them out. */
export async function listSnapshots(db: Tx, projectId: string, agentId: string) {
  const rows = await db
    .select({
      t: ucsSnapshots.t,
      thetaBins: ucsSnapshots.thetaBins,
      phiBins: ucsSnapshots.phiBins,
      fields: sql<
        string[]
      >`(select coalesce(array_agg(k order by k), '{}') from jsonb_object_keys(${ucsSnapshots.fields}) k)`,
      cursor: ucsSnapshots.cursor,
      source: ucsSnapshots.source,
    })
    .from(ucsSnapshots)
    .where(and(eq(ucsSnapshots.projectId, projectId), eq(ucsSnapshots.agentId, agentId)))
    .orderBy(asc(ucsSnapshots.t));
  if (!rows.length) throw new NotFoundError('substrate of agent', agentId);
  const [latest] = await db
    .select({ graph: ucsSnapshots.graph, schedule: ucsSnapshots.injectionSchedule })
    .from(ucsSnapshots)
    .where(and(eq(ucsSnapshots.projectId, projectId), eq(ucsSnapshots.agentId, agentId)))
    .orderBy(desc(ucsSnapshots.t))
    .limit(1);
  const nodes = Array.isArray(latest?.graph?.nodes)
    ? (latest.graph.nodes as unknown[]).filter((n): n is string => typeof n === 'string')
    : [];
  return { snapshots: rows as SnapshotMeta[], nodes, schedule: latest?.schedule ?? null };
}

/** One field across all of an agent's snapshots: the series the player animates. */
export async function fieldSeries(db: Tx, projectId: string, agentId: string, field: string) {
  const rows = await db
    .select({
      t: ucsSnapshots.t,
      thetaBins: ucsSnapshots.thetaBins,
      phiBins: ucsSnapshots.phiBins,
      values: sql<number[] | null>`${ucsSnapshots.fields}->${field}`,
    })
    .from(ucsSnapshots)
    .where(and(eq(ucsSnapshots.projectId, projectId), eq(ucsSnapshots.agentId, agentId)))
    .orderBy(asc(ucsSnapshots.t));
  return rows.map((r) => ({ t: r.t, thetaBins: r.thetaBins, phiBins: r.phiBins, values: r.values }));
}

/**
 * The agent's negative knowledge (every agent's, without one): each dead end with why it was closed and what would
 * reopen it.
 */
export async function listDeadEnds(db: Tx, projectId: string, agentId?: string) {
  return db
    .select({
      agent: ucsDeadEnds.agentId,
      id: ucsDeadEnds.id,
      date: ucsDeadEnds.date,
      topic: ucsDeadEnds.topic,
      whyClosed: ucsDeadEnds.whyClosed,
      reopenConditions: ucsDeadEnds.reopenConditions,
      capabilities: ucsDeadEnds.capabilities,
      keywords: ucsDeadEnds.keywords,
      occurrences: ucsDeadEnds.occurrences,
    })
    .from(ucsDeadEnds)
    .where(
      and(eq(ucsDeadEnds.projectId, projectId), agentId === undefined ? undefined : eq(ucsDeadEnds.agentId, agentId)),
    )
    .orderBy(asc(ucsDeadEnds.agentId), desc(ucsDeadEnds.date), asc(ucsDeadEnds.topic));
}

/**
 * What routing needs from one snapshot: the graph with edge parameters, policy biases, the cursor and the context
 * field.
 */
export async function routingState(db: Tx, projectId: string, agentId: string, t: number) {
  const [row] = await db
    .select({
      t: ucsSnapshots.t,
      thetaBins: ucsSnapshots.thetaBins,
      phiBins: ucsSnapshots.phiBins,
      graph: ucsSnapshots.graph,
      policy: ucsSnapshots.policy,
      cursor: ucsSnapshots.cursor,
      schedule: ucsSnapshots.injectionSchedule,
      contextEnergy: sql<number[] | null>`${ucsSnapshots.fields}->'context_energy'`,
    })
    .from(ucsSnapshots)
    .where(and(eq(ucsSnapshots.projectId, projectId), eq(ucsSnapshots.agentId, agentId), eq(ucsSnapshots.t, t)));
  if (!row) throw new NotFoundError('snapshot', `${agentId}@t${t}`);
  return row;
}

/** The agent's artifacts (wormholes, attractors, resonances) with their annotations, strongest first. */
export async function listFieldArtifacts(db: Tx, projectId: string, agentId: string) {
  return db
    .select({
      id: ucsArtifacts.id,
      kind: ucsArtifacts.kind,
      payload: ucsArtifacts.payload,
      score: ucsArtifacts.score,
      createdT: ucsArtifacts.createdT,
      lastSeenT: ucsArtifacts.lastSeenT,
      annotation: ucsAnnotations.data,
    })
    .from(ucsArtifacts)
    .leftJoin(
      ucsAnnotations,
      and(
        eq(ucsAnnotations.projectId, ucsArtifacts.projectId),
        eq(ucsAnnotations.agentId, ucsArtifacts.agentId),
        eq(ucsAnnotations.artifactId, ucsArtifacts.id),
      ),
    )
    .where(and(eq(ucsArtifacts.projectId, projectId), eq(ucsArtifacts.agentId, agentId)))
    .orderBy(desc(ucsArtifacts.score), asc(ucsArtifacts.id));
}

/** The judgment layer: PP health over time, the action log, methodology entries and judgment nodes. */
export async function judgment(db: Tx, projectId: string, agentId: string) {
  const own = <T extends typeof ucsPpHistory | typeof ucsActions | typeof ucsMethodology | typeof ucsJudgments>(t: T) =>
    and(eq(t.projectId, projectId), eq(t.agentId, agentId));
  const [pp, actions, methodology, judgments] = await Promise.all([
    db
      .select({ t: ucsPpHistory.t, ts: ucsPpHistory.ts, pp: ucsPpHistory.pp, health: ucsPpHistory.health })
      .from(ucsPpHistory)
      .where(own(ucsPpHistory))
      .orderBy(asc(ucsPpHistory.t)),
    db
      .select({
        t: ucsActions.t,
        ts: ucsActions.ts,
        action: ucsActions.action,
        outcome: ucsActions.outcome,
        success: ucsActions.success,
        significance: ucsActions.significance,
        reward: ucsActions.reward,
        edge: ucsActions.edge,
        routed: ucsActions.routed,
      })
      .from(ucsActions)
      .where(own(ucsActions))
      .orderBy(asc(ucsActions.t)),
    db
      .select({
        id: ucsMethodology.id,
        date: ucsMethodology.date,
        summary: ucsMethodology.summary,
        capabilities: ucsMethodology.capabilities,
        keywords: ucsMethodology.keywords,
        data: ucsMethodology.data,
      })
      .from(ucsMethodology)
      .where(own(ucsMethodology)),
    db
      .select({
        id: ucsJudgments.id,
        ts: ucsJudgments.ts,
        action: ucsJudgments.action,
        outcome: ucsJudgments.outcome,
        outcomeSuccess: ucsJudgments.outcomeSuccess,
        significance: ucsJudgments.significance,
        reward: ucsJudgments.reward,
        data: ucsJudgments.data,
      })
      .from(ucsJudgments)
      .where(own(ucsJudgments))
      .orderBy(asc(ucsJudgments.ts)),
  ]);
  return { pp, actions, methodology, judgments };
}

/** Stored outputs of the bridge's consult operation (consult_samples.json), newest document first. */
export async function consultSamples(db: Tx, projectId: string, agentId: string) {
  const [row] = await db
    .select({ content: ucsDocuments.content })
    .from(ucsDocuments)
    .where(
      and(
        eq(ucsDocuments.projectId, projectId),
        eq(ucsDocuments.agentId, agentId),
        eq(ucsDocuments.kind, 'consult_samples'),
      ),
    )
    .orderBy(desc(ucsDocuments.ingestedAt))
    .limit(1);
  return (Array.isArray(row?.content) ? row.content : []) as Record<string, unknown>[];
}

/** Dead ends, only those `situation` would touch when given, with the matched words. */
export async function deadEndsTouchedBy(
  db: Tx,
  projectId: string,
  agent: string | undefined,
  situation: string | undefined,
) {
  const rows = await listDeadEnds(db, projectId, agent);
  // In wouldReopen's order: those whose reopen conditions the situation meets first, then those it is only related to.
  const touched = situation ? wouldReopen(situation, rows) : null;
  const list = (touched ? touched.map((m) => m.deadEnd) : rows).map((r, k) => {
    const m = touched?.[k];
    return {
      agent: r.agent,
      id: r.id,
      date: r.date,
      topic: r.topic,
      why_closed: r.whyClosed,
      reopen_conditions: r.reopenConditions,
      capabilities: r.capabilities,
      ...(m
        ? {
            match: m.kind,
            matched_words: m.matched,
            reopen_coverage: Number(m.coverage.toFixed(2)),
            ...(m.kind === 'related' ? { related_by: m.via } : {}),
          }
        : {}),
      url: `/substrate/${encodeURIComponent(r.agent)}/dead-ends?focus=${encodeURIComponent(r.id)}`,
    };
  });
  return { count: list.length, total: rows.length, ...(situation ? { situation } : {}), dead_ends: list };
}
