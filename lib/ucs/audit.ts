/**
 * What the reference's rules imply for an imported UCS workspace, and where the stored state disagrees.
 *
 * The reference (github.com/KyleMillion/unified-cognitive-substrate at bc0cd59) changes learned state only in
 * `UCSBridge.op_report` (src/bridge.py), once per action-log line:
 *  - reinforcement: a report whose capability has a direct edge from the cursor gets
 *    reward = 0.7·base(success) + 0.3·u (`RewardModel.compute`), and w ← clamp(w + 0.075·(reward − c − 0.5), ±2.5)
 *    (`_clamp`, `TorusfieldEngine.reinforce_lr`); a trace step (t, edge, reward, cost c) is appended;
 *  - every 5th report (`UCSConfig.phi_report_interval`) runs a φ-cycle (`TorusfieldEngine.step_phi`) over the trace
 *    as reloaded (the last 50 steps, `export_state`'s theta_tail, plus this report's): `Harvester.detect_all`
 *    harvests wormholes, attractors and resonances, `ArtifactStore.promote` keeps them by stable id, and
 *    `PolicyKernel.update` adds to the policy bias and decays all of it.
 * Replaying the action log from a stored state with those rules gives the weights, artifacts and biases every later
 * state should hold; `auditWorkspace` lists each difference. `advisoryDifferentiation` is the paper's advisory
 * differentiation (experiments/option_b_test.py), and `referenceAdvisory` the full advisory it is measured on.
 * Everything is pure.
 */
import { diffuse, FIELD_DEFAULTS } from './dynamics';
import { nodePositions } from './field';
import { referenceReopen, type ReferenceDeadEnd, type ReferenceReopenOptions } from './reopen';
import { scoreOutgoing } from './routing';
import type { UcsStateParts } from './state';

type Json = Record<string, unknown>;

/** The constants of those rules (bridge.py `UCSConfig`, torusfield_kernel.py `TorusfieldEngine`, `Harvester`,
 * `PolicyKernel`, `TraceLog`). */
export const REFERENCE_RULES = {
  rewardBase: { success: 0.8, partial: 0.45, neutral: 0.3, failure: 0.1 } as Readonly<Record<string, number>>,
  /** `reward_base.get(success, 0.30)`. */
  rewardFallback: 0.3,
  rewardEdgeBlend: 0.3,
  reinforceLr: 0.075,
  weightClamp: 2.5,
  phiReportInterval: 5,
  traceTail: 50,
  wormhole: { minHits: 6, minMeanNet: 0.35 },
  attractor: { minFrequency: 0.15, minHits: 6 },
  resonance: { minTrace: 20, minTimes: 4, minOccurrences: 6, maxCv: 0.3 },
  bias: { wormholeCap: 5.0, attractorFactor: 0.3, attractorCap: 2.0, decay: 0.995, floor: 1e-6 },
} as const;

const RULE = {
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

// ---------------------------------------------------------------- inputs

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

export interface TraceStep {
  t: number;
  src: string;
  dst: string;
  edge_index: number;
  reward: number;
  cost: number;
  novelty: number;
}

/** An edge of the stored graph, with the parameters the rules read. */
export interface AuditEdge {
  src: string;
  dst: string;
  w: number;
  u: number;
  c: number;
  n: number;
}

/** An artifact as the kernel exports it (its `meta` is left out: `import_state` drops it on every load). */
export interface HarvestedArtifact {
  id: string;
  kind: string;
  payload: Json;
  score: number;
  created_t: number;
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown, d = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : d);

function edgesOf(graph: Json | null): AuditEdge[] {
  const list = Array.isArray(graph?.edges) ? (graph.edges as unknown[]) : [];
  return list.filter(isObj).map((e) => ({
    src: String(e.src),
    dst: String(e.dst),
    w: num(e.w),
    u: num(e.u, 0.5),
    c: num(e.c, 0.2),
    n: num(e.n),
  }));
}

function artifactsOf(list: unknown[] | null): HarvestedArtifact[] {
  return (list ?? []).filter(isObj).map((a) => ({
    id: String(a.id),
    kind: String(a.kind),
    payload: isObj(a.payload) ? a.payload : {},
    score: num(a.score),
    created_t: num(a.created_t),
  }));
}

function biasOf(policy: Json | null): Map<number, number> {
  const b = isObj(policy?.edge_bias) ? policy.edge_bias : {};
  return new Map(Object.entries(b).map(([k, v]) => [Number.parseInt(k, 10), num(v)]));
}

function traceOf(trace: Json | null): TraceStep[] {
  const tail = Array.isArray(trace?.theta_tail) ? (trace.theta_tail as unknown[]) : [];
  return tail.filter(isObj).map((s) => ({
    t: num(s.t),
    src: String(s.src),
    dst: String(s.dst),
    edge_index: num(s.edge_index),
    reward: num(s.reward),
    cost: num(s.cost),
    novelty: num(s.novelty),
  }));
}

// ---------------------------------------------------------------- the rules

/** `_clamp(x, lo, hi)`. */
export const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

/** Python's `round(x, nd)`: correctly rounded, exact halves to even. */
export function pyRound(x: number, nd: number): number {
  const near = Number(x.toFixed(nd));
  const exact = Math.abs(x).toFixed(100);
  const tail = exact.slice(exact.indexOf('.') + 1 + nd);
  if (!/^50*$/.test(tail)) return near;
  const down = Math.trunc(Math.abs(x) * 10 ** nd);
  const even = (down % 2 === 0 ? down : down + 1) / 10 ** nd;
  return Math.sign(x) * even;
}

/** bridge.py `RewardModel.compute` for a routed report. */
export function reportReward(success: string | null, utility: number): number {
  const R = REFERENCE_RULES;
  const base = success !== null && Object.hasOwn(R.rewardBase, success) ? R.rewardBase[success]! : R.rewardFallback;
  return (1.0 - R.rewardEdgeBlend) * base + R.rewardEdgeBlend * utility;
}

/** The reward an unrouted report logs: the base alone. */
export function unroutedReward(success: string | null): number {
  const R = REFERENCE_RULES;
  return success !== null && Object.hasOwn(R.rewardBase, success) ? R.rewardBase[success]! : R.rewardFallback;
}

/** The weight after reinforcement (op_report, as step_theta): clamp(w + lr·(reward − cost − 0.5), ±2.5). */
export function reinforce(w: number, reward: number, cost: number): number {
  const R = REFERENCE_RULES;
  return clamp(w + R.reinforceLr * (reward - cost - 0.5), -R.weightClamp, R.weightClamp);
}

/**
 * An artifact's stable id: `_sha256(_stable_json({"kind": kind, <key>: value}))[:16]` (torusfield_kernel.py
 * `Harvester.detect_*`), keyed on edge_index (wormhole, resonance) or node (attractor).
 */
export function artifactId(kind: string, key: { edge_index: number } | { node: string }): string {
  const body = 'node' in key ? { kind, node: key.node } : { edge_index: key.edge_index, kind };
  return sha256Hex(JSON.stringify(body)).slice(0, 16);
}

/**
 * One φ-cycle's harvest over the trace window (torusfield_kernel.py `Harvester.detect_all` then `validate`, the
 * default detectors): wormholes (an edge with ≥ 6 steps and mean reward − cost ≥ 0.35; score mean·ln(1 + hits)),
 * attractors (a destination with > 15 % of the steps and ≥ 6 visits; score frequency·ln(1 + visits)) and resonances
 * (with ≥ 20 steps, an edge taken ≥ 6 times at intervals whose coefficient of variation is < 0.3; score
 * (1 − cv)·ln(1 + n)), each in order of first appearance, those scoring > 0.
 */
export function harvest(window: readonly TraceStep[], nowT: number): HarvestedArtifact[] {
  const R = REFERENCE_RULES;
  const out: HarvestedArtifact[] = [];
  const nets = new Map<number, number[]>();
  for (const s of window) nets.set(s.edge_index, [...(nets.get(s.edge_index) ?? []), s.reward - s.cost]);
  for (const [eidx, vals] of nets) {
    if (vals.length < R.wormhole.minHits) continue;
    const mean = vals.reduce((a, b) => a + b, 0) / vals.length;
    if (mean < R.wormhole.minMeanNet) continue;
    out.push({
      id: artifactId('wormhole', { edge_index: eidx }),
      kind: 'wormhole',
      payload: { edge_index: eidx, hits: vals.length, mean_net: pyRound(mean, 6) },
      score: mean * Math.log(1 + vals.length),
      created_t: nowT,
    });
  }
  const visits = new Map<string, number>();
  for (const s of window) visits.set(s.dst, (visits.get(s.dst) ?? 0) + 1);
  const total = window.length || 1;
  for (const [node, count] of visits) {
    const freq = count / total;
    if (!(freq > R.attractor.minFrequency && count >= R.attractor.minHits)) continue;
    out.push({
      id: artifactId('attractor', { node }),
      kind: 'attractor',
      payload: { node, visits: count, frequency: pyRound(freq, 4) },
      score: freq * Math.log(1 + count),
      created_t: nowT,
    });
  }
  if (window.length >= R.resonance.minTrace) {
    const times = new Map<number, number[]>();
    for (const s of window) times.set(s.edge_index, [...(times.get(s.edge_index) ?? []), s.t]);
    for (const [eidx, ts] of times) {
      if (ts.length < R.resonance.minTimes) continue;
      const iv = ts.slice(1).map((t, k) => t - ts[k]!);
      const mean = iv.reduce((a, b) => a + b, 0) / iv.length;
      if (mean < 1) continue;
      const variance = iv.reduce((a, x) => a + (x - mean) * (x - mean), 0) / iv.length;
      const cv = mean > 0 ? Math.sqrt(variance) / mean : 999;
      if (!(cv < R.resonance.maxCv && ts.length >= R.resonance.minOccurrences)) continue;
      out.push({
        id: artifactId('resonance', { edge_index: eidx }),
        kind: 'resonance',
        payload: { edge_index: eidx, period: pyRound(mean, 2), cv: pyRound(cv, 4), occurrences: ts.length },
        score: (1.0 - cv) * Math.log(1 + ts.length),
        created_t: nowT,
      });
    }
  }
  return out.filter((a) => a.score > 0);
}

/**
 * torusfield_kernel.py `PolicyKernel.update`, in place: each wormhole adds clamp(score, 0, 5) to its edge's bias,
 * each attractor clamp(0.3·score, 0, 2) to every outgoing edge of its node; then every bias × 0.995, and those under
 * 1e-6 are dropped. (The cap bounds each addition, not the bias, which keeps growing while a pattern holds.)
 */
export function updatePolicyBias(
  bias: Map<number, number>,
  harvested: readonly HarvestedArtifact[],
  edges: readonly AuditEdge[],
) {
  const B = REFERENCE_RULES.bias;
  const add = (i: number, v: number) => bias.set(i, (bias.get(i) ?? 0.0) + v);
  for (const a of harvested) {
    if (a.kind === 'wormhole' && 'edge_index' in a.payload)
      add(Math.trunc(num(a.payload.edge_index)), clamp(a.score, 0, B.wormholeCap));
    else if (a.kind === 'attractor' && 'node' in a.payload)
      edges.forEach(
        (e, i) => e.src === a.payload.node && add(i, clamp(a.score * B.attractorFactor, 0, B.attractorCap)),
      );
  }
  for (const [k, v] of bias) {
    const d = v * B.decay;
    if (Math.abs(d) < B.floor) bias.delete(k);
    else bias.set(k, d);
  }
}

/** torusfield_kernel.py `ArtifactStore.promote`, in place: new ids are added, known ones take the new payload and
 * score (keeping their created_t). Returns the new ids. */
export function promote(store: Map<string, HarvestedArtifact>, harvested: readonly HarvestedArtifact[]): string[] {
  const fresh: string[] = [];
  for (const a of harvested) {
    const prev = store.get(a.id);
    if (prev) store.set(a.id, { ...prev, payload: a.payload, score: a.score });
    else {
      store.set(a.id, { ...a });
      fresh.push(a.id);
    }
  }
  return fresh;
}

// ---------------------------------------------------------------- replay

export interface ReplayedReport {
  /** Its index in the actions given. */
  line: number;
  /** The log line's t (the state's t after the report). */
  t: number;
  action: string;
  /** Whether the action is a capability (an unknown one is logged and nothing else: no t, no counter). */
  known: boolean;
  cursorBefore: string;
  routed: boolean;
  edgeIndex: number | null;
  /** Full precision (the log rounds it to 4); the base alone when unrouted. */
  reward: number;
  cost: number | null;
  oldW: number | null;
  newW: number | null;
  /** The clamp bit: w + lr·(net − 0.5) fell outside ±2.5. */
  clamped: boolean;
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
  /** Capability names (the bridge's `_CAP_NAMES`); the graph's nodes by default. */
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

const biasRecord = (b: Map<number, number>) => Object.fromEntries([...b].map(([k, v]) => [String(k), v]));

/**
 * Replays the action log's lines after `base.t` through op_report's rules (see the file's comment), from the
 * weights, trace tail, artifacts, biases and cursor of `base`.
 */
export function replayReports(base: AuditState, actions: readonly AuditAction[], opts: ReplayOptions): Replay {
  const R = REFERENCE_RULES;
  const edges = edgesOf(base.graph);
  const nodes = Array.isArray(base.graph?.nodes) ? (base.graph.nodes as unknown[]).map(String) : [];
  const caps = new Set(opts.capabilities ?? (nodes.length ? nodes : edges.flatMap((e) => [e.src, e.dst])));
  const bias = biasOf(base.policy);
  const store = new Map(artifactsOf(base.artifacts).map((a) => [a.id, a]));
  let window = traceOf(base.trace);
  let cursor = isObj(base.cursor) ? String(base.cursor.node) : '';
  let t = base.t;
  const snapshot = (): ReplayedState => ({
    t,
    cursor,
    weights: edges.map((e) => e.w),
    bias: biasRecord(bias),
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
    const known = caps.has(line.action);
    const row: ReplayedReport = {
      line: line.line,
      t: line.t,
      action: line.action,
      known,
      cursorBefore: cursor,
      routed: false,
      edgeIndex: null,
      reward: 0,
      cost: null,
      oldW: null,
      newW: null,
      clamped: false,
      phi: false,
    };
    reports.push(row);
    if (!known) continue;
    const eidx = edges.findIndex((e) => e.src === cursor && e.dst === line.action);
    if (eidx >= 0) {
      const e = edges[eidx]!;
      const reward = reportReward(line.success, e.u);
      const cost = e.c * 1.0;
      const raw = e.w + R.reinforceLr * (reward - cost - 0.5);
      Object.assign(row, { routed: true, edgeIndex: eidx, reward, cost, oldW: e.w });
      e.w = reinforce(e.w, reward, cost);
      Object.assign(row, { newW: e.w, clamped: raw !== e.w });
      window = [...window, { t, src: e.src, dst: e.dst, edge_index: eidx, reward, cost, novelty: e.n }];
    } else row.reward = unroutedReward(line.success);
    cursor = line.action;
    t += 1;
    const interval = R.phiReportInterval;
    if (t <= opts.lastPhiT && (opts.lastPhiT - t) % interval === 0) {
      const harvested = harvest(window, t);
      const promoted = promote(store, harvested);
      updatePolicyBias(bias, harvested, edges);
      Object.assign(row, { phi: true, window: window.length, harvested, promoted, bias: biasRecord(bias) });
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
          rule: RULE.clamp,
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
          rule: RULE.weight,
        });
    });
    const stored = biasRecord(biasOf(s.policy));
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
          rule: RULE.bias,
        });
    }
    const have = new Map(artifactsOf(s.artifacts).map((a) => [a.id, a]));
    const exp = new Map(want.artifacts.map((a) => [a.id, a]));
    for (const id of [...new Set([...have.keys(), ...exp.keys()])].sort()) {
      checked.artifacts++;
      const [a, b] = [have.get(id), exp.get(id)];
      const at = { kind: 'artifact' as const, at: label(s), t: s.t, rule: RULE.artifact };
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
      out.push({ ...at, kind: 'cursor', stored: line.cursorBefore, expected: r.cursorBefore, rule: RULE.cursor });
    if (line.routed !== null && line.routed !== r.routed)
      out.push({ ...at, kind: 'routing', stored: line.routed, expected: r.routed, rule: RULE.routing });
    const reward = pyRound(r.reward, 4);
    if (line.reward !== null && !close(line.reward, reward, tol))
      out.push({ ...at, kind: 'reward', stored: line.reward, expected: reward, rule: RULE.reward });
  }
  const samples = input.consultSamples ?? [];
  const differentiation = samples.length ? advisoryDifferentiation(samples.map(sampleAdvisory)) : null;
  return { replay, disagreements: out, checked, differentiation };
}

// ---------------------------------------------------------------- advisory differentiation

/** A context and its advisory: a score per destination, best first (first-listed wins a tie for top-1). */
export interface Advisory {
  context: string;
  scores: readonly (readonly [string, number])[];
}

export interface Differentiation {
  contexts: number;
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
  return { contexts: advisories.length, variance, uniqueTop1, top1, pairs, verdict };
}

/** A stored consult sample as an advisory (its suggested paths: the bridge's top 6), labelled `i: context`. */
export function sampleAdvisory(s: ConsultSampleLike): Advisory {
  return {
    context: s.i === undefined ? s.context : `${s.i}: ${s.context}`,
    scores: (s.consult.suggested_paths ?? []).map((p) => [p.to, p.score] as const),
  };
}

/** What `referenceAdvisory` needs from a stored state. */
export type AdvisoryState = Pick<
  UcsStateParts,
  'thetaBins' | 'phiBins' | 'graph' | 'policy' | 'cursor' | 'injectionSchedule'
>;

export interface ReferenceAdvisory {
  cursor: string;
  resolvedCapabilities: string[];
  /** Context energy read at each capability (non-zero ones). */
  contextEnergy: Record<string, number>;
  penaltyEnergy: Record<string, number>;
  /** Every outgoing edge of the cursor, as `_score_edges` lists them: scores rounded to 4, best first (stable). */
  paths: { to: string; edgeIndex: number; score: number; exact: number }[];
}

/**
 * The full advisory op_consult scores before keeping its top 6 (bridge.py `UCSBridge.op_consult`): capabilities
 * resolved from the context, context energy prepared on a zeroed field (`prepare_context_energy`: 1.5 at each
 * resolved capability's cell, 5 diffusions, read at every capability), the dead-end penalty of `referenceReopen`'s
 * returned dead ends, and every outgoing edge of the cursor scored by `_score_edges`.
 */
export function referenceAdvisory(
  state: AdvisoryState,
  context: string,
  opts: ReferenceReopenOptions & { deadEnds: readonly ReferenceDeadEnd[] },
): ReferenceAdvisory {
  const verdict = referenceReopen(context, opts.deadEnds, opts);
  const nodes = Array.isArray(state.graph?.nodes) ? (state.graph.nodes as unknown[]).map(String) : [];
  const cells = nodePositions(nodes, state.injectionSchedule, state.thetaBins, state.phiBins);
  let field = new Array<number>(state.thetaBins * state.phiBins).fill(0);
  const at = (th: number, ph: number) => th * state.phiBins + ph;
  for (const cap of verdict.resolvedCapabilities) {
    const c = cells.find((x) => x.name === cap);
    if (c) field[at(c.theta, c.phi)]! += 1.5;
  }
  for (let k = 0; k < 5; k++)
    field = diffuse(field, state.thetaBins, state.phiBins, FIELD_DEFAULTS.thetaMix, FIELD_DEFAULTS.phiMix);
  const energy = Object.fromEntries(cells.map((c) => [c.name, field[at(c.theta, c.phi)]!]));
  const cursor = isObj(state.cursor) ? String(state.cursor.node) : '';
  const bias = Object.fromEntries(
    Object.entries(isObj(state.policy?.edge_bias) ? state.policy.edge_bias : {}).map(([k, v]) => [k, num(v)]),
  );
  const scored = scoreOutgoing(edgesOf(state.graph), cursor, {
    bias,
    contextEnergy: energy,
    penalty: verdict.penaltyEnergy,
  });
  const paths = scored
    .sort((a, b) => a.edgeIndex - b.edgeIndex)
    .map((s) => ({ to: s.to, edgeIndex: s.edgeIndex, score: pyRound(s.score, 4), exact: s.score }))
    .sort((a, b) => b.score - a.score);
  return {
    cursor,
    resolvedCapabilities: verdict.resolvedCapabilities,
    contextEnergy: Object.fromEntries(Object.entries(energy).filter(([, v]) => v !== 0)),
    penaltyEnergy: verdict.penaltyEnergy,
    paths,
  };
}

// ---------------------------------------------------------------- sha256 (artifact ids)

const K256 = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
];

/** SHA-256 of a string's UTF-8 bytes, as hex (what `_sha256` returns). */
export function sha256Hex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const len = (((bytes.length + 9 + 63) >> 6) << 6) >>> 0;
  const buf = new Uint8Array(len);
  buf.set(bytes);
  buf[bytes.length] = 0x80;
  const view = new DataView(buf.buffer);
  view.setUint32(len - 4, (bytes.length * 8) >>> 0);
  view.setUint32(len - 8, Math.floor((bytes.length * 8) / 2 ** 32));
  const h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const w = new Uint32Array(64);
  const rot = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < len; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = rot(a, 7) ^ rot(a, 18) ^ (a >>> 3);
      const s1 = rot(b, 17) ^ rot(b, 19) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K256[i]! + w[i]!) >>> 0;
      const t2 = ((rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, hh].forEach((v, i) => (h[i] = (h[i]! + v) >>> 0));
  }
  return h.map((x) => x.toString(16).padStart(8, '0')).join('');
}
