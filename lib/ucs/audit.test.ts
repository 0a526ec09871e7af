import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  advisoryDifferentiation,
  auditWorkspace,
  differentiationAt,
  summarizeAudit,
  replayReports,
  sampleAdvisory,
  type AuditAction,
  type AuditState,
  type ConsultSampleLike,
} from './audit';
import { actionRow } from './ingest-rows';
import reference from './fixtures/reference-audit.json';
import { artifactId, harvest, sha256Hex, type HarvestedArtifact } from './phi-cycle';
import { pyRound, reinforce } from './reference';
import { splitUcsState, type UcsStateParts } from './state';
import { bridgeIndexOf, routeContext, substrateFromParts } from './substrate-sim';

type Json = Record<string, unknown>;
const dir = path.join(import.meta.dirname, '../../server/demo/ucs-workspace');
const read = (f: string) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Json;

const snapshots: (UcsStateParts & { label: string })[] = readdirSync(path.join(dir, 'snapshots'))
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ ...splitUcsState(read(`snapshots/${f}`)), label: f }));
const current = { ...splitUcsState(read('ucs/state/torusfield_state.json')), label: 'ucs/state/torusfield_state.json' };
const index = read('ucs/state/ucs_index.json') as {
  last_phi_t: number;
  dead_end_entries: {
    id: string;
    date: string;
    reopen_conditions: string;
    capabilities: string[];
    keywords: string[];
  }[];
  methodology_entries: { capabilities: string[]; keywords: string[] }[];
};
const actions: AuditAction[] = readFileSync(path.join(dir, 'ucs/state/action_log.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Json)
  .map((data) => actionRow({ type: 'ucs_action', agentId: 'aegis-demo', t: data.t as number, data }));
const samples = JSON.parse(readFileSync(path.join(dir, 'consult_samples.json'), 'utf8')) as ConsultSampleLike[];

interface FixtureReport {
  t: number;
  action: string;
  routed: boolean;
  reward: number;
  phi: boolean;
  edgeIndex?: number;
  rewardFull?: number;
  cost?: number;
  oldW?: number;
  newW?: number;
  window?: number;
  harvested?: HarvestedArtifact[];
  promoted?: string[];
  bias?: Record<string, number>;
}
interface FixtureDifferentiation {
  variance: number;
  uniqueTop1: number;
  contexts: number;
  top1: Record<string, string>;
  pairs: { a: string; b: string; distance: number }[];
}
interface FixtureAdvisory {
  context: string;
  capabilities: string[] | null;
  cursor: string;
  resolved: string[];
  penaltyEnergy: Record<string, number>;
  contextEnergy: Record<string, number>;
  scores: Record<string, number>;
  order: string[];
}
const ref = reference as unknown as {
  provenance: { now: string; tolerance: number };
  base: { snapshot: string; t: number; reportCounter: number };
  index: { reportCounter: number; lastPhiT: number };
  reports: FixtureReport[];
  finalExpected: { weights: number[]; bias: Record<string, number>; artifacts: HarvestedArtifact[] };
  disagreements: unknown[];
  differentiation: {
    storedSamples: FixtureDifferentiation;
    paperContexts: FixtureDifferentiation & { advisories: FixtureAdvisory[] };
    demoContexts: FixtureDifferentiation & { advisories: FixtureAdvisory[] };
  };
};

const closeAll = (got: Record<string, number>, want: Record<string, number>, digits = 12) => {
  expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
  for (const [k, v] of Object.entries(want)) expect(got[k]).toBeCloseTo(v, digits);
};
const sameArtifacts = (got: readonly HarvestedArtifact[], want: readonly HarvestedArtifact[]) => {
  const byId = (l: readonly HarvestedArtifact[]) => [...l].sort((a, b) => a.id.localeCompare(b.id));
  const [g, w] = [byId(got), byId(want)];
  expect(g.map(({ id, kind, payload, created_t }) => ({ id, kind, payload, created_t }))).toEqual(
    w.map(({ id, kind, payload, created_t }) => ({ id, kind, payload, created_t })),
  );
  g.forEach((a, k) => expect(a.score).toBeCloseTo(w[k]!.score, 12));
};

const base: AuditState = snapshots[0]!;
const replay = replayReports(base, actions, { lastPhiT: index.last_phi_t, at: snapshots.map((s) => s.t) });

describe('replaying the action log by the reference rules (fixtures/reference-audit.json)', () => {
  it('starts where the reference run started', () => {
    expect(snapshots[0]!.label).toBe(ref.base.snapshot);
    expect(base.t).toBe(ref.base.t);
    expect(index.last_phi_t).toBe(ref.index.lastPhiT);
    expect(replay.reports).toHaveLength(ref.reports.length);
  });

  it('reinforces the edge cursor → action of every routed report: its reward, the clamp, the same weight', () => {
    replay.reports.forEach((r, k) => {
      const want = ref.reports[k]!;
      expect([r.t, r.action, r.routed, r.phi]).toEqual([want.t, want.action, want.routed, want.phi]);
      expect(pyRound(r.reward, 4)).toBe(want.reward);
      if (!want.routed) return expect(r.edgeIndex).toBeNull();
      expect(r.edgeIndex).toBe(want.edgeIndex);
      expect(r.reward).toBe(want.rewardFull);
      expect(r.cost).toBe(want.cost);
      expect(r.oldW).toBe(want.oldW);
      expect(r.newW).toBe(want.newW);
    });
  });

  it('harvests, promotes and biases at every φ-cycle as the reference did', () => {
    const phis = replay.reports.filter((r) => r.phi);
    expect(phis).toHaveLength(ref.reports.filter((r) => r.phi).length);
    expect(phis.length).toBe(80);
    for (const r of phis) {
      const want = ref.reports.find((x) => x.t === r.t)!;
      expect(r.window).toBe(want.window);
      sameArtifacts(r.harvested!, want.harvested!);
      expect(r.harvested!.map((a) => a.id)).toEqual(want.harvested!.map((a) => a.id));
      expect([...r.promoted!].sort()).toEqual(want.promoted);
      closeAll(r.bias!, want.bias!);
    }
  });

  it('ends with the weights, policy bias and artifacts the reference ends with', () => {
    replay.final.weights.forEach((w, i) => expect(w).toBeCloseTo(ref.finalExpected.weights[i]!, 12));
    closeAll(replay.final.bias, ref.finalExpected.bias);
    sameArtifacts(replay.final.artifacts, ref.finalExpected.artifacts);
  });
});

describe('auditing the demo workspace', () => {
  const states = [...snapshots, current];
  const audit = auditWorkspace({ states, actions, lastPhiT: index.last_phi_t, consultSamples: samples });

  it('finds what the reference run finds: no disagreement', () => {
    expect(ref.disagreements).toEqual([]);
    expect(audit.disagreements).toEqual([]);
    expect(audit.checked).toMatchObject({ states: 21, reports: 399 });
    expect(audit.checked.weights).toBe(21 * 249);
  });

  it('lists each tampered weight, clamp, bias, artifact and log line with the stored and expected values', () => {
    const final = structuredClone(current);
    const edges = (final.graph as { edges: { w: number }[] }).edges;
    edges[218]!.w = 3.1;
    edges[5]!.w += 0.01;
    const bias = (final.policy as { edge_bias: Record<string, number> }).edge_bias;
    bias['218'] = 2.5; // as if the bias were capped at 5 rather than each addition
    delete bias['19'];
    const arts = final.artifacts as { id: string; score: number }[];
    arts.splice(
      arts.findIndex((a) => a.id === 'f2d26dce3331a3eb'),
      1,
    );
    arts.find((a) => a.id === 'c6b826111c1d656d')!.score = 1;
    const log = actions.map((a) => (a.t === 300 ? { ...a, reward: 0.5 } : a));
    const r = auditWorkspace({ states: [...snapshots, final], actions: log, lastPhiT: index.last_phi_t });
    const found = r.disagreements.map((d) => [d.kind, d.at, d.subject]);
    expect(found).toEqual([
      ['weight_clamp', final.label, '#218 foundry_get_insights → foundry_learnings'],
      ['edge_weight', final.label, '#5 read → foundry_research'],
      ['edge_weight', final.label, '#218 foundry_get_insights → foundry_learnings'],
      ['policy_bias', final.label, '#19'],
      ['policy_bias', final.label, '#218'],
      ['artifact', final.label, 'c6b826111c1d656d score'],
      ['artifact', final.label, 'f2d26dce3331a3eb'],
      ['reward', 'action log', actions.find((a) => a.t === 300)!.action],
    ]);
    const at = (k: number) => r.disagreements[k]!;
    expect(at(0)).toMatchObject({ stored: 3.1, expected: 2.5 });
    expect(at(2).expected).toBe(ref.finalExpected.weights[218]);
    expect(at(3)).toMatchObject({ stored: null, expected: ref.finalExpected.bias['19'] });
    expect(at(4)).toMatchObject({ stored: 2.5, expected: ref.finalExpected.bias['218'] });
    expect(at(6).stored).toBeNull();
    expect(at(6).expected).toMatchObject({ kind: 'attractor', payload: { node: 'write' }, created_t: 480 });
    expect(at(7)).toMatchObject({ stored: 0.5, expected: ref.reports.find((x) => x.t === 300)!.reward });
    expect(r.disagreements.every((d) => d.rule.length > 0)).toBe(true);
    const summary = summarizeAudit(r, { states: 21, lines: log.length }, 3);
    expect(summary).toMatchObject({ disagreementCount: 8, replayed: 399, phiCycles: 80, clamped: 0 });
    expect(summary.byKind).toEqual({ weight_clamp: 1, edge_weight: 2, policy_bias: 2, artifact: 2, reward: 1 });
    expect(summary.disagreements).toHaveLength(3);
    expect(summary.routed + summary.jumps + summary.unknown).toBe(399);
  });

  it('flags a log line whose routing or cursor the graph contradicts', () => {
    const k = actions.findIndex((a) => a.routed === true && a.t > base.t);
    const log = actions.map((a, i) => (i === k ? { ...a, routed: false, cursorBefore: 'tts' } : a));
    const r = auditWorkspace({ states: [base], actions: log, lastPhiT: index.last_phi_t });
    expect(r.disagreements.map((d) => [d.kind, d.t])).toEqual([
      ['cursor', actions[k]!.t],
      ['routing', actions[k]!.t],
    ]);
  });
});

describe('the rules one by one', () => {
  it('clamps a weight at ±2.5', () => {
    expect(reinforce(2.49, 1, 0)).toBe(2.5);
    expect(reinforce(-2.5, 0, 1)).toBe(-2.5);
    expect(reinforce(0, 0.8, 0.3)).toBeCloseTo(0, 15);
  });

  it("names artifacts by the reference's stable ids (sha256 of the kind and key)", () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('a'.repeat(1000)).slice(0, 16)).toBe('41edece42d63e8d9');
    for (const a of ref.finalExpected.artifacts) {
      const key =
        a.kind === 'attractor' ? { node: String(a.payload.node) } : { edge_index: Number(a.payload.edge_index) };
      expect(artifactId(a.kind, key)).toBe(a.id);
    }
  });

  it('harvests a resonance from a regular cadence, and nothing from a short trace', () => {
    const step = (t: number, e: number) => ({
      t,
      src: 'a',
      dst: `n${e}`,
      edge_index: e,
      reward: 0,
      cost: 0.1,
      novelty: 0,
    });
    const trace = Array.from({ length: 48 }, (_, k) => step(k, k % 8 === 0 ? 7 : 100 + k));
    const got = harvest(trace, 48);
    // As torusfield_kernel.py Harvester.detect_all + validate gives for this trace (checked by hand).
    expect(got.map((a) => [a.kind, a.id, a.payload])).toEqual([
      ['resonance', '8a5f96f1a8f8cfbb', { edge_index: 7, period: 8, cv: 0, occurrences: 6 }],
    ]);
    expect(got[0]!.score).toBeCloseTo(1.9459101490553132, 15);
    expect(harvest(trace.slice(0, 19), 19)).toEqual([]);
  });

  it("rounds as Python's round does, halves to even", () => {
    expect([pyRound(0.03125, 4), pyRound(-0.03125, 4), pyRound(0.09375, 4), pyRound(2.675, 2)]).toEqual([
      0.0312, -0.0312, 0.0938, 2.67,
    ]);
    expect([pyRound(0.5078125, 6), pyRound(1.5, 0), pyRound(2.5, 0), pyRound(0.12345678, 4)]).toEqual([
      0.507812, 2, 2, 0.1235,
    ]);
  });
});

describe('advisory differentiation (experiments/option_b_test.py)', () => {
  const expectLike = (got: ReturnType<typeof advisoryDifferentiation>, want: FixtureDifferentiation) => {
    expect(got.variance).toBeCloseTo(want.variance, 12);
    expect(got.uniqueTop1).toBe(want.uniqueTop1);
    expect(got.contexts).toBe(want.contexts);
    expect(Object.fromEntries(got.top1.map((x) => [x.context, x.to]))).toEqual(want.top1);
    got.pairs.forEach((p, k) => {
      expect([p.a, p.b]).toEqual([want.pairs[k]!.a, want.pairs[k]!.b]);
      expect(p.distance).toBeCloseTo(want.pairs[k]!.distance, 12);
    });
  };

  it('of the stored consult samples', () => {
    const d = advisoryDifferentiation(samples.map(sampleAdvisory));
    expectLike(d, ref.differentiation.storedSamples);
    expect(d.verdict).toBe('works');
    expect(
      auditWorkspace({ states: [base], actions: [], lastPhiT: 0, consultSamples: samples }).differentiation,
    ).toEqual(d);
  });

  // The full advisory op_consult scores before keeping its top 6, at the current state.
  const now = substrateFromParts(current, bridgeIndexOf(index as unknown as Record<string, unknown>));
  for (const set of ['paperContexts', 'demoContexts'] as const)
    it(`of the full advisories at the current state (${set})`, () => {
      const want = ref.differentiation[set];
      const advisories = want.advisories.map((a) => {
        const got = routeContext(now, a.context, {
          capabilities: a.capabilities,
          now: new Date(ref.provenance.now),
        });
        expect(got.cursor).toBe(a.cursor);
        expect(got.resolvedCapabilities).toEqual(a.resolved);
        expect(got.penaltyEnergy).toEqual(a.penaltyEnergy);
        closeAll(
          Object.fromEntries(Object.entries(got.context.energy).filter(([, v]) => v !== 0)),
          a.contextEnergy,
          15,
        );
        expect(got.paths.map((p) => p.to)).toEqual(a.order);
        expect(Object.fromEntries(got.paths.map((p) => [p.to, p.printed.score]))).toEqual(a.scores);
        return { context: a.context, scores: got.paths.map((p) => [p.to, p.printed.score] as const) };
      });
      expectLike(advisoryDifferentiation(advisories), want);
    });

  it('differentiationAt: the demo contexts consulted at the current state, in one call', () => {
    const want = ref.differentiation.demoContexts;
    const contexts = want.advisories.map((a) => a.context);
    const d = differentiationAt(now, contexts, new Date(ref.provenance.now));
    expectLike(d, want);
    expect(d.verdict).toBe('partial');
  });
});
