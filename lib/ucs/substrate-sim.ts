/**
 * The UCS substrate run forward and consulted exactly as the reference runs it (github.com/KyleMillion/
 * unified-cognitive-substrate at bc0cd59, src/bridge.py and src/torusfield_kernel.py):
 *  - one step is one bridge tick, `UCSBridge.op_consult` then `UCSBridge.op_report`: 16 energy diffusions, 16 rounds
 *    of the injection schedule (all at the same t), 16 decays, the reported action's injection, a φ-cycle every 5th
 *    report, and t + 1;
 *  - `routeContext` is what `op_consult` advises for a context: resolved capabilities, context energy, dead ends with
 *    their reopen flags, and every outgoing edge of the cursor scored with its context boost and dead-end penalty.
 * Everything is pure: states come in and new states go out. Only the dead ends' temporal decay reads a clock, and
 * `now` can be given.
 */
import aegis from './fixtures/aegis-keyword-map.json';
import { diffuse, FIELD_DEFAULTS } from './dynamics';
import { nodePositions } from './field';
import { ROUTING_DEFAULTS, scoreOutgoing, type EdgeParams, type RoutingParams, type ScoredEdge } from './routing';

type Json = Record<string, unknown>;

/** Tuning of the bridge and kernel the reference runs with (UCSConfig and TorusfieldEngine defaults). */
export const BRIDGE_DEFAULTS = {
  /** UCSConfig.theta_warmup_steps: diffuse/decay/inject rounds in every consult. */
  consultWarmupSteps: 15,
  /** op_consult passes min(theta_warmup_steps, 5) to prepare_context_energy. */
  contextDiffusionSteps: 5,
  consultEnergyMagnitude: 1.5,
  reportEnergyMagnitude: 1.0,
  phiReportInterval: 5,
  maxDeadEndHits: 3,
  advisoryTopN: 6,
  temporalDecayRate: 0.01,
  recentMethodology: 20,
  rewardBase: { success: 0.8, partial: 0.45, neutral: 0.3, failure: 0.1 } as Readonly<Record<string, number>>,
  rewardEdgeBlend: 0.3,
  /** TorusfieldEngine.reinforce_lr, phi_period; export_state keeps the last 50 trace steps. */
  reinforceLr: 0.075,
  phiPeriod: 25,
  traceTail: 50,
} as const;

/** The fields TorusfieldEngine.from_capabilities creates; import_state keeps only these. */
const FIELDS = ['energy', 'memory', 'salience', 'context_energy'] as const;
/** bridge._KEYWORD_MAP (always built from the Aegis manifest) and bridge._CAP_NAMES, as the reference computed them. */
const KEYWORD_MAP: Readonly<Record<string, readonly string[]>> = aegis.keywordMap;
const AEGIS_CAPABILITIES: readonly string[] = aegis.capabilities;
const CAP_NAMES = new Set(AEGIS_CAPABILITIES);

export interface ScheduleEntry {
  port: string;
  magnitude: number;
  theta: number;
  phi: number;
  field?: string;
  period?: number;
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

/** A dead-end entry of ucs_index.json (`dead_end_entries`), as the bridge stores it. */
export interface DeadEndEntry {
  id?: string;
  date?: string;
  topic?: string;
  why_closed?: string;
  reopen_conditions?: string | null;
  capabilities?: string[];
  keywords?: string[];
}

export interface MethodologyEntry {
  keywords?: string[];
  capabilities?: string[];
}

/** What the bridge loads for an operation: the torus field state file plus the parts of the UCS index it reads. */
export interface SubstrateState {
  t: number;
  thetaBins: number;
  phiBins: number;
  fields: Record<string, number[]>;
  ports: Record<string, number>;
  nodes: string[];
  edges: EdgeParams[];
  edgeBias: Record<string, number>;
  cursor: { node: string; theta: number; phi: number };
  schedule: ScheduleEntry[];
  /** The trace tail (`trace.theta_tail`), oldest first. */
  trace: TraceStep[];
  /** ucs_index.json `report_counter`: reports since the last φ-cycle. */
  reportCounter: number;
  deadEnds: DeadEndEntry[];
  methodology: MethodologyEntry[];
}

const arr = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

/**
 * A substrate state from a torusfield_state.json document and (optionally) its ucs_index.json, read the way
 * TorusfieldEngine.import_state reads it: only the four kernel fields of the right size (others zero), ports, policy
 * biases, cursor, edge weights and the trace tail.
 */
export function substrateFromFiles(stateDoc: Json, indexDoc?: Json | null): SubstrateState {
  const s = stateDoc.state as Json;
  const thetaBins = s.theta_bins as number;
  const phiBins = s.phi_bins as number;
  const size = thetaBins * phiBins;
  const stored = (s.fields ?? {}) as Record<string, number[]>;
  const fields: Record<string, number[]> = {};
  for (const f of FIELDS) fields[f] = stored[f]?.length === size ? stored[f].slice() : new Array<number>(size).fill(0);
  const graph = (stateDoc.graph ?? {}) as Json;
  const cursor = (stateDoc.cursor ?? {}) as Json;
  const nodes = arr<string>(graph.nodes);
  return {
    t: s.t as number,
    thetaBins,
    phiBins,
    fields,
    ports: { ...((s.ports ?? {}) as Record<string, number>) },
    nodes,
    edges: arr<Json>(graph.edges).map((e) => ({
      src: e.src as string,
      dst: e.dst as string,
      u: e.u as number,
      c: e.c as number,
      n: e.n as number,
      w: (e.w as number | undefined) ?? 0,
    })),
    edgeBias: { ...(((stateDoc.policy as Json | undefined)?.edge_bias ?? {}) as Record<string, number>) },
    cursor: {
      node: typeof cursor.node === 'string' ? cursor.node : (nodes[0] ?? ''),
      theta: (cursor.theta as number | undefined) ?? 0,
      phi: (cursor.phi as number | undefined) ?? 0,
    },
    schedule: arr<ScheduleEntry>(stateDoc.injection_schedule),
    trace: arr<TraceStep>((stateDoc.trace as Json | undefined)?.theta_tail).map((x) => ({ ...x })),
    reportCounter: (indexDoc?.report_counter as number | undefined) ?? 0,
    deadEnds: arr<DeadEndEntry>(indexDoc?.dead_end_entries),
    methodology: arr<MethodologyEntry>(indexDoc?.methodology_entries),
  };
}

// ---------------------------------------------------------------- small helpers

const mod = (a: number, n: number) => ((a % n) + n) % n;

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

/** The words the bridge matches on: `re.findall(r"[a-z_]{3,}", text.lower())`, as a set. */
export function contextWords(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z_]{3,}/g) ?? []);
}

/** Capability → torus cell (TorusfieldEngine.node_coords: the injection schedule's cells, i.e. (i mod θ, 3i mod φ)). */
export function nodeCoords(state: Pick<SubstrateState, 'nodes' | 'schedule' | 'thetaBins' | 'phiBins'>) {
  const m = new Map<string, { theta: number; phi: number }>();
  for (const p of nodePositions(state.nodes, state.schedule, state.thetaBins, state.phiBins))
    m.set(p.name, { theta: p.theta, phi: p.phi });
  return m;
}

/** UCSBridge._cap_torus_pos: the node's cell, else its index in the Aegis manifest placed as (i mod θ, 3i mod φ). */
function capPosition(state: SubstrateState, coords: Map<string, { theta: number; phi: number }>, cap: string) {
  const c = coords.get(cap);
  if (c) return c;
  const i = Math.max(0, AEGIS_CAPABILITIES.indexOf(cap));
  return { theta: i % state.thetaBins, phi: (3 * i) % state.phiBins };
}

function injectAt(s: SubstrateState, port: string, magnitude: number, theta: number, phi: number, field: string) {
  s.ports[port] = (s.ports[port] ?? 0) + magnitude;
  const values = s.fields[field];
  if (!values) throw new Error(`no field ${field}`);
  const i = mod(theta, s.thetaBins) * s.phiBins + mod(phi, s.phiBins);
  values[i] = values[i]! + magnitude;
}

/** TorusfieldEngine._run_injections: every entry whose period divides t (or whose period is ≤ 0) injects once. */
function runInjections(s: SubstrateState) {
  for (const inj of s.schedule) {
    const period = inj.period ?? 1;
    if (period <= 0 || s.t % period === 0)
      injectAt(s, inj.port, inj.magnitude, inj.theta, inj.phi, inj.field ?? 'energy');
  }
}

/** TorusState.diffuse("energy") then TorusState.decay(leak_decay): every field but context_energy decays. */
function diffuseAndDecay(s: SubstrateState) {
  s.fields.energy = diffuse(s.fields.energy!, s.thetaBins, s.phiBins, FIELD_DEFAULTS.thetaMix, FIELD_DEFAULTS.phiMix);
  for (const name of Object.keys(s.fields))
    if (name !== 'context_energy') s.fields[name] = s.fields[name]!.map((v) => v * FIELD_DEFAULTS.decay);
}

function clone(s: Readonly<SubstrateState>): SubstrateState {
  const fields: Record<string, number[]> = {};
  for (const [k, v] of Object.entries(s.fields)) fields[k] = v.slice();
  return {
    ...s,
    fields,
    ports: { ...s.ports },
    edges: s.edges.map((e) => ({ ...e })),
    edgeBias: { ...s.edgeBias },
    cursor: { ...s.cursor },
    trace: s.trace.map((x) => ({ ...x })),
  };
}

// ---------------------------------------------------------------- context

/**
 * bridge.resolve_capabilities_from_context: explicit capabilities (Aegis names only), every keyword-map hit of the
 * context's words, and the capabilities of the last 20 methodology entries sharing a keyword with them; sorted.
 */
export function resolveCapabilities(
  state: Pick<SubstrateState, 'methodology'>,
  context: string,
  explicit?: readonly string[] | null,
): string[] {
  const caps = new Set<string>();
  for (const c of explicit ?? []) if (CAP_NAMES.has(c)) caps.add(c);
  const words = contextWords(context);
  for (const w of words) for (const c of KEYWORD_MAP[w] ?? []) caps.add(c);
  for (const entry of state.methodology.slice(-BRIDGE_DEFAULTS.recentMethodology)) {
    const kw = (entry.keywords ?? []).map((k) => k.toLowerCase());
    if (kw.some((k) => words.has(k))) for (const c of entry.capabilities ?? []) if (CAP_NAMES.has(c)) caps.add(c);
  }
  return [...caps].sort();
}

export interface ContextEnergy {
  /** The capabilities the context resolved to (and that were injected, where they have a cell). */
  capabilities: string[];
  /** The context_energy field after preparation (θ-major, like every field). */
  field: number[];
  /** The field read at every capability's cell, in node order. */
  energy: Record<string, number>;
  /** The `ctx_<capability>` port increments the injections add. */
  ports: Record<string, number>;
}

/**
 * Context energy as op_consult prepares it (TorusfieldEngine.prepare_context_energy): the context_energy field is
 * zeroed, 1.5 is injected at the cell of every resolved capability, the field diffuses 5 times (α_θ 0.06, α_φ 0.04),
 * and is read at every capability's cell. The field is not decayed by later steps.
 */
export function prepareContextEnergy(
  state: Readonly<SubstrateState>,
  context: string,
  opts: { capabilities?: readonly string[] | null } = {},
): ContextEnergy {
  const capabilities = resolveCapabilities(state, context, opts.capabilities);
  const coords = nodeCoords(state);
  let field = new Array<number>(state.thetaBins * state.phiBins).fill(0);
  const ports: Record<string, number> = {};
  for (const cap of capabilities) {
    const c = coords.get(cap);
    if (!c) continue;
    const port = `ctx_${cap}`;
    ports[port] = (ports[port] ?? 0) + BRIDGE_DEFAULTS.consultEnergyMagnitude;
    const i = mod(c.theta, state.thetaBins) * state.phiBins + mod(c.phi, state.phiBins);
    field[i] = field[i]! + BRIDGE_DEFAULTS.consultEnergyMagnitude;
  }
  for (let k = 0; k < BRIDGE_DEFAULTS.contextDiffusionSteps; k++)
    field = diffuse(field, state.thetaBins, state.phiBins, FIELD_DEFAULTS.thetaMix, FIELD_DEFAULTS.phiMix);
  const energy: Record<string, number> = {};
  for (const [name, c] of coords)
    energy[name] = field[mod(c.theta, state.thetaBins) * state.phiBins + mod(c.phi, state.phiBins)]!;
  return { capabilities, field, energy, ports };
}

// ---------------------------------------------------------------- dead ends

export interface DeadEndHit {
  entry: DeadEndEntry;
  /** The search score after temporal decay (what ranks the hits). */
  score: number;
  /** Words of the context found in the reopen conditions: the bridge's `_reopen_triggered`. */
  reopenTriggered: boolean;
  reopenMatched: string[];
}

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

/** Whole days from the entry's date to now (timedelta.days: floored), at least 0; null if the date does not parse. */
function ageDays(date: string, now: number): number | null {
  const at = entryDate(date);
  return at === null ? null : Math.max(Math.floor((now - at) / DAY), 0);
}

/**
 * AnnotationStore.search_dead_ends as op_consult calls it: score = 2·(shared keywords, lower-cased) + 3·(shared
 * capabilities); a context word in the reopen conditions flags the entry (and scores 1.5 per word when nothing else
 * matched); the score is divided by 1 + 0.01·(age in days) when the entry has a date; the 3 best (stable on ties).
 */
export function searchDeadEnds(
  state: Pick<SubstrateState, 'deadEnds'>,
  context: string,
  resolvedCapabilities: readonly string[],
  now: number = Date.now(),
): DeadEndHit[] {
  const words = contextWords(context);
  const caps = new Set(resolvedCapabilities);
  const hits: DeadEndHit[] = [];
  for (const entry of state.deadEnds) {
    const kw = new Set((entry.keywords ?? []).map((k) => k.toLowerCase()));
    let score = 2 * [...kw].filter((k) => words.has(k)).length;
    score += 3 * [...new Set(entry.capabilities ?? [])].filter((c) => caps.has(c)).length;
    const reopen = (entry.reopen_conditions ?? '').toLowerCase();
    let reopenMatched: string[] = [];
    if (context && reopen) {
      reopenMatched = [...contextWords(reopen)].filter((w) => words.has(w)).sort();
      if (reopenMatched.length && score <= 0) score = reopenMatched.length * 1.5;
    }
    if (score <= 0) continue;
    const age = typeof entry.date === 'string' && entry.date ? ageDays(entry.date, now) : null;
    if (age !== null && BRIDGE_DEFAULTS.temporalDecayRate > 0)
      score *= 1.0 / (1.0 + BRIDGE_DEFAULTS.temporalDecayRate * age);
    hits.push({ entry, score, reopenTriggered: reopenMatched.length > 0, reopenMatched });
  }
  return hits.sort((a, b) => b.score - a.score).slice(0, BRIDGE_DEFAULTS.maxDeadEndHits);
}

/**
 * UCSBridge._prepare_penalty_energy: per hit, its capabilities plus the keyword-map capabilities of its keywords (as
 * stored, case-sensitive), each counted once per hit: +1.0 per hit to every such capability that has a cell. The
 * routing subtracts ε·(this) with ε = Router.epsilon 0.75 (UCSConfig.penalty_weight is never read).
 */
export function penaltyEnergy(
  state: Pick<SubstrateState, 'nodes' | 'schedule' | 'thetaBins' | 'phiBins'>,
  hits: readonly DeadEndHit[],
): Record<string, number> {
  const coords = nodeCoords(state);
  const out: Record<string, number> = {};
  for (const { entry } of hits) {
    const caps = new Set(entry.capabilities ?? []);
    for (const kw of entry.keywords ?? []) for (const c of KEYWORD_MAP[kw] ?? []) caps.add(c);
    for (const c of caps) if (coords.has(c)) out[c] = (out[c] ?? 0) + 1.0;
  }
  return out;
}

/** The dead ends a context hits and the penalty energy they put on capabilities, as op_consult computes them. */
export function deadEndPenalties(
  state: Readonly<SubstrateState>,
  context: string,
  opts: { capabilities?: readonly string[] | null; now?: number | Date } = {},
): { hits: DeadEndHit[]; penalty: Record<string, number> } {
  const resolved = resolveCapabilities(state, context, opts.capabilities);
  const hits = searchDeadEnds(state, context, resolved, opts.now === undefined ? Date.now() : Number(opts.now));
  return { hits, penalty: penaltyEnergy(state, hits) };
}

// ---------------------------------------------------------------- routing

export interface RoutedPath extends ScoredEdge {
  /** α·u − β·c + γ·n + w + b (the bridge's base_score). */
  baseScore: number;
  /** δ·E_ctx at the destination (the bridge's `context_boost`). */
  contextBoost: number;
  /** ε·penalty at the destination, positive, as the bridge prints `penalty` (it is subtracted). */
  penalty: number;
  /** The values as the bridge prints them: score, context_boost, penalty to 4 decimals, components to 3. */
  printed: { score: number; contextBoost: number; penalty: number; components: Record<string, number> };
}

export interface RouteResult {
  cursor: string;
  resolvedCapabilities: string[];
  context: ContextEnergy;
  deadEnds: DeadEndHit[];
  /** Penalty energy per capability, before ε. */
  penaltyEnergy: Record<string, number>;
  /** Every outgoing edge of the cursor in the bridge's order (printed score descending, then edge order). */
  paths: RoutedPath[];
  /** The first 6: op_consult's `suggested_paths`. */
  suggested: RoutedPath[];
}

/**
 * The routing op_consult would advise for a context (UCSBridge.op_consult → _score_edges): every outgoing edge of the
 * cursor scored s = α·u − β·c + γ·n + w + b + δ·E_ctx(dst) − ε·penalty(dst), E_ctx from `prepareContextEnergy`, the
 * penalty from the dead ends the context hits. Probabilities are Router.pick's softmax over s / temperature (the
 * consult itself prints none). Ordered as the bridge orders them: by the score rounded to 4 decimals, stable.
 */
export function routeContext(
  state: Readonly<SubstrateState>,
  context: string,
  opts: { capabilities?: readonly string[] | null; now?: number | Date; params?: Partial<RoutingParams> } = {},
): RouteResult {
  const ctx = prepareContextEnergy(state, context, opts);
  const now = opts.now === undefined ? Date.now() : Number(opts.now);
  const deadEnds = searchDeadEnds(state, context, ctx.capabilities, now);
  const penalty = penaltyEnergy(state, deadEnds);
  const scored = scoreOutgoing(state.edges, state.cursor.node, {
    bias: state.edgeBias,
    contextEnergy: ctx.energy,
    penalty,
    params: opts.params,
  });
  const paths: RoutedPath[] = scored.map((s) => {
    const e = state.edges[s.edgeIndex]!;
    const { utility, cost, novelty, weight, bias, context: boost, penalty: pen } = s.parts;
    return {
      ...s,
      baseScore: utility + cost + novelty + weight + bias,
      contextBoost: boost,
      penalty: -pen,
      printed: {
        score: pyRound(s.score, 4),
        contextBoost: pyRound(boost, 4),
        penalty: pyRound(-pen, 4),
        components: {
          utility: pyRound(e.u, 3),
          cost: pyRound(-e.c, 3),
          weight: pyRound(e.w, 3),
          novelty: pyRound(e.n, 3),
          bias: pyRound(bias, 3),
          context_energy: pyRound(boost, 3),
          penalty: pyRound(-pen, 3),
        },
      },
    };
  });
  paths.sort((a, b) => b.printed.score - a.printed.score || a.edgeIndex - b.edgeIndex);
  return {
    cursor: state.cursor.node,
    resolvedCapabilities: ctx.capabilities,
    context: ctx,
    deadEnds,
    penaltyEnergy: penalty,
    paths,
    suggested: paths.slice(0, BRIDGE_DEFAULTS.advisoryTopN),
  };
}

// ---------------------------------------------------------------- φ-cycle

interface Harvested {
  kind: 'wormhole' | 'attractor' | 'resonance';
  edgeIndex?: number;
  node?: string;
  score: number;
}

function groupBy<K, V>(items: readonly TraceStep[], key: (s: TraceStep) => K, val: (s: TraceStep) => V) {
  const m = new Map<K, V[]>();
  for (const s of items) {
    const k = key(s);
    const list = m.get(k);
    if (list) list.push(val(s));
    else m.set(k, [val(s)]);
  }
  return m;
}

/**
 * Harvester.detect_all + validate over the trace: wormholes (edges with ≥ 6 hits and mean net ≥ 0.35, score
 * mean·ln(1 + hits)), attractors (destinations with > 15 % of the steps and ≥ 6 visits, score freq·ln(1 + visits)),
 * resonances (trace ≥ 20 steps; edges with ≥ 6 uses, mean interval ≥ 1, cv < 0.3, score (1 − cv)·ln(1 + uses)).
 */
function harvest(trace: readonly TraceStep[]): Harvested[] {
  const out: Harvested[] = [];
  for (const [edgeIndex, vals] of groupBy(
    trace,
    (s) => s.edge_index,
    (s) => s.reward - s.cost,
  )) {
    if (vals.length < 6) continue;
    const mean = vals.reduce((a, b) => a + b, 0) / vals.length;
    if (mean >= 0.35) out.push({ kind: 'wormhole', edgeIndex, score: mean * Math.log(1 + vals.length) });
  }
  const total = trace.length || 1;
  for (const [node, visits] of groupBy(
    trace,
    (s) => s.dst,
    () => 1,
  )) {
    const freq = visits.length / total;
    if (freq > 0.15 && visits.length >= 6)
      out.push({ kind: 'attractor', node, score: freq * Math.log(1 + visits.length) });
  }
  if (trace.length >= 20) {
    for (const [edgeIndex, times] of groupBy(
      trace,
      (s) => s.edge_index,
      (s) => s.t,
    )) {
      if (times.length < 4) continue;
      const intervals = times.slice(1).map((t, i) => t - times[i]!);
      const mean = intervals.reduce((a, b) => a + b, 0) / intervals.length;
      if (mean < 1) continue;
      const variance = intervals.reduce((a, iv) => a + (iv - mean) ** 2, 0) / intervals.length;
      const cv = mean > 0 ? Math.sqrt(variance) / mean : 999;
      if (cv < 0.3 && times.length >= 6)
        out.push({ kind: 'resonance', edgeIndex, score: (1.0 - cv) * Math.log(1 + times.length) });
    }
  }
  return out.filter((a) => a.score > 0);
}

const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

/**
 * The field-relevant part of TorusfieldEngine.step_phi: harvest, PolicyKernel.update (wormholes add their score,
 * capped at 5, to their edge's bias; attractors 0.3·score, capped at 2, to each outgoing edge; then every bias × 0.995,
 * dropped under 1e-6), and 0.15·(sum of scores) injected into `memory` at ((t÷25) mod θ, (2(t÷25) + 1) mod φ).
 * Artifacts, the PP vector and the φ log are not tracked here.
 */
function stepPhi(s: SubstrateState) {
  const arts = harvest(s.trace);
  for (const a of arts) {
    if (a.kind === 'wormhole') {
      const k = String(a.edgeIndex);
      s.edgeBias[k] = (s.edgeBias[k] ?? 0) + clamp(a.score, 0, 5);
    } else if (a.kind === 'attractor') {
      s.edges.forEach((e, i) => {
        if (e.src !== a.node) return;
        s.edgeBias[String(i)] = (s.edgeBias[String(i)] ?? 0) + clamp(a.score * 0.3, 0, 2);
      });
    }
  }
  for (const k of Object.keys(s.edgeBias)) {
    s.edgeBias[k] = s.edgeBias[k]! * 0.995;
    if (Math.abs(s.edgeBias[k]) < 1e-6) delete s.edgeBias[k];
  }
  const mass = arts.reduce((a, x) => a + x.score, 0);
  if (mass > 0 && s.fields.memory) {
    const cycle = Math.floor(s.t / BRIDGE_DEFAULTS.phiPeriod);
    injectAt(s, 'artifact_mass', 0.15 * mass, cycle % s.thetaBins, (2 * cycle + 1) % s.phiBins, 'memory');
  }
}

// ---------------------------------------------------------------- steps

/** One bridge tick: what the agent consults with and what it reports. */
export interface SimStep {
  context?: string;
  capabilities?: readonly string[] | null;
  /**
   * The capability reported. Omitted: the first suggested path of this step's consult (an agent following the
   * advice). `null`: no report (consult only; t does not advance). A name outside the manifest is what the bridge
   * does with it: logged, nothing else, t does not advance.
   */
  action?: string | null;
  /** success | partial | neutral | failure (others reward as neutral); default neutral, as op_report's. */
  success?: string;
}

export interface StepOutcome {
  state: SubstrateState;
  route: RouteResult;
  action: string | null;
  /** Whether the report reinforced a direct edge from the cursor (false: a jump, logged as a policy override). */
  routed: boolean;
}

/**
 * One bridge tick from `state` (op_consult then op_report):
 *  consult: prepare the context energy; then 15 × (diffuse energy, decay every field but context_energy, run the
 *    injection schedule at the current t — t does not change, so each entry fires all 15 times or none);
 *  report (an Aegis capability): reinforce the direct edge from the cursor if any (reward 0.7·base + 0.3·u, cost c,
 *    w ← clamp(w + 0.075·(reward − cost − 0.5), ±2.5), trace step at t), inject 1.0 at the action's cell, diffuse,
 *    decay, run the schedule at t, move the cursor, t + 1, and every 5th report a φ-cycle; the saved trace keeps 50.
 */
export function simulateStep(
  state: Readonly<SubstrateState>,
  step: SimStep = {},
  opts: { now?: number | Date } = {},
): StepOutcome {
  const s = clone(state);
  const context = step.context ?? '';
  const route = routeContext(state, context, { capabilities: step.capabilities, now: opts.now });
  s.fields.context_energy = route.context.field.slice();
  for (const [port, v] of Object.entries(route.context.ports)) s.ports[port] = (s.ports[port] ?? 0) + v;
  for (let k = 0; k < BRIDGE_DEFAULTS.consultWarmupSteps; k++) {
    diffuseAndDecay(s);
    runInjections(s);
  }
  const action = step.action === undefined ? (route.paths[0]?.to ?? null) : step.action;
  let routed = false;
  if (action !== null && CAP_NAMES.has(action)) {
    const eidx = s.edges.findIndex((e) => e.src === s.cursor.node && e.dst === action);
    if (eidx >= 0) {
      routed = true;
      const edge = s.edges[eidx]!;
      const base = BRIDGE_DEFAULTS.rewardBase[step.success ?? 'neutral'] ?? 0.3;
      const blend = BRIDGE_DEFAULTS.rewardEdgeBlend;
      const reward = (1.0 - blend) * base + blend * edge.u;
      const cost = edge.c * 1.0;
      edge.w = clamp(edge.w + BRIDGE_DEFAULTS.reinforceLr * (reward - cost - 0.5), -2.5, 2.5);
      s.trace.push({ t: s.t, src: edge.src, dst: edge.dst, edge_index: eidx, reward, cost, novelty: edge.n });
    }
    const pos = capPosition(s, nodeCoords(s), action);
    injectAt(s, `action_${action}`, BRIDGE_DEFAULTS.reportEnergyMagnitude, pos.theta, pos.phi, 'energy');
    diffuseAndDecay(s);
    runInjections(s);
    s.cursor = { node: action, theta: pos.theta, phi: pos.phi };
    s.t += 1;
    s.reportCounter += 1;
    if (s.reportCounter >= BRIDGE_DEFAULTS.phiReportInterval) {
      s.reportCounter = 0;
      stepPhi(s);
    }
  }
  s.trace = s.trace.slice(-BRIDGE_DEFAULTS.traceTail);
  return { state: s, route, action, routed };
}

/**
 * The state after n bridge ticks (see `simulateStep`), step k following `steps[k]` (default: consult with no
 * context, report the first suggested path as neutral). This is what the reference does to the state files when an
 * agent runs n consult/report cycles; the stored snapshots of a bridge workspace are t apart by as many ticks.
 */
export function simulateSteps(
  state: Readonly<SubstrateState>,
  n: number,
  opts: { steps?: readonly SimStep[]; now?: number | Date } = {},
): SubstrateState {
  let s: Readonly<SubstrateState> = state;
  for (let k = 0; k < n; k++) s = simulateStep(s, opts.steps?.[k] ?? {}, opts).state;
  return s === state ? clone(state) : (s as SubstrateState);
}

// ---------------------------------------------------------------- stored consult outputs

/** A suggested path as op_consult prints it. */
export interface PrintedPath {
  to: string;
  score: number;
  context_boost?: number;
  penalty?: number;
  components?: Record<string, number>;
}

/**
 * The weighted terms of a printed consult path, summing to its printed score up to the printing's rounding. The
 * bridge's `components` mix raw edge parameters (utility u, cost −c, novelty n, weight w, bias b) with terms already
 * weighted (context_energy = δ·E_ctx, penalty = ε·penalty): only the raw ones take α, β, γ here, and the penalty is
 * subtracted as printed (weighting it by ε again misses the score by up to ε(1 − ε)·penalty).
 */
export function printedPathParts(path: PrintedPath, params: Partial<RoutingParams> = {}): ScoredEdge['parts'] {
  const p = { ...ROUTING_DEFAULTS, ...params };
  const m = path.components ?? {};
  return {
    utility: p.alpha * (m.utility ?? 0),
    cost: p.beta * (m.cost ?? 0),
    novelty: p.gamma * (m.novelty ?? 0),
    weight: m.weight ?? 0,
    bias: m.bias ?? 0,
    context: path.context_boost ?? m.context_energy ?? 0,
    penalty: -(path.penalty ?? m.penalty ?? 0),
  };
}
