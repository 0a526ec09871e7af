/**
 * The UCS substrate run forward and consulted exactly as the reference runs it (github.com/KyleMillion/
 * unified-cognitive-substrate at bc0cd59, src/bridge.py and src/torusfield_kernel.py):
 *  - one step is one bridge tick, `UCSBridge.op_consult` then `UCSBridge.op_report`: 16 energy diffusions, 16 rounds
 *    of the injection schedule (all at the same t), 16 decays, the reported action's injection, a φ-cycle every 5th
 *    report, and t + 1;
 *  - `routeContext` is what `op_consult` advises for a context: resolved capabilities, context energy, dead ends with
 *    their reopen flags (reopen.ts `referenceReopen`), and every outgoing edge of the cursor scored with its context
 *    boost and dead-end penalty.
 * Everything is pure: states come in and new states go out. Only the dead ends' temporal decay reads a clock, and
 * `now` can be given. The shared rules are in reference.ts and phi-cycle.ts.
 */
import { diffuse, FIELD_DEFAULTS, step as fieldStep } from './dynamics';
import { nodePositions } from './field';
import { phiCycle } from './phi-cycle';
import {
  AEGIS_VOCABULARY,
  edgeBiasOf,
  edgesOf,
  learnFromReport,
  nodesOf,
  pyRound,
  REFERENCE_RULES,
  traceOf,
  type MethodologyLike,
  type TraceStep,
} from './reference';
import {
  referenceDeadEnd,
  referenceReopen,
  type ReferenceDeadEnd,
  type ReferenceReopenMatch,
  type ReferenceReopenVerdict,
  type StoredDeadEnd,
} from './reopen';
import { ROUTING_DEFAULTS, scoreOutgoing, type EdgeParams, type RoutingParams, type ScoredEdge } from './routing';
import { splitUcsState, type UcsStateParts } from './state';

type Json = Record<string, unknown>;

/** The fields TorusfieldEngine.from_capabilities creates; import_state keeps only these. */
const FIELDS = ['energy', 'memory', 'salience', 'context_energy'] as const;
const CAP_NAMES = new Set(AEGIS_VOCABULARY.capabilityNames);

export interface ScheduleEntry {
  port: string;
  magnitude: number;
  theta: number;
  phi: number;
  field?: string;
  period?: number;
}

/** The parts of ucs_index.json the bridge reads when it consults and reports. */
export interface BridgeIndex {
  /** `report_counter`: reports since the last φ-cycle. */
  reportCounter: number;
  /** `last_phi_t`: the t of the last φ-cycle (null when the index does not say). */
  lastPhiT: number | null;
  /** `dead_end_entries`, in the index's order (an entry listed twice is here twice). */
  deadEnds: StoredDeadEnd[];
  /** `methodology_entries`, as far as capability resolution reads them, in order. */
  methodology: MethodologyLike[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The parts of a ucs_index.json document the bridge reads (an absent document reads as an empty index). */
export function bridgeIndexOf(doc: Json | null | undefined): BridgeIndex {
  const list = (v: unknown) => (Array.isArray(v) ? v.filter(isObj) : []);
  return {
    reportCounter: typeof doc?.report_counter === 'number' ? doc.report_counter : 0,
    lastPhiT: typeof doc?.last_phi_t === 'number' ? doc.last_phi_t : null,
    deadEnds: list(doc?.dead_end_entries).map(referenceDeadEnd),
    methodology: list(doc?.methodology_entries).map((m) => ({
      capabilities: strings(m.capabilities),
      keywords: strings(m.keywords),
    })),
  };
}

/**
 * The report counter at a stored state of step t: the index's own at the latest state; at an older one, the reports
 * since the last φ-cycle before it, as every report advances t and φ-cycles ran at last_phi_t, last_phi_t − 5, …
 */
export function reportCounterAt(index: Pick<BridgeIndex, 'reportCounter' | 'lastPhiT'>, t: number, latestT: number) {
  if (t === latestT || index.lastPhiT === null) return index.reportCounter;
  const n = REFERENCE_RULES.phiReportInterval;
  return (((t - index.lastPhiT) % n) + n) % n;
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
  deadEnds: ReferenceDeadEnd[];
  methodology: MethodologyLike[];
}

/** The columns of a stored state a substrate state is made of (state.ts `UcsStateParts`, a `ucs_snapshots` row). */
export type SubstrateParts = Pick<
  UcsStateParts,
  't' | 'thetaBins' | 'phiBins' | 'fields' | 'ports' | 'graph' | 'policy' | 'cursor' | 'injectionSchedule' | 'trace'
>;

/**
 * A substrate state from a stored state's parts and the index, read the way TorusfieldEngine.import_state reads a
 * state file: only the four kernel fields of the right size (others zero), ports, policy biases, cursor, edge
 * weights and the trace tail.
 */
export function substrateFromParts(parts: SubstrateParts, index?: Partial<BridgeIndex> | null): SubstrateState {
  const { thetaBins, phiBins } = parts;
  const size = thetaBins * phiBins;
  const stored = parts.fields ?? {};
  const fields: Record<string, number[]> = {};
  for (const f of FIELDS) fields[f] = stored[f]?.length === size ? stored[f].slice() : new Array<number>(size).fill(0);
  const nodes = nodesOf(parts.graph);
  const cursor = parts.cursor ?? {};
  return {
    t: parts.t,
    thetaBins,
    phiBins,
    fields,
    ports: { ...(parts.ports ?? {}) },
    nodes,
    edges: edgesOf(parts.graph),
    edgeBias: edgeBiasOf(parts.policy),
    cursor: {
      node: typeof cursor.node === 'string' ? cursor.node : (nodes[0] ?? ''),
      theta: typeof cursor.theta === 'number' ? cursor.theta : 0,
      phi: typeof cursor.phi === 'number' ? cursor.phi : 0,
    },
    schedule: (parts.injectionSchedule ?? []).filter(isObj) as unknown as ScheduleEntry[],
    trace: traceOf(parts.trace),
    reportCounter: index?.reportCounter ?? 0,
    deadEnds: index?.deadEnds ?? [],
    methodology: index?.methodology ?? [],
  };
}

/** A substrate state from a torusfield_state.json document and (optionally) its ucs_index.json. */
export function substrateFromFiles(stateDoc: Json, indexDoc?: Json | null): SubstrateState {
  return substrateFromParts(splitUcsState(stateDoc), indexDoc ? bridgeIndexOf(indexDoc) : null);
}

// ---------------------------------------------------------------- small helpers

const mod = (a: number, n: number) => ((a % n) + n) % n;

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
  const i = Math.max(0, AEGIS_VOCABULARY.capabilityNames.indexOf(cap));
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
 * Context energy as op_consult prepares it (TorusfieldEngine.prepare_context_energy) for capabilities already
 * resolved: the context_energy field is zeroed, 1.5 is injected at the cell of every capability, the field diffuses
 * 5 times (α_θ 0.06, α_φ 0.04), and is read at every capability's cell. The field is not decayed by later steps.
 */
export function prepareContextEnergy(
  state: Pick<SubstrateState, 'nodes' | 'schedule' | 'thetaBins' | 'phiBins'>,
  capabilities: readonly string[],
): ContextEnergy {
  const R = REFERENCE_RULES;
  const coords = nodeCoords(state);
  let field = new Array<number>(state.thetaBins * state.phiBins).fill(0);
  const ports: Record<string, number> = {};
  for (const cap of capabilities) {
    const c = coords.get(cap);
    if (!c) continue;
    const port = `ctx_${cap}`;
    ports[port] = (ports[port] ?? 0) + R.consultEnergyMagnitude;
    const i = mod(c.theta, state.thetaBins) * state.phiBins + mod(c.phi, state.phiBins);
    field[i] = field[i]! + R.consultEnergyMagnitude;
  }
  for (let k = 0; k < R.contextDiffusionSteps; k++)
    field = diffuse(field, state.thetaBins, state.phiBins, FIELD_DEFAULTS.thetaMix, FIELD_DEFAULTS.phiMix);
  const energy: Record<string, number> = {};
  for (const [name, c] of coords)
    energy[name] = field[mod(c.theta, state.thetaBins) * state.phiBins + mod(c.phi, state.phiBins)]!;
  return { capabilities: [...capabilities], field, energy, ports };
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
  /** The dead-end search: every match, the returned ones, the penalty they put on capabilities. */
  verdict: ReferenceReopenVerdict<ReferenceDeadEnd>;
  /** The dead ends consult returns (the verdict's top 3), with their reopen flags. */
  deadEnds: ReferenceReopenMatch<ReferenceDeadEnd>[];
  /** Penalty energy per capability, before ε (the verdict's). */
  penaltyEnergy: Record<string, number>;
  /** Every outgoing edge of the cursor in the bridge's order (printed score descending, then edge order). */
  paths: RoutedPath[];
  /** The first 6: op_consult's `suggested_paths`. */
  suggested: RoutedPath[];
}

/**
 * The routing op_consult would advise for a context (UCSBridge.op_consult → _score_edges): capabilities resolved
 * from the context (with the index's recent methodology), every outgoing edge of the cursor scored
 * s = α·u − β·c + γ·n + w + b + δ·E_ctx(dst) − ε·penalty(dst), E_ctx from `prepareContextEnergy`, the penalty from
 * the dead ends `referenceReopen` returns. Probabilities are Router.pick's softmax over s / temperature (the consult
 * itself prints none). Ordered as the bridge orders them: by the score rounded to 4 decimals, stable.
 */
export function routeContext(
  state: Readonly<SubstrateState>,
  context: string,
  opts: { capabilities?: readonly string[] | null; now?: number | Date; params?: Partial<RoutingParams> } = {},
): RouteResult {
  const verdict = referenceReopen(context, state.deadEnds, {
    now: opts.now === undefined ? Date.now() : Number(opts.now),
    methodology: state.methodology,
    explicitCapabilities: opts.capabilities,
    nodes: [...nodeCoords(state).keys()],
    penaltyWeight: opts.params?.epsilon,
  });
  const ctx = prepareContextEnergy(state, verdict.resolvedCapabilities);
  const penalty = verdict.penaltyEnergy;
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
    resolvedCapabilities: verdict.resolvedCapabilities,
    context: ctx,
    verdict,
    deadEnds: verdict.returned,
    penaltyEnergy: penalty,
    paths,
    suggested: paths.slice(0, REFERENCE_RULES.advisoryTopN),
  };
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
  /** Whether the report ran a φ-cycle. */
  phi: boolean;
}

/**
 * One bridge tick from `state` (op_consult then op_report):
 *  consult: prepare the context energy; then 15 × (diffuse energy, decay every field but context_energy, run the
 *    injection schedule at the current t — t does not change, so each entry fires all 15 times or none);
 *  report (an Aegis capability): op_report's learning rule (reference.ts `learnFromReport`: reinforce the direct edge
 *    from the cursor, if any, and trace it at t), inject 1.0 at the action's cell, diffuse, decay, run the schedule
 *    at t, move the cursor, t + 1, and every 5th report a φ-cycle (phi-cycle.ts: harvest, policy bias, and 0.15 × the
 *    harvested score into the memory field); the saved trace keeps 50.
 */
export function simulateStep(
  state: Readonly<SubstrateState>,
  step: SimStep = {},
  opts: { now?: number | Date } = {},
): StepOutcome {
  const R = REFERENCE_RULES;
  const s = clone(state);
  const route = routeContext(state, step.context ?? '', { capabilities: step.capabilities, now: opts.now });
  s.fields.context_energy = route.context.field.slice();
  for (const [port, v] of Object.entries(route.context.ports)) s.ports[port] = (s.ports[port] ?? 0) + v;
  const tick = () => {
    s.fields = fieldStep(s.fields, s.thetaBins, s.phiBins);
    runInjections(s);
  };
  for (let k = 0; k < R.consultWarmupSteps; k++) tick();
  const action = step.action === undefined ? (route.paths[0]?.to ?? null) : step.action;
  let routed = false;
  let phi = false;
  if (action !== null && CAP_NAMES.has(action)) {
    const learned = learnFromReport(s.edges, s.cursor.node, action, step.success, s.t);
    routed = learned.routed;
    if (learned.step) s.trace.push(learned.step);
    const pos = capPosition(s, nodeCoords(s), action);
    injectAt(s, `action_${action}`, R.reportEnergyMagnitude, pos.theta, pos.phi, 'energy');
    tick();
    s.cursor = { node: action, theta: pos.theta, phi: pos.phi };
    s.t += 1;
    s.reportCounter += 1;
    if (s.reportCounter >= R.phiReportInterval) {
      s.reportCounter = 0;
      phi = true;
      const { mass } = phiCycle(s.trace, s.t, s.edges, s.edgeBias);
      if (mass > 0 && s.fields.memory) {
        const cycle = Math.floor(s.t / R.phiPeriod);
        const at = [cycle % s.thetaBins, (2 * cycle + 1) % s.phiBins] as const;
        injectAt(s, 'artifact_mass', R.artifactMassShare * mass, at[0], at[1], 'memory');
      }
    }
  }
  s.trace = s.trace.slice(-R.traceTail);
  return { state: s, route, action, routed, phi };
}

export interface SimulatedRun {
  state: SubstrateState;
  /** Per tick: the action reported (null: none), whether along an edge, whether a φ-cycle ran. */
  ticks: { action: string | null; routed: boolean; phi: boolean }[];
}

/**
 * n bridge ticks from `state` (see `simulateStep`), tick k following `steps[k]`, else `step` (default: consult with
 * no context, report the first suggested path as neutral). This is what the reference does to the state files when
 * an agent runs n consult/report cycles; the stored snapshots of a bridge workspace are t apart by as many ticks.
 */
export function simulateTicks(
  state: Readonly<SubstrateState>,
  n: number,
  opts: { steps?: readonly SimStep[]; step?: SimStep; now?: number | Date } = {},
): SimulatedRun {
  let s: Readonly<SubstrateState> = state;
  const ticks: SimulatedRun['ticks'] = [];
  for (let k = 0; k < n; k++) {
    const out = simulateStep(s, opts.steps?.[k] ?? opts.step ?? {}, opts);
    ticks.push({ action: out.action, routed: out.routed, phi: out.phi });
    s = out.state;
  }
  return { state: s === state ? clone(state) : (s as SubstrateState), ticks };
}

/** The state after n bridge ticks (`simulateTicks`). */
export function simulateSteps(
  state: Readonly<SubstrateState>,
  n: number,
  opts: { steps?: readonly SimStep[]; step?: SimStep; now?: number | Date } = {},
): SubstrateState {
  return simulateTicks(state, n, opts).state;
}

/** The suggested paths of a route as op_consult prints them (its `suggested_paths` without the annotation). */
export function printedSuggestions(r: Pick<RouteResult, 'suggested'>) {
  return r.suggested.map((p) => ({
    to: p.to,
    edge_index: p.edgeIndex,
    score: p.printed.score,
    context_boost: p.printed.contextBoost,
    penalty: p.printed.penalty,
    components: p.printed.components,
  }));
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
