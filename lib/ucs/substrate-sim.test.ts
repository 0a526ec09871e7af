import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { step } from './dynamics';
import { entryDate, pyRound, type TraceStep } from './reference';
import { referenceDeadEnd } from './reopen';
import {
  printedPathParts,
  printedSuggestions,
  routeContext,
  simulateStep,
  simulateSteps,
  substrateFromFiles,
  type SimStep,
  type SubstrateState,
} from './substrate-sim';
import { ROUTING_DEFAULTS } from './routing';

type Json = Record<string, unknown>;
type Nums = Record<string, number>;
interface PrintedPath {
  to: string;
  edge_index: number;
  score: number;
  context_boost: number;
  penalty: number;
  components: Nums;
  annotation: unknown;
}
/** Figures recorded by running the reference (see each file's provenance). */
interface DynamicsFixture {
  scenarios: {
    name: string;
    steps: (SimStep & { actionTaken: string | null })[];
    checkpoints: {
      n: number;
      t: number;
      cursor: SubstrateState['cursor'];
      reportCounter: number;
      fields: Record<string, number[]>;
      ports: Nums;
      edgeBias: Nums;
      weights: number[];
      trace: TraceStep[];
    }[];
  }[];
}
interface RoutingFixture {
  now: string;
  augmentedDeadEnds: Json[];
  dateParsing: { date: string; parsed: string | null }[];
  cases: {
    input: { context: string; capabilities?: string[]; index?: string };
    printed: {
      cursor: string;
      resolved_capabilities: string[];
      suggested_paths: PrintedPath[];
      dead_ends: { topic: string; reopen_triggered: boolean; reopen_matched: string[] }[];
      penalty_applied: Nums;
      context_boosted: Nums;
    };
    contextEnergy: Nums;
    contextField: number[];
    contextPorts: Nums;
    deadEndHits: { id: string; reopenTriggered: boolean; reopenMatched: string[] }[];
    penaltyEnergy: Nums;
    paths: {
      to: string;
      edgeIndex: number;
      score: number;
      contextBoost: number;
      penalty: number;
      components: Nums;
      probability: number;
    }[];
  }[];
}

const dir = path.join(import.meta.dirname, '../../server/demo/ucs-workspace');
const read = (f: string) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Json;
const fixture = <T>(f: string) => JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', f), 'utf8')) as T;
const dynamics = fixture<DynamicsFixture>('reference-dynamics.json');
const routing = fixture<RoutingFixture>('reference-routing.json');
const stateDoc = read('ucs/state/torusfield_state.json');
const indexDoc = read('ucs/state/ucs_index.json');
const start = substrateFromFiles(stateDoc, indexDoc);
const now = Date.parse(routing.now);

/** The largest |a − b| / max(|b|, 1e-300) over two lists (0 when equal, also at zeros). */
function relDev(a: readonly number[], b: readonly number[]): number {
  expect(a.length).toBe(b.length);
  let worst = 0;
  a.forEach((x, i) => {
    const y = b[i]!;
    if (x !== y) worst = Math.max(worst, Math.abs(x - y) / Math.max(Math.abs(y), 1e-300));
  });
  return worst;
}
function expectMapClose(got: Readonly<Record<string, number>>, want: Readonly<Record<string, number>>) {
  expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
  const keys = Object.keys(want);
  expect(
    relDev(
      keys.map((k) => got[k]!),
      keys.map((k) => want[k]!),
    ),
  ).toBeLessThanOrEqual(1e-9);
}

describe('simulateSteps against the reference bridge (op_consult + op_report ticks)', () => {
  for (const scenario of dynamics.scenarios) {
    it(`${scenario.name}: fields, ports, weights, biases, trace and cursor after 1, 5 and 35 steps`, () => {
      let s: SubstrateState = start;
      const marks = new Map(scenario.checkpoints.map((c) => [c.n, c]));
      let worst = 0;
      scenario.steps.forEach((raw, k) => {
        const { actionTaken, ...step } = raw;
        const out = simulateStep(s, step, { now });
        expect(out.action).toBe(actionTaken);
        s = out.state;
        const want = marks.get(k + 1);
        if (!want) return;
        expect(s.t).toBe(want.t);
        expect(s.cursor).toEqual(want.cursor);
        expect(s.reportCounter).toBe(want.reportCounter);
        for (const [name, values] of Object.entries(want.fields))
          worst = Math.max(worst, relDev(s.fields[name]!, values));
        expectMapClose(s.ports, want.ports);
        expectMapClose(s.edgeBias, want.edgeBias);
        worst = Math.max(
          worst,
          relDev(
            s.edges.map((e) => e.w),
            want.weights,
          ),
        );
        expect(s.trace.map((x) => [x.t, x.edge_index])).toEqual(want.trace.map((x) => [x.t, x.edge_index]));
        worst = Math.max(
          worst,
          relDev(
            s.trace.flatMap((x) => [x.reward, x.cost]),
            want.trace.flatMap((x) => [x.reward, x.cost]),
          ),
        );
      });
      expect(worst).toBeLessThanOrEqual(1e-9);
    });
  }

  it('is pure and n steps of simulateSteps are n ticks of simulateStep', () => {
    const before = JSON.stringify(start);
    const five = simulateSteps(start, 5, { now });
    expect(JSON.stringify(start)).toBe(before);
    let s: SubstrateState = start;
    for (let k = 0; k < 5; k++) s = simulateStep(s, {}, { now }).state;
    expect(five).toEqual(s);
    expect(simulateSteps(start, 0)).toEqual(start);
  });

  it('the old preview (one diffusion + decay per step, no injections) misses the reference by far', () => {
    const want = dynamics.scenarios[0]!.checkpoints.find((c) => c.n === 35)!.fields.energy!;
    let old = start.fields.energy!;
    for (let k = 0; k < 35; k++) old = step({ energy: old }, start.thetaBins, start.phiBins).energy!;
    expect(Math.max(...old.map((v, i) => Math.abs(v - want[i]!)))).toBeGreaterThan(5);
  });
});

describe('simulateSteps against the stored snapshots of the demo workspace', () => {
  const actions = readFileSync(path.join(dir, 'ucs/state/action_log.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: number; action: string; success: string });
  const snapshot = (k: number) => read(`snapshots/torusfield_state.${String(k).padStart(5, '0')}.json`);
  const ks = [0, 20, 40, 60, 80, 100, 120, 140, 160, 180, 200, 220, 240, 260, 280, 300, 320, 340, 360, 380, 399];

  it('replaying the action log from each snapshot reproduces the next (energy, memory, salience, biases)', () => {
    // Every report advanced t, and the index's counter was 0 at t = last_phi_t, so it is (t − last_phi_t) mod 5.
    const lastPhi = indexDoc.last_phi_t as number;
    let worst = 0;
    for (let j = 0; j + 1 < ks.length; j++) {
      const from = substrateFromFiles(snapshot(ks[j]!), indexDoc);
      from.reportCounter = (((from.t - lastPhi) % 5) + 5) % 5;
      const to = substrateFromFiles(snapshot(ks[j + 1]!), indexDoc);
      const steps = actions
        .filter((a) => a.t > from.t && a.t <= to.t)
        .map((a) => ({ action: a.action, success: a.success }));
      const got = simulateSteps(from, steps.length, { steps, now });
      expect(got.t).toBe(to.t);
      expect(got.cursor).toEqual(to.cursor);
      for (const f of ['energy', 'memory', 'salience']) worst = Math.max(worst, relDev(got.fields[f]!, to.fields[f]!));
      expectMapClose(got.edgeBias, to.edgeBias);
      worst = Math.max(
        worst,
        relDev(
          got.edges.map((e) => e.w),
          to.edges.map((e) => e.w),
        ),
      );
    }
    expect(worst).toBeLessThanOrEqual(1e-9);
  });
});

describe('routeContext against the reference consult', () => {
  const augmented: SubstrateState = {
    ...start,
    deadEnds: [...start.deadEnds, ...routing.augmentedDeadEnds.map(referenceDeadEnd)],
  };

  for (const c of routing.cases) {
    const input = c.input;
    it(`“${input.context}”${input.index ? ` (${input.index} index)` : ''}`, () => {
      const state = input.index === 'augmented' ? augmented : start;
      const r = routeContext(state, input.context, { capabilities: input.capabilities, now });
      const printed = c.printed;
      expect(r.cursor).toBe(printed.cursor);
      expect(r.resolvedCapabilities).toEqual(printed.resolved_capabilities);
      // Context energy: the prepared field and the values at the capabilities.
      expect(relDev(r.context.field, c.contextField)).toBeLessThanOrEqual(1e-9);
      const boosted = Object.fromEntries(Object.entries(r.context.energy).filter(([, v]) => v > 0.01));
      expectMapClose(boosted, c.contextEnergy);
      expect(Object.fromEntries(Object.entries(boosted).map(([k, v]) => [k, pyRound(v, 4)]))).toEqual(
        printed.context_boosted,
      );
      // The ctx_ ports the consult leaves: those already there plus this consult's injections.
      const ports = Object.fromEntries(
        Object.keys({ ...c.contextPorts, ...r.context.ports }).map((k) => [
          k,
          (state.ports[k] ?? 0) + (r.context.ports[k] ?? 0),
        ]),
      );
      expectMapClose(ports, c.contextPorts);
      // Dead ends: which, in which order, reopen flags, and the penalty energy they put on capabilities.
      expect(r.deadEnds.map((h) => [h.deadEnd.id, h.reopenTriggered, h.reopenMatched])).toEqual(
        c.deadEndHits.map((h) => [h.id, h.reopenTriggered, h.reopenMatched]),
      );
      expect(r.deadEnds.map((h) => [h.deadEnd.topic, h.reopenTriggered, h.reopenMatched])).toEqual(
        printed.dead_ends.map((d) => [d.topic, d.reopen_triggered, d.reopen_matched]),
      );
      expectMapClose(r.penaltyEnergy, c.penaltyEnergy);
      const applied = Object.entries(r.penaltyEnergy).filter(([, v]) => v > 0.01);
      expect(Object.fromEntries(applied.map(([k, v]) => [k, pyRound(v, 4)]))).toEqual(printed.penalty_applied);
      // Every candidate: order, score terms, probability.
      expect(r.paths.map((p) => [p.to, p.edgeIndex])).toEqual(c.paths.map((p) => [p.to, p.edgeIndex]));
      const flat = (ps: readonly { score: number; contextBoost: number; penalty: number; probability: number }[]) =>
        ps.flatMap((p) => [p.score, p.contextBoost, p.penalty, p.probability]);
      expect(relDev(flat(r.paths), flat(c.paths))).toBeLessThanOrEqual(1e-9);
      r.paths.forEach((p, k) => {
        const comp = c.paths[k]!.components;
        expect(p.baseScore + p.contextBoost - p.penalty).toBeCloseTo(p.score, 12);
        expect(p.parts.context).toBe(p.contextBoost);
        expect(p.parts.penalty).toBe(-p.penalty);
        expect(p.penalty).toBe(comp.penalty);
        expect(p.parts.utility).toBe(ROUTING_DEFAULTS.alpha * comp.utility!);
      });
      // The printed advisory, to the digit.
      expect(printedSuggestions(r)).toEqual(printed.suggested_paths.map(({ annotation: _a, ...p }) => p));
    });
  }

  it('parses dead-end dates as Python 3.11 fromisoformat does', () => {
    for (const d of routing.dateParsing) {
      const at = entryDate(d.date);
      expect(at === null ? null : new Date(at).toISOString().replace('.000Z', '+00:00')).toBe(d.parsed);
    }
  });

  it('rounds like Python round()', () => {
    expect(pyRound(0.03125, 4)).toBe(0.0312);
    expect(pyRound(0.09375, 4)).toBe(0.0938);
    expect(pyRound(-0.03125, 4)).toBe(-0.0312);
    expect(pyRound(2.675, 2)).toBe(2.67);
    expect(pyRound(1.00005, 4)).toBe(1.0001);
  });
});

describe('stored consult bars (ε is already in the printed penalty)', () => {
  const samples = JSON.parse(readFileSync(path.join(dir, 'consult_samples.json'), 'utf8')) as {
    consult: { suggested_paths: { to: string; score: number; penalty: number; components: Record<string, number> }[] };
  }[];
  const paths = samples.flatMap((s) => s.consult.suggested_paths);
  const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);

  it('the bars of every stored path add up to its printed score (to the printing’s rounding)', () => {
    expect(paths.some((p) => p.penalty > 0)).toBe(true);
    for (const p of paths) expect(Math.abs(sum(printedPathParts(p)) - p.score)).toBeLessThanOrEqual(0.002);
  });

  it('weighting the printed penalty by ε again (the old bars) misses penalised scores', () => {
    const old = (p: (typeof paths)[number]) => ({
      ...printedPathParts(p),
      penalty: -ROUTING_DEFAULTS.epsilon * p.penalty,
    });
    const misses = paths.filter((p) => p.penalty > 0).map((p) => Math.abs(sum(old(p)) - p.score));
    expect(Math.max(...misses)).toBeGreaterThan(0.1);
  });
});
