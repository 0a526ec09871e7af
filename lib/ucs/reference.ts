/**
 * The rules of the UCS reference implementation that more than one part of lib/ucs follows, written once
 * (github.com/KyleMillion/unified-cognitive-substrate at bc0cd59, src/bridge.py and src/torusfield_kernel.py):
 * the bridge's and kernel's tuning, Python's rounding, the words and dates the bridge reads, capability resolution
 * through its keyword map, the stored graph and trace as the kernel reloads them, and op_report's learning rule.
 * The φ-cycle lives in phi-cycle.ts, the dead-end search in reopen.ts, the dynamics and consult in substrate-sim.ts.
 */
import aegis from './data/aegis-keyword-map.json';
import type { EdgeParams } from './routing';

type Json = Record<string, unknown>;

/** UCSConfig, TorusfieldEngine, Harvester and PolicyKernel defaults, as the reference runs with them. */
export const REFERENCE_RULES = {
  /** UCSConfig.theta_warmup_steps: diffuse/decay/inject rounds in every consult. */
  consultWarmupSteps: 15,
  /** op_consult passes min(theta_warmup_steps, 5) to prepare_context_energy. */
  contextDiffusionSteps: 5,
  consultEnergyMagnitude: 1.5,
  reportEnergyMagnitude: 1.0,
  /** UCSConfig.phi_report_interval: a φ-cycle every 5th report. */
  phiReportInterval: 5,
  /** UCSConfig.max_dead_end_hits: the dead ends consult returns, and lets penalise routing. */
  maxDeadEndHits: 3,
  /** Penalty energy each returned dead end puts on each of its capabilities (_prepare_penalty_energy). */
  deadEndPenalty: 1.0,
  /** UCSConfig.temporal_decay_rate: a dead end's score × 1 / (1 + rate × age in days). */
  temporalDecayRate: 0.01,
  /** op_consult resolves capabilities with recent_methodology(20). */
  methodologyWindow: 20,
  /** UCSConfig.advisory_top_n: the suggested paths consult prints. */
  advisoryTopN: 6,
  rewardBase: { success: 0.8, partial: 0.45, neutral: 0.3, failure: 0.1 } as Readonly<Record<string, number>>,
  /** `reward_base.get(success, 0.30)`. */
  rewardFallback: 0.3,
  rewardEdgeBlend: 0.3,
  /** TorusfieldEngine.reinforce_lr and _clamp's bounds. */
  reinforceLr: 0.075,
  weightClamp: 2.5,
  /** TorusfieldEngine.phi_period (where a φ-cycle injects artifact mass) and export_state's trace tail. */
  phiPeriod: 25,
  traceTail: 50,
  artifactMassShare: 0.15,
  wormhole: { minHits: 6, minMeanNet: 0.35 },
  attractor: { minFrequency: 0.15, minHits: 6 },
  resonance: { minTrace: 20, minTimes: 4, minOccurrences: 6, maxCv: 0.3 },
  bias: { wormholeCap: 5.0, attractorFactor: 0.3, attractorCap: 2.0, decay: 0.995, floor: 1e-6 },
  /** The Edge dataclass's defaults, for a stored edge without them. */
  edge: { w: 0.0, u: 0.5, c: 0.2, n: 0.0 },
  /** ArtifactStore.get_stale's stale_after_steps: an artifact not detected for more θ steps is a pruning candidate. */
  staleAfterSteps: 500,
} as const;

/**
 * Steps since an artifact was last detected, and whether that makes it stale, as the reference's
 * `ArtifactStore.get_stale(t)` decides (src/torusfield_kernel.py, KyleMillion/unified-cognitive-substrate): the last
 * detection is `meta.last_detected_t`, else the step it was created at; stale when it is before t − 500. The
 * bridge's status counts these (`stale_artifact_count`) and its synthesis prompt lists them; nothing prunes them
 * unless the agent asks. `recorded` says whether a detection after creation was stored: the reference's saved state
 * keeps `meta: {}` for artifacts it detected again since, so without it the age runs from creation.
 */
export function artifactStaleness(
  a: { createdT: number | null; meta?: unknown },
  t: number,
): { lastDetectedT: number; recorded: boolean; age: number; stale: boolean } | null {
  const recorded = isObj(a.meta) && typeof a.meta.last_detected_t === 'number';
  const detected = recorded ? (a.meta as { last_detected_t: number }).last_detected_t : a.createdT;
  if (detected === null) return null;
  return {
    lastDetectedT: detected,
    recorded,
    age: t - detected,
    stale: detected < t - REFERENCE_RULES.staleAfterSteps,
  };
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown, d = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : d);

/** `_clamp(x, lo, hi)`. */
export const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

/** Python's round(x, nd): the exact decimal rounding of the double, ties (odd multiples of 2^−(nd+1)) to even. */
export function pyRound(x: number, nd: number): number {
  if (!Number.isFinite(x)) return x;
  const scaled = Math.abs(x) * 2 ** (nd + 1);
  if (Number.isInteger(scaled) && scaled % 2 === 1) {
    const s = Math.abs(x).toFixed(nd + 1);
    const down = s.slice(0, -1);
    const even = Number(down.replace('.', '').slice(-1)) % 2 === 0;
    const v = Number(even ? down : Math.abs(x).toFixed(nd));
    return x < 0 ? -v : v;
  }
  return Number(x.toFixed(nd));
}

/** The distinct words of a text as the bridge takes them, `set(re.findall(r"[a-z_]{3,}", text.lower()))`. */
export function referenceWords(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[a-z_]{3,}/g) ?? [])];
}

// ---------------------------------------------------------------- dates

const DAY = 86_400_000;

function utcDay(y: number, month0: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(y, month0, day); // unlike Date.UTC, years 1–99 stay themselves
  return d.getTime();
}

/**
 * Midnight UTC of an entry's `date` as the bridge parses it, `datetime.fromisoformat(date + "T00:00:00+00:00")` on
 * Python 3.11: YYYY-MM-DD, YYYYMMDD or an ISO week date (YYYY-Www[-D], YYYYWww[D]); null where Python raises.
 */
export function entryDate(date: string): number | null {
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(date);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const at = utcDay(y, mo - 1, d);
    const back = new Date(at);
    const ok = y >= 1 && back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d;
    return ok ? at : null;
  }
  m = /^(\d{4})-W(\d{2})(?:-(\d))?$/.exec(date) ?? /^(\d{4})W(\d{2})(\d)?$/.exec(date);
  if (!m) return null;
  const [y, week, day] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 1 : Number(m[3])];
  const jan1 = new Date(utcDay(y, 0, 1)).getUTCDay() || 7;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const weeks = jan1 === 4 || (jan1 === 3 && leap) ? 53 : 52;
  if (y < 1 || week < 1 || week > weeks || day < 1 || day > 7) return null;
  const jan4 = utcDay(y, 0, 4);
  const week1Monday = jan4 - ((new Date(jan4).getUTCDay() || 7) - 1) * DAY;
  return week1Monday + ((week - 1) * 7 + day - 1) * DAY;
}

/** Whole days from an entry's date to `now` (timedelta.days: floored), at least 0; null if the date does not parse. */
export function ageDays(date: string, now: number): number | null {
  const at = entryDate(date);
  return at === null ? null : Math.max(Math.floor((now - at) / DAY), 0);
}

// ---------------------------------------------------------------- capabilities

/**
 * What the bridge resolves capabilities with: `_KEYWORD_MAP` (build_keyword_map: words of the semantic-map labels
 * and of the capability names, plus a hand-written list) and `_CAP_NAMES`, both built at import from the manifest
 * embedded in the kernel, even when a workspace brings its own manifest.json.
 */
export interface ReferenceVocabulary {
  keywordMap: Readonly<Record<string, readonly string[]>>;
  /** In the manifest's order (see `capPosition` in substrate-sim.ts). */
  capabilityNames: readonly string[];
}

/** The bridge's vocabulary as a run of the reference recorded it (lib/ucs/data/aegis-keyword-map.json). */
export const AEGIS_VOCABULARY: ReferenceVocabulary = {
  keywordMap: aegis.keywordMap as Record<string, readonly string[]>,
  capabilityNames: aegis.capabilities,
};

/** `_KEYWORD_MAP.get(word, [])`: own keys only, so "constructor" or "__proto__" map to nothing, as in Python. */
export function keywordCapabilities(word: string, vocabulary: ReferenceVocabulary = AEGIS_VOCABULARY) {
  return Object.hasOwn(vocabulary.keywordMap, word) ? (vocabulary.keywordMap[word] ?? []) : [];
}

/** A methodology entry, as far as capability resolution reads it. */
export interface MethodologyLike {
  capabilities: readonly string[];
  keywords: readonly string[];
}

/**
 * The capabilities a free-text context resolves to (bridge.py `resolve_capabilities_from_context`, called by
 * op_consult with the last 20 methodology entries): the explicit ones that are capability names, those the keyword
 * map gives for each word, and those of every recent methodology entry sharing a keyword with the context. Sorted.
 */
export function resolveCapabilities(
  context: string,
  opts: {
    explicit?: readonly string[] | null;
    /** The index's methodology entries in order; the last `methodologyWindow` are read. */
    methodology?: readonly MethodologyLike[];
    vocabulary?: ReferenceVocabulary;
  } = {},
): string[] {
  const vocabulary = opts.vocabulary ?? AEGIS_VOCABULARY;
  const names = new Set(vocabulary.capabilityNames);
  const caps = new Set<string>();
  for (const c of opts.explicit ?? []) if (names.has(c)) caps.add(c);
  const words = new Set(referenceWords(context));
  for (const w of words) for (const c of keywordCapabilities(w, vocabulary)) caps.add(c);
  for (const m of (opts.methodology ?? []).slice(-REFERENCE_RULES.methodologyWindow)) {
    if (!m.keywords.some((k) => words.has(k.toLowerCase()))) continue;
    for (const c of m.capabilities) if (names.has(c)) caps.add(c);
  }
  return [...caps].sort();
}

// ---------------------------------------------------------------- the stored graph and trace

/** The edges of a stored graph as import_state reads them, the Edge dataclass's defaults for what is missing. */
export function edgesOf(graph: Json | null | undefined): EdgeParams[] {
  const list = Array.isArray(graph?.edges) ? (graph.edges as unknown[]) : [];
  const d = REFERENCE_RULES.edge;
  return list.filter(isObj).map((e) => ({
    src: String(e.src),
    dst: String(e.dst),
    u: num(e.u, d.u),
    c: num(e.c, d.c),
    n: num(e.n, d.n),
    w: num(e.w, d.w),
  }));
}

/** The graph's node names. */
export function nodesOf(graph: Json | null | undefined): string[] {
  return Array.isArray(graph?.nodes) ? (graph.nodes as unknown[]).map(String) : [];
}

/** A step of the trace log (torusfield_kernel.py TraceStep). */
export interface TraceStep {
  t: number;
  src: string;
  dst: string;
  edge_index: number;
  reward: number;
  cost: number;
  novelty: number;
}

/** The trace tail a state carries (`trace.theta_tail`, oldest first), reloaded as import_state reloads it. */
export function traceOf(trace: Json | null | undefined): TraceStep[] {
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

/** The policy's edge biases, keyed by edge index as text (PolicyKernel.edge_bias after import_state). */
export function edgeBiasOf(policy: Json | null | undefined): Record<string, number> {
  const b = isObj(policy?.edge_bias) ? policy.edge_bias : {};
  return Object.fromEntries(Object.entries(b).map(([k, v]) => [String(Number.parseInt(k, 10)), num(v)]));
}

// ---------------------------------------------------------------- op_report's learning rule

const rewardBase = (success: string | null | undefined) => {
  const R = REFERENCE_RULES;
  return success != null && Object.hasOwn(R.rewardBase, success) ? R.rewardBase[success]! : R.rewardFallback;
};

/** bridge.py `RewardModel.compute` for a routed report: 0.7·base(success) + 0.3·u. */
export function reportReward(success: string | null | undefined, utility: number): number {
  const blend = REFERENCE_RULES.rewardEdgeBlend;
  return (1.0 - blend) * rewardBase(success) + blend * utility;
}

/** The reward an unrouted report logs: the base alone. */
export const unroutedReward = (success: string | null | undefined): number => rewardBase(success);

/** The weight after reinforcement (op_report, as step_theta): clamp(w + lr·(reward − cost − 0.5), ±2.5). */
export function reinforce(w: number, reward: number, cost: number): number {
  const R = REFERENCE_RULES;
  return clamp(w + R.reinforceLr * (reward - cost - 0.5), -R.weightClamp, R.weightClamp);
}

export interface ReportLearning {
  /** Whether the cursor has a direct edge to the action (`_find_edge`); otherwise a jump, logged as an override. */
  routed: boolean;
  edgeIndex: number | null;
  /** Full precision (the log rounds it to 4); the base alone when unrouted. */
  reward: number;
  cost: number | null;
  oldW: number | null;
  newW: number | null;
  /** The clamp bit: w + lr·(net − 0.5) fell outside ±2.5. */
  clamped: boolean;
  /** The trace step the report appends (routed only). */
  step: TraceStep | null;
}

/**
 * What op_report learns from reporting `action` (a capability) with the cursor on `cursor` at step t: the first
 * edge cursor → action is reinforced in place with reward 0.7·base(success) + 0.3·u and cost c, and a trace step is
 * made of it; without such an edge nothing is learned and the base reward is logged.
 */
export function learnFromReport(
  edges: EdgeParams[],
  cursor: string,
  action: string,
  success: string | null | undefined,
  t: number,
): ReportLearning {
  const edgeIndex = edges.findIndex((e) => e.src === cursor && e.dst === action);
  const e = edges[edgeIndex];
  if (!e) {
    const reward = unroutedReward(success);
    return { routed: false, edgeIndex: null, reward, cost: null, oldW: null, newW: null, clamped: false, step: null };
  }
  const reward = reportReward(success, e.u);
  const cost = e.c * 1.0;
  const oldW = e.w;
  const raw = oldW + REFERENCE_RULES.reinforceLr * (reward - cost - 0.5);
  e.w = reinforce(oldW, reward, cost);
  const step = { t, src: e.src, dst: e.dst, edge_index: edgeIndex, reward, cost, novelty: e.n };
  return { routed: true, edgeIndex, reward, cost, oldW, newW: e.w, clamped: raw !== e.w, step };
}
