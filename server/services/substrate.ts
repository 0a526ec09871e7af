import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { NotFoundError } from './errors';
import { rowsOf, type Tx } from '@/server/db';
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
import { auditWorkspace, differentiationAt, summarizeAudit, type ConsultSampleLike } from '@/lib/ucs/audit';
import { bridgeIndexOf, substrateFromParts, type BridgeIndex } from '@/lib/ucs/substrate-sim';
import { appLink } from '@/server/env';

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
) => sql<number>`(select count(*)::int from ${table} x where x.project_id = ${projectId} and x.agent_id = a.agent_id)`;

/** The tables whose rows make an agent's substrate known: any one of them stored, and its pages are there. */
const AGENT_TABLES = [ucsSnapshots, ucsDocuments, ucsDeadEnds, ucsMethodology, ucsJudgments, ucsActions];

/** A query of the ids of the project's agents with anything of their substrate stored, each once. */
export const substrateAgentIds = (projectId: string): SQL =>
  sql.join(
    AGENT_TABLES.map((t) => sql`select agent_id from ${t} where project_id = ${projectId}`),
    sql` union `,
  );

/**
 * Every agent with anything of its substrate stored, with its figures; one whose field state is not stored (an
 * action log imported alone) is listed with no snapshots, not left out.
 */
export async function listSubstrateAgents(db: Tx, projectId: string): Promise<SubstrateAgentSummary[]> {
  const ids = substrateAgentIds(projectId);
  const rows = await db
    .select({
      agentId: sql<string>`a.agent_id`,
      snapshots: sql<number>`count(s.t)::int`,
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
    .from(sql`(${ids}) a left join ${ucsSnapshots} s on s.project_id = ${projectId} and s.agent_id = a.agent_id`)
    .groupBy(sql`a.agent_id`)
    .orderBy(sql`a.agent_id`);
  return rows;
}

/**
 * Whether anything of an agent's substrate is stored (a state, a document, dead ends, methodology, judgments or
 * actions): its pages are "not found" otherwise, whichever tab is asked for.
 */
export async function substrateAgentKnown(db: Tx, projectId: string, agentId: string): Promise<boolean> {
  const [row] = rowsOf<{ known: boolean }>(
    await db.execute(
      sql`select ${sql.join(
        AGENT_TABLES.map(
          (t) => sql`exists (select 1 from ${t} where project_id = ${projectId} and agent_id = ${agentId})`,
        ),
        sql` or `,
      )} as known`,
    ),
  );
  return row?.known === true;
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

const ofAgent = (projectId: string, agentId: string) =>
  and(eq(ucsSnapshots.projectId, projectId), eq(ucsSnapshots.agentId, agentId));

/**
 * One stored state as the bridge would load it (the parts lib/ucs/substrate-sim.ts `substrateFromParts` reads), at
 * step t or the latest; `latestT` says whether it is the latest.
 */
export async function substrateState(db: Tx, projectId: string, agentId: string, t?: number) {
  const [row] = await db
    .select({
      t: ucsSnapshots.t,
      thetaBins: ucsSnapshots.thetaBins,
      phiBins: ucsSnapshots.phiBins,
      fields: ucsSnapshots.fields,
      ports: ucsSnapshots.ports,
      graph: ucsSnapshots.graph,
      policy: ucsSnapshots.policy,
      cursor: ucsSnapshots.cursor,
      injectionSchedule: ucsSnapshots.injectionSchedule,
      trace: ucsSnapshots.trace,
      source: ucsSnapshots.source,
      latestT: sql<number>`(select max(x.t) from ${ucsSnapshots} x
        where x.project_id = ${projectId} and x.agent_id = ${agentId})`,
    })
    .from(ucsSnapshots)
    .where(and(ofAgent(projectId, agentId), t === undefined ? undefined : eq(ucsSnapshots.t, t)))
    .orderBy(desc(ucsSnapshots.t))
    .limit(1);
  if (!row) throw new NotFoundError(t === undefined ? 'substrate of agent' : 'snapshot', `${agentId}@t${t ?? ''}`);
  return row;
}

type Json = Record<string, unknown>;

/** The newest stored ucs_index.json of the agent, as far as the bridge reads it (null without one). */
async function latestIndex(db: Tx, projectId: string, agentId: string) {
  const [row] = await db
    .select({
      reportCounter: sql<unknown>`${ucsDocuments.content}->'report_counter'`,
      lastPhiT: sql<unknown>`${ucsDocuments.content}->'last_phi_t'`,
      deadEnds: sql<unknown>`${ucsDocuments.content}->'dead_end_entries'`,
      methodology: sql<unknown>`${ucsDocuments.content}->'methodology_entries'`,
      source: ucsDocuments.source,
      ingestedAt: ucsDocuments.ingestedAt,
    })
    .from(ucsDocuments)
    .where(
      and(eq(ucsDocuments.projectId, projectId), eq(ucsDocuments.agentId, agentId), eq(ucsDocuments.kind, 'index')),
    )
    .orderBy(desc(ucsDocuments.ingestedAt), asc(ucsDocuments.key))
    .limit(1);
  return row ?? null;
}

export interface BridgeIndexView extends BridgeIndex {
  /** Where the dead ends and methodology come from: the newest stored index (its order), or, without one, the rows. */
  from: 'index' | 'rows';
  source: string | null;
  ingestedAt: Date | null;
  /** Capabilities with a cell on the latest stored state (only those take a penalty); null without a state. */
  nodes: string[] | null;
}

/**
 * What the bridge reads from ucs_index.json besides the state: dead ends in the index's order (an entry listed twice
 * twice), recent methodology, report counter and last φ-cycle. Without a stored index, the dead-end and methodology
 * rows stand in (a dead end recorded n times listed n times).
 */
export async function bridgeIndex(db: Tx, projectId: string, agentId: string): Promise<BridgeIndexView> {
  const [doc, [latest]] = await Promise.all([
    latestIndex(db, projectId, agentId),
    db
      .select({ nodes: sql<unknown>`${ucsSnapshots.graph}->'nodes'` })
      .from(ucsSnapshots)
      .where(ofAgent(projectId, agentId))
      .orderBy(desc(ucsSnapshots.t))
      .limit(1),
  ]);
  const nodes = Array.isArray(latest?.nodes) ? latest.nodes.map(String) : null;
  if (doc) {
    const index = bridgeIndexOf({
      report_counter: doc.reportCounter,
      last_phi_t: doc.lastPhiT,
      dead_end_entries: doc.deadEnds,
      methodology_entries: doc.methodology,
    });
    return { ...index, from: 'index', source: doc.source, ingestedAt: doc.ingestedAt, nodes };
  }
  const [rows, methodology] = await Promise.all([
    listDeadEnds(db, projectId, agentId),
    db
      .select({ capabilities: ucsMethodology.capabilities, keywords: ucsMethodology.keywords })
      .from(ucsMethodology)
      .where(and(eq(ucsMethodology.projectId, projectId), eq(ucsMethodology.agentId, agentId)))
      .orderBy(asc(ucsMethodology.date), asc(ucsMethodology.id)),
  ]);
  const deadEnds = rows.flatMap(({ agent: _a, occurrences, ...d }) => new Array(occurrences).fill(d));
  return {
    reportCounter: 0,
    lastPhiT: null,
    deadEnds,
    methodology,
    from: 'rows',
    source: null,
    ingestedAt: null,
    nodes,
  };
}

/** The audit reads at most this many of the latest states (from the earliest of them on). */
export const AUDIT_MAX_STATES = 200;

/** What the audit reads, as one comparable string: a change to any of it (or a new UTC day) makes a new audit. */
async function auditFingerprint(db: Tx, projectId: string, agentId: string) {
  const [row] = await db
    .select({
      snapshots: sql<string>`(select count(*)::text || ':' || coalesce(max(x.t), -1)::text || ':'
        || coalesce(max(x.ingested_at)::text, '') from ${ucsSnapshots} x
        where x.project_id = ${projectId} and x.agent_id = ${agentId})`,
      actions: sql<string>`(select count(*)::text || ':' || coalesce(max(x.t), -1)::text || ':'
        || coalesce(sum(x.t)::text, '') from ${ucsActions} x
        where x.project_id = ${projectId} and x.agent_id = ${agentId})`,
      documents: sql<string>`(select count(*)::text || ':' || coalesce(max(x.ingested_at)::text, '')
        from ${ucsDocuments} x where x.project_id = ${projectId} and x.agent_id = ${agentId}
        and x.kind in ('index', 'consult_samples'))`,
    })
    .from(sql`(select 1) one`);
  return `${row?.snapshots}|${row?.actions}|${row?.documents}`;
}

async function computeAudit(db: Tx, projectId: string, agentId: string, now: number) {
  const states = (
    await db
      .select({
        t: ucsSnapshots.t,
        thetaBins: ucsSnapshots.thetaBins,
        phiBins: ucsSnapshots.phiBins,
        graph: ucsSnapshots.graph,
        artifacts: ucsSnapshots.artifacts,
        policy: ucsSnapshots.policy,
        trace: ucsSnapshots.trace,
        cursor: ucsSnapshots.cursor,
        source: ucsSnapshots.source,
      })
      .from(ucsSnapshots)
      .where(ofAgent(projectId, agentId))
      .orderBy(desc(ucsSnapshots.t))
      .limit(AUDIT_MAX_STATES)
  ).reverse();
  if (!states.length) throw new NotFoundError('substrate of agent', agentId);
  const [actions, index, samples, [all]] = await Promise.all([
    db
      .select({
        t: ucsActions.t,
        action: ucsActions.action,
        success: ucsActions.success,
        reward: ucsActions.reward,
        routed: ucsActions.routed,
        cursorBefore: ucsActions.cursorBefore,
      })
      .from(ucsActions)
      .where(and(eq(ucsActions.projectId, projectId), eq(ucsActions.agentId, agentId)))
      .orderBy(asc(ucsActions.t)),
    bridgeIndex(db, projectId, agentId),
    consultSamples(db, projectId, agentId),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(ucsSnapshots)
      .where(ofAgent(projectId, agentId)),
  ]);
  const latest = states.at(-1)!;
  // Without a stored index the φ-cycles' phase is unknown: taken as ending at the latest state.
  const lastPhiT = index.lastPhiT ?? latest.t;
  const consult = samples.filter(
    (x): x is Json & ConsultSampleLike => typeof x.context === 'string' && typeof x.consult === 'object',
  );
  const result = auditWorkspace({
    states: states.map((s) => ({ ...s, label: s.source ?? `t=${s.t}` })),
    actions,
    lastPhiT,
    consultSamples: consult,
  });
  const summary = summarizeAudit(result, { states: states.length, lines: actions.length });
  // Each context is a consult (field diffusions): at most the 40 most recent stored ones, so a GET stays cheap.
  const contexts = [...new Set(consult.map((x) => x.context))].slice(-AUDIT_CONTEXTS);
  const [full] = await db
    .select({
      fields: ucsSnapshots.fields,
      ports: ucsSnapshots.ports,
      injectionSchedule: ucsSnapshots.injectionSchedule,
    })
    .from(ucsSnapshots)
    .where(and(ofAgent(projectId, agentId), eq(ucsSnapshots.t, latest.t)));
  const current =
    contexts.length && full
      ? differentiationAt(substrateFromParts({ ...latest, ...full }, index), contexts, now)
      : null;
  return {
    ...summary,
    storedStates: all?.n ?? states.length,
    lastPhiT: { t: lastPhiT, from: index.lastPhiT === null ? ('assumed' as const) : ('index' as const) },
    current: current ? { t: latest.t, label: latest.source ?? `t=${latest.t}`, ...current } : null,
    computedAt: new Date(now),
  };
}

export type SubstrateAudit = Awaited<ReturnType<typeof computeAudit>>;

/**
 * Audits recomputed per process only when what they read changed: keyed by project and agent, checked against a
 * fingerprint of the snapshots, action log and index (one cheap query) and the UTC day (dead-end ages are whole
 * days). Another instance computes its own; none serves a result for other data.
 */
const audits = new Map<string, { fingerprint: string; value: Promise<SubstrateAudit> }>();
const AUDIT_CACHE_SIZE = 32;
const AUDIT_CONTEXTS = 40;

/**
 * The action log replayed by the reference's rules against the agent's stored states (lib/ucs/audit.ts), with the
 * advisory differentiation of its stored consult outputs and of the same contexts consulted now at the latest state.
 */
export async function substrateAudit(db: Tx, projectId: string, agentId: string, now = Date.now()) {
  const key = `${projectId}\u0000${agentId}`;
  const fingerprint = `${await auditFingerprint(db, projectId, agentId)}|${new Date(now).toISOString().slice(0, 10)}`;
  const hit = audits.get(key);
  if (hit?.fingerprint === fingerprint) return hit.value;
  const value = computeAudit(db, projectId, agentId, now);
  audits.delete(key);
  audits.set(key, { fingerprint, value });
  if (audits.size > AUDIT_CACHE_SIZE) audits.delete(audits.keys().next().value!);
  value.catch(() => audits.get(key)?.value === value && audits.delete(key));
  return value;
}

/** Contexts to consult with: those of the stored consult samples and the tasks of the judgment nodes. */
export async function consultContexts(db: Tx, projectId: string, agentId: string) {
  const [samples, tasks] = await Promise.all([
    consultSamples(db, projectId, agentId),
    db
      .select({
        context: sql<string>`${ucsJudgments.data}->'context'->>'task_description'`,
        nodes: sql<number>`count(*)::int`,
      })
      .from(ucsJudgments)
      .where(
        and(
          eq(ucsJudgments.projectId, projectId),
          eq(ucsJudgments.agentId, agentId),
          sql`${ucsJudgments.data}->'context'->>'task_description' <> ''`,
        ),
      )
      .groupBy(sql`1`)
      .orderBy(sql`2 desc`, sql`1`),
  ]);
  return {
    samples: samples.flatMap((s, k) =>
      typeof s.context === 'string' ? [{ k, i: typeof s.i === 'number' ? s.i : k, context: s.context }] : [],
    ),
    tasks,
  };
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
      meta: ucsArtifacts.meta,
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
      url: appLink(`/substrate/${encodeURIComponent(r.agent)}/dead-ends?focus=${encodeURIComponent(r.id)}`),
    };
  });
  return { count: list.length, total: rows.length, ...(situation ? { situation } : {}), dead_ends: list };
}
