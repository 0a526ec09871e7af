import type { NormalizedRecord } from '@/lib/ingest/normalize';
import { artifactsFromState, emptyEntities, policyOverrideKey, type UcsEntities } from './entities';

/**
 * The rows the substrate tables get from UCS records (server/services/substrate-ingest.ts writes them):
 * the fields the pages filter and sort by are pulled out of each record's JSON, which is kept whole.
 * Rows carry the agent but not the project; the service adds it.
 */

type Json = Record<string, unknown>;
type Rec<T extends NormalizedRecord['type']> = Extract<NormalizedRecord, { type: T }>;

/** The entities one UCS state or document holds, with the agent and the state's time (null for a document). */
export type AgentEntities = UcsEntities & { agentId: string; t: number | null };

const str = (v: unknown) => (typeof v === 'string' ? v : null);
const strs = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Keeps the last row per key: one INSERT … ON CONFLICT DO UPDATE may not touch a row twice. */
export function lastByKey<T>(rows: T[], key: (r: T) => string): T[] {
  const m = new Map<string, T>();
  for (const r of rows) m.set(key(r), r);
  return [...m.values()];
}

export function snapshotRow(r: Rec<'ucs_state'>) {
  return { agentId: r.agentId, source: r.source, ...r.parts };
}

/** A state's artifacts as entities (a state holds no other kind). */
export function stateEntities(r: Rec<'ucs_state'>): AgentEntities {
  return { ...emptyEntities(), artifacts: artifactsFromState(r.parts.artifacts), agentId: r.agentId, t: r.parts.t };
}

export function actionRow(r: Rec<'ucs_action'>) {
  const d = r.data;
  const s = (k: string) => (typeof d[k] === 'string' ? (d[k] as string) : null);
  return {
    agentId: r.agentId,
    t: r.t,
    ts: s('timestamp'),
    action: String(d.action),
    outcome: s('outcome'),
    success: s('success'),
    significance: s('significance'),
    reward: typeof d.reward === 'number' ? d.reward : null,
    edge: s('edge'),
    cursorBefore: s('cursor_before'),
    cursorAfter: s('cursor_after'),
    routed: typeof d.routed === 'boolean' ? d.routed : null,
    data: d,
  };
}

/** Artifacts, newest sighting last: the upsert keeps one row per agent and id. */
export function artifactRows(list: AgentEntities[]) {
  return lastByKey(
    list
      .flatMap((e) => e.artifacts.map((a) => ({ agentId: e.agentId, ...a, lastSeenT: e.t })))
      .sort((a, b) => (a.lastSeenT ?? -1) - (b.lastSeenT ?? -1)),
    (a) => `${a.agentId}|${a.id}`,
  );
}

export function annotationRows(list: AgentEntities[]) {
  return lastByKey(
    list.flatMap((e) =>
      e.annotations.map((a) => ({
        agentId: e.agentId,
        artifactId: a.artifactId,
        text: str(a.data.text),
        failureCondition: str(a.data.failure_condition),
        generalizedPattern: str(a.data.generalized_pattern),
        annotatedAt: str(a.data.annotated_at),
        data: a.data,
      })),
    ),
    (a) => `${a.agentId}|${a.artifactId}`,
  );
}

export function methodologyRows(list: AgentEntities[]) {
  return lastByKey(
    list.flatMap((e) =>
      e.methodology.map((m) => ({
        agentId: e.agentId,
        id: String(m.id),
        date: str(m.date),
        summary: str(m.summary) ?? '',
        sourceType: str(m.source_type),
        capabilities: strs(m.capabilities),
        keywords: strs(m.keywords),
        data: m,
      })),
    ),
    (m) => `${m.agentId}|${m.id}`,
  );
}

/** Dead ends, each with how often its entity lists it (a bridge may write one twice). */
export function deadEndRows(list: AgentEntities[]) {
  return lastByKey(
    list.flatMap((e) => {
      const times = new Map<string, number>();
      for (const d of e.deadEnds) times.set(String(d.id), (times.get(String(d.id)) ?? 0) + 1);
      return e.deadEnds.map((d) => ({
        agentId: e.agentId,
        id: String(d.id),
        date: str(d.date),
        topic: str(d.topic) ?? '',
        whyClosed: str(d.why_closed),
        reopenConditions: str(d.reopen_conditions),
        occurrences: times.get(String(d.id)) ?? 1,
        capabilities: strs(d.capabilities),
        keywords: strs(d.keywords),
        data: d,
      }));
    }),
    (d) => `${d.agentId}|${d.id}`,
  );
}

export function judgmentRows(list: AgentEntities[]) {
  return lastByKey(
    list.flatMap((e) =>
      e.judgments.map((j) => ({
        agentId: e.agentId,
        id: String(j.id),
        ts: str(j.timestamp),
        action: str(j.action),
        outcome: str(j.outcome),
        outcomeSuccess: str(j.outcome_success),
        significance: str(j.significance),
        reward: num(j.reward),
        data: j,
      })),
    ),
    (j) => `${j.agentId}|${j.id}`,
  );
}

/** PP history snapshots; one without a time `t` has no key and is left out. */
export function ppHistoryRows(list: AgentEntities[]) {
  return lastByKey(
    list.flatMap((e) =>
      e.ppHistory
        .filter((p) => typeof p.t === 'number')
        .map((p) => ({
          agentId: e.agentId,
          t: p.t as number,
          ts: str(p.timestamp),
          pp: (p.pp as Record<string, number>) ?? {},
          health: num(p.health),
          data: p,
        })),
    ),
    (p) => `${p.agentId}|${p.t}`,
  );
}

export function policyOverrideRows(list: AgentEntities[]) {
  return lastByKey(
    list.flatMap((e) =>
      e.policyOverrides.map((p: Json) => ({
        agentId: e.agentId,
        key: policyOverrideKey(p),
        t: num(p.t),
        fromNode: str(p.from),
        toNode: str(p.to),
        reason: str(p.reason),
        data: p,
      })),
    ),
    (p) => `${p.agentId}|${p.key}`,
  );
}
