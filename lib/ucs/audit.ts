/**
 * What the reference's rules imply for an imported UCS workspace, and where the stored state disagrees.
 *
 * The reference (github.com/KyleMillion/unified-cognitive-substrate at bc0cd59) changes learned state only in
 * `UCSBridge.op_report` (src/bridge.py), once per action-log line:
 *  - reinforcement (reference.ts `learnFromReport`): a report whose capability has a direct edge from the cursor gets
 *    reward = 0.7·base(success) + 0.3·u, and w ← clamp(w + 0.075·(reward − c − 0.5), ±2.5); a trace step is appended;
 *  - every 5th report (`UCSConfig.phi_report_interval`) runs a φ-cycle (phi-cycle.ts) over the trace as reloaded (the
 *    last 50 steps, `export_state`'s theta_tail, plus this report's): harvest wormholes, attractors and resonances,
 *    promote them by stable id, add to the policy bias and decay all of it.
 * Replaying the action log from a stored state with those rules gives the weights, artifacts and biases every later
 * state should hold; `auditWorkspace` lists each difference. `advisoryDifferentiation` is the paper's advisory
 * differentiation (experiments/option_b_test.py). Everything is pure.
 */
import { phiCycle, type HarvestedArtifact } from './phi-cycle';
import {
  AEGIS_VOCABULARY,
  clamp,
  edgeBiasOf,
  edgesOf,
  learnFromReport,
  nodesOf,
  pyRound,
  REFERENCE_RULES,
  traceOf,
  type ReportLearning,
} from './reference';
import type { UcsStateParts } from './state';
import { routeContext, type SubstrateState } from './substrate-sim';

type Json = Record<string, unknown>;

/** The rule each kind of disagreement is checked against, with where the reference states it. */
export const AUDIT_RULES = {
  weight:
    'bridge.py UCSBridge.op_report: w ← clamp(w + 0.075·(reward − cost − 0.5), −2.5, 2.5) on the edge cursor → action',
  clamp: 'torusfield_kernel.py _clamp: edge weights stay within [−2.5, 2.5]',
  reward: 'bridge.py RewardModel.compute: reward = 0.7·base(success) + 0.3·u, logged rounded to 4 (base when unrouted)',
  routing: 'bridge.py UCSBridge._find_edge: a report is routed when the cursor has a direct edge to the action',
  cursor: 'bridge.py UCSBridge.op_report: the cursor moves to each reported capability',
  artifact:
    'torusfield_kernel.py Harvester.detect_all/validate + ArtifactStore.promote on each φ-cycle (every 5th report)',
  bias:
    'torusfield_kernel.py PolicyKernel.update: + clamp(score, 0, 5) per wormhole edge, + clamp(0.3·score, 0, 2) per ' +
    'attractor out-edge, then × 0.995 (dropped under 1e-6), on each φ-cycle',
} as const;

/** The parts of a stored torusfield state the audit reads, as ingest holds them (state.ts `UcsStateParts`). */
export type AuditState = Pick<UcsStateParts, 't' | 'graph' | 'artifacts' | 'policy' | 'trace' | 'cursor'> & {
  /** How the state is named in disagreements (a snapshot file, "current"); `t=<t>` when absent. */
  label?: string;
};

/** An action-log line as ingest-rows.ts `actionRow` holds it. */
export interface AuditAction {
  t: number;
  action: string;
  success: string | null;
  reward: number | null;
  routed: boolean | null;
  cursorBefore: string | null;
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown, d = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : d);

function artifactsOf(list: unknown[] | null): HarvestedArtifact[] {
  return (list ?? []).filter(isObj).map((a) => ({
    id: String(a.id),
    kind: String(a.kind),
    payload: isObj(a.payload) ? a.payload : {},
    score: num(a.score),
    created_t: num(a.created_t),
  }));
}

// ---------------------------------------------------------------- replay

export interface ReplayedReport extends Omit<ReportLearning, 'step'> {
  /** Its index in the actions given. */
  line: number;
  /** The log line's t (the state's t after the report). */
  t: number;
  action: string;
  /** Whether the action is a capability (an unknown one is logged and nothing else: no t, no counter). */
  known: boolean;
  cursorBefore: string;
  phi: boolean;
  /** At a φ-cycle: the trace steps it saw, what it harvested, the new ids, and the bias after the update. */
  window?: number;
  harvested?: HarvestedArtifact[];
  promoted?: string[];
  bias?: Record<string, number>;
}

export interface ReplayedState {
  t: number;
  cursor: string;
  weights: number[];
  bias: Record<string, number>;
  artifacts: HarvestedArtifact[];
}

export interface ReplayOptions {
  /** The index's last_phi_t: φ-cycles ran on the reports that brought t to it, to it − 5, and so on. */
  lastPhiT: number;
  /** Capability names: the bridge's `_CAP_NAMES` (the Aegis manifest's, whatever the graph holds) by default. */
  capabilities?: readonly string[];
  /** Times to take the replayed state at (after every report up to that t). */
  at?: readonly number[];
}

export interface Replay {
  base: { t: number; label: string };
  reports: ReplayedReport[];
  checkpoints: ReplayedState[];
  final: ReplayedState;
}

/**
 * Replays the action log's lines after `base.t` through op_report's rules (see the file's comment), from the
 * weights, trace tail, artifacts, biases and cursor of `base`.
 */
export function replayReports(base: AuditState, actions: readonly AuditAction[], opts: ReplayOptions): Replay {
  const R = REFERENCE_RULES;
  const edges = edgesOf(base.graph);
  const caps = new Set(opts.capabilities ?? AEGIS_VOCABULARY.capabilityNames);
  const bias = edgeBiasOf(base.policy);
  const store = new Map(artifactsOf(base.artifacts).map((a) => [a.id, a]));
  let window = traceOf(base.trace);
  let cursor = isObj(base.cursor) ? String(base.cursor.node) : (nodesOf(base.graph)[0] ?? '');
  let t = base.t;
  const snapshot = (): ReplayedState => ({
    t,
    cursor,
    weights: edges.map((e) => e.w),
    bias: { ...bias },
    artifacts: [...store.values()].map((a) => ({ ...a })),
  });
  const wanted = [...new Set(opts.at ?? [])].sort((a, b) => a - b);
  const checkpoints: ReplayedState[] = [];
  const reports: ReplayedReport[] = [];
  const lines = actions
    .map((a, line) => ({ ...a, line }))
    .filter((a) => a.t > base.t)
    .sort((a, b) => a.t - b.t);
  for (const line of lines) {
    while (wanted.length && wanted[0]! < line.t) checkpoints.push({ ...snapshot(), t: wanted.shift()! });
    const at = { line: line.line, t: line.t, action: line.action, cursorBefore: cursor, phi: false };
    if (!caps.has(line.action)) {
      const nothing = { routed: false, edgeIndex: null, reward: 0, cost: null, oldW: null, newW: null, clamped: false };
      reports.push({ ...at, known: false, ...nothing });
      continue;
    }
    const { step, ...learned } = learnFromReport(edges, cursor, line.action, line.success, t);
    const row: ReplayedReport = { ...at, known: true, ...learned };
    reports.push(row);
    if (step) window = [...window, step];
    cursor = line.action;
    t += 1;
    if (t <= opts.lastPhiT && (opts.lastPhiT - t) % R.phiReportInterval === 0) {
      const { harvested, promoted } = phiCycle(window, t, edges, bias, store);
      Object.assign(row, { phi: true, window: window.length, harvested, promoted, bias: { ...bias } });
    }
    window = window.slice(-R.traceTail);
  }
  for (const at of wanted) checkpoints.push({ ...snapshot(), t: at });
  return { base: { t: base.t, label: base.label ?? `t=${base.t}` }, reports, checkpoints, final: snapshot() };
}

// ---------------------------------------------------------------- the audit

export type DisagreementKind =
  'edge_weight' | 'weight_clamp' | 'policy_bias' | 'artifact' | 'reward' | 'routing' | 'cursor';

export interface Disagreement {
  kind: DisagreementKind;
  /** The state (its label) or `action log` for a log line. */
  at: string;
  t: number;
  /** Which edge (`#i src → dst`), bias entry (`#i`), artifact (`id field`) or log line (`action`). */
  subject: string;
  stored: unknown;
  expected: unknown;
  rule: string;
}

/** One entry of consult_samples.json: a context and what op_consult returned for it. */
export interface ConsultSampleLike {
  i?: number;
  context: string;
  consult: { suggested_paths?: readonly { to: string; score: number }[] };
}

export interface AuditInput {
  /** Stored states (snapshots and the current one); the earliest is the base the log is replayed from. */
  states: readonly AuditState[];
  /** The action log (actionRow's fields). */
  actions: readonly AuditAction[];
  /** The index's `last_phi_t` (see `ReplayOptions`). */
  lastPhiT: number;
  capabilities?: readonly string[];
  /** consult_samples.json, for the advisory differentiation of what the bridge advised. */
  consultSamples?: readonly ConsultSampleLike[];
  /** Largest difference taken as agreement, relative to max(1, |value|); 1e-9 by default. */
  tolerance?: number;
}

export interface AuditResult {
  replay: Replay;
  disagreements: Disagreement[];
  /** How much was compared. */
  checked: { states: number; reports: number; weights: number; biases: number; artifacts: number };
  differentiation: Differentiation | null;
}

function close(a: number, b: number, tol: number) {
  return Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
}

function sameJson(a: unknown, b: unknown, tol: number): boolean {
  if (typeof a === 'number' && typeof b === 'number') return close(a, b, tol);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i], tol));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k], tol));
  }
  return a === b;
}

/**
 * Replays the log from the earliest state and compares every later state with what the rules imply: each edge
 * weight, each policy-bias entry, each artifact (kind, payload, score, created_t; meta is not kept by the
 * reference), plus the clamp on every stored weight and, per log line, the logged reward, routed flag and cursor.
 */
export function auditWorkspace(input: AuditInput): AuditResult {
  const tol = input.tolerance ?? 1e-9;
  const states = [...input.states].sort((a, b) => a.t - b.t);
  const base = states[0];
  if (!base) throw new Error('auditWorkspace needs at least one stored state');
  const later = states.slice(1).filter((s) => s.t >= base.t);
  const replay = replayReports(base, input.actions, {
    lastPhiT: input.lastPhiT,
    capabilities: input.capabilities,
    at: later.map((s) => s.t),
  });
  const out: Disagreement[] = [];
  const checked = { states: later.length, reports: replay.reports.length, weights: 0, biases: 0, artifacts: 0 };
  const label = (s: AuditState) => s.label ?? `t=${s.t}`;
  const byT = new Map(replay.checkpoints.map((c) => [c.t, c]));
  for (const s of states) {
    const edges = edgesOf(s.graph);
    edges.forEach((e, i) => {
      if (Math.abs(e.w) > REFERENCE_RULES.weightClamp) {
        const expected = clamp(e.w, -REFERENCE_RULES.weightClamp, REFERENCE_RULES.weightClamp);
        out.push({
          kind: 'weight_clamp',
          at: label(s),
          t: s.t,
          subject: `#${i} ${e.src} → ${e.dst}`,
          stored: e.w,
          expected,
          rule: AUDIT_RULES.clamp,
        });
      }
    });
    const want = s === base ? null : byT.get(s.t);
    if (!want) continue;
    edges.forEach((e, i) => {
      checked.weights++;
      const w = want.weights[i];
      if (w === undefined || !close(e.w, w, tol))
        out.push({
          kind: 'edge_weight',
          at: label(s),
          t: s.t,
          subject: `#${i} ${e.src} → ${e.dst}`,
          stored: e.w,
          expected: w ?? null,
          rule: AUDIT_RULES.weight,
        });
    });
    const stored = edgeBiasOf(s.policy);
    const keys = [...new Set([...Object.keys(stored), ...Object.keys(want.bias)])].sort(
      (a, b) => Number(a) - Number(b),
    );
    for (const k of keys) {
      checked.biases++;
      const [a, b] = [stored[k], want.bias[k]];
      if (a === undefined || b === undefined || !close(a, b, tol))
        out.push({
          kind: 'policy_bias',
          at: label(s),
          t: s.t,
          subject: `#${k}`,
          stored: a ?? null,
          expected: b ?? null,
          rule: AUDIT_RULES.bias,
        });
    }
    const have = new Map(artifactsOf(s.artifacts).map((a) => [a.id, a]));
    const exp = new Map(want.artifacts.map((a) => [a.id, a]));
    for (const id of [...new Set([...have.keys(), ...exp.keys()])].sort()) {
      checked.artifacts++;
      const [a, b] = [have.get(id), exp.get(id)];
      const at = { kind: 'artifact' as const, at: label(s), t: s.t, rule: AUDIT_RULES.artifact };
      if (!a || !b) {
        out.push({ ...at, subject: id, stored: a ?? null, expected: b ?? null });
        continue;
      }
      for (const f of ['kind', 'payload', 'score', 'created_t'] as const)
        if (!sameJson(a[f], b[f], tol)) out.push({ ...at, subject: `${id} ${f}`, stored: a[f], expected: b[f] });
    }
  }
  for (const r of replay.reports) {
    const line = input.actions[r.line];
    if (!line || !r.known) continue;
    const at = { at: 'action log', t: r.t, subject: r.action };
    if (line.cursorBefore !== null && line.cursorBefore !== r.cursorBefore)
      out.push({
        ...at,
        kind: 'cursor',
        stored: line.cursorBefore,
        expected: r.cursorBefore,
        rule: AUDIT_RULES.cursor,
      });
    if (line.routed !== null && line.routed !== r.routed)
      out.push({ ...at, kind: 'routing', stored: line.routed, expected: r.routed, rule: AUDIT_RULES.routing });
    const reward = pyRound(r.reward, 4);
    if (line.reward !== null && !close(line.reward, reward, tol))
      out.push({ ...at, kind: 'reward', stored: line.reward, expected: reward, rule: AUDIT_RULES.reward });
  }
  const samples = input.consultSamples ?? [];
  const differentiation = samples.length ? advisoryDifferentiation(samples.map(sampleAdvisory)) : null;
  return { replay, disagreements: out, checked, differentiation };
}

// ---------------------------------------------------------------- advisory differentiation

/** A context and its advisory: a score per destination, best first (first-listed wins a tie for top-1). */
export interface Advisory {
  /** Its label (a stored sample's is `i: context`). */
  context: string;
  /** The context consulted with, when the label is more than that. */
  asked?: string;
  scores: readonly (readonly [string, number])[];
}

export interface Differentiation {
  /** Advisories compared (stored samples may repeat a context at other states). */
  contexts: number;
  /** Distinct contexts among them. */
  distinctContexts: number;
  /** "Advisory variance": the mean over context pairs of 1 − cosine similarity of their score vectors. */
  variance: number;
  /** Distinct top-1 destinations across the contexts. */
  uniqueTop1: number;
  top1: { context: string; to: string | null }[];
  pairs: { a: string; b: string; distance: number }[];
  /** option_b_test.py's verdict: ≥ 3 distinct top-1 picks works, 2 is partial, fewer fails. */
  verdict: 'works' | 'partial' | 'fails';
}

/** experiments/option_b_test.py `cosine_similarity` over score vectors keyed by destination (missing = 0). */
export function cosineSimilarity(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  const keys = new Set([...a.keys(), ...b.keys()]);
  if (!keys.size) return 0.0;
  let dot = 0;
  for (const k of keys) dot += (a.get(k) ?? 0) * (b.get(k) ?? 0);
  const mag = (m: ReadonlyMap<string, number>) => Math.sqrt([...m.values()].reduce((s, v) => s + v * v, 0));
  const [ma, mb] = [mag(a), mag(b)];
  return ma === 0 || mb === 0 ? 0.0 : dot / (ma * mb);
}

/**
 * The paper's advisory differentiation (§5.3–5.4, Table 2), as experiments/option_b_test.py `run_option_b_test`
 * and postfix_experiments.py `advisory_variance` compute it over the advisories of several contexts: the mean of
 * 1 − cosine similarity over all pairs ("advisory variance"), and how many distinct top-1 picks there are.
 */
export function advisoryDifferentiation(advisories: readonly Advisory[]): Differentiation {
  const maps = advisories.map((a) => new Map(a.scores));
  const pairs: Differentiation['pairs'] = [];
  for (let i = 0; i < advisories.length; i++)
    for (let j = i + 1; j < advisories.length; j++)
      pairs.push({
        a: advisories[i]!.context,
        b: advisories[j]!.context,
        distance: 1.0 - cosineSimilarity(maps[i]!, maps[j]!),
      });
  const variance = pairs.length ? pairs.reduce((s, p) => s + p.distance, 0) / pairs.length : 0.0;
  const top1 = advisories.map((a, k) => {
    let best: string | null = null;
    for (const [to, v] of maps[k]!) if (best === null || v > maps[k]!.get(best)!) best = to;
    return { context: a.context, to: best };
  });
  const uniqueTop1 = new Set(top1.filter((x) => x.to !== null).map((x) => x.to)).size;
  const verdict = uniqueTop1 >= 3 ? 'works' : uniqueTop1 >= 2 ? 'partial' : 'fails';
  const distinctContexts = new Set(advisories.map((a) => a.asked ?? a.context)).size;
  return { contexts: advisories.length, distinctContexts, variance, uniqueTop1, top1, pairs, verdict };
}

/** A stored consult sample as an advisory (its suggested paths: the bridge's top 6), labelled `i: context`. */
export function sampleAdvisory(s: ConsultSampleLike): Advisory {
  return {
    context: s.i === undefined ? s.context : `${s.i}: ${s.context}`,
    asked: s.context,
    scores: (s.consult.suggested_paths ?? []).map((p) => [p.to, p.score] as const),
  };
}

/**
 * The paper's differentiation of the full advisories `routeContext` gives now, at one state, for the given contexts
 * (what experiments/option_b_test.py measures: the same state, several contexts).
 */
export function differentiationAt(
  state: Readonly<SubstrateState>,
  contexts: readonly string[],
  now: number | Date,
): Differentiation {
  return advisoryDifferentiation(
    contexts.map((context) => ({
      context,
      scores: routeContext(state, context, { now }).paths.map((p) => [p.to, p.printed.score] as const),
    })),
  );
}

// ---------------------------------------------------------------- what a person reads

export interface AuditSummary {
  /** The state the log is replayed from (the earliest given). */
  base: { t: number; label: string };
  /** States read (the base included) and action-log lines given. */
  states: number;
  lines: number;
  /** Lines after the base, replayed; of them routed along an edge, jumps, unknown capabilities, clamped weights. */
  replayed: number;
  routed: number;
  jumps: number;
  unknown: number;
  clamped: number;
  phiCycles: number;
  /** Artifacts the replay ends with. */
  artifacts: number;
  checked: AuditResult['checked'];
  disagreementCount: number;
  byKind: Partial<Record<DisagreementKind, number>>;
  /** The first `limit` disagreements, in the audit's order. */
  disagreements: Disagreement[];
  differentiation: Differentiation | null;
}

/** The audit as a person reads it: counts, the disagreements (at most `limit`), the differentiation. */
export function summarizeAudit(r: AuditResult, given: { states: number; lines: number }, limit = 200): AuditSummary {
  const reports = r.replay.reports;
  const byKind: Partial<Record<DisagreementKind, number>> = {};
  for (const d of r.disagreements) byKind[d.kind] = (byKind[d.kind] ?? 0) + 1;
  return {
    base: r.replay.base,
    ...given,
    replayed: reports.length,
    routed: reports.filter((x) => x.routed).length,
    jumps: reports.filter((x) => x.known && !x.routed).length,
    unknown: reports.filter((x) => !x.known).length,
    clamped: reports.filter((x) => x.clamped).length,
    phiCycles: reports.filter((x) => x.phi).length,
    artifacts: r.replay.final.artifacts.length,
    checked: r.checked,
    disagreementCount: r.disagreements.length,
    byKind,
    disagreements: r.disagreements.slice(0, limit),
    differentiation: r.differentiation,
  };
}
