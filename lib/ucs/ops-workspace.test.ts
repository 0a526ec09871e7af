import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditWorkspace, type AuditAction } from './audit';
import { actionRow } from './ingest-rows';
import { referenceReopen, wouldReopen } from './reopen';
import { splitUcsState } from './state';
import {
  bridgeIndexOf,
  printedSuggestions,
  routeContext,
  simulateSteps,
  substrateFromFiles,
  type SimStep,
} from './substrate-sim';

/**
 * fixtures/ops-workspace: a second workspace written by the reference bridge (see its README), not the demo's. What
 * the app computes from its files must be what the bridge printed and saved.
 */
type Json = Record<string, unknown>;
const dir = path.join(import.meta.dirname, 'fixtures/ops-workspace');
const read = (f: string) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Json;
const index = read('ucs/state/ucs_index.json');
const final = read('ucs/state/torusfield_state.json');
const snapshotFiles = readdirSync(path.join(dir, 'snapshots')).sort();
const lines = readFileSync(path.join(dir, 'ucs/state/action_log.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Json);
const actions: AuditAction[] = lines.map((data) =>
  actionRow({ type: 'ucs_action', agentId: 'ops-copilot', t: data.t as number, data }),
);
interface PrintedConsult {
  cursor: string;
  resolved_capabilities: string[];
  suggested_paths: (Json & { to: string; score: number; annotation: unknown })[];
  dead_ends: { topic: string; reopen_triggered: boolean; reopen_matched: string[] }[];
  penalty_applied: Record<string, number>;
  context_boosted: Record<string, number>;
}
const samples = JSON.parse(readFileSync(path.join(dir, 'consult_samples.json'), 'utf8')) as {
  i: number;
  context: string;
  consult: PrintedConsult;
}[];
// The bridge ran on 2026-11-25 and every dead end is dated that day.
const ranAt = Date.parse('2026-11-25T22:25:00Z');

describe('a second real workspace (fixtures/ops-workspace)', () => {
  it('consults as the bridge consulted: the seven stored advisories, to the printed digit', () => {
    const state = substrateFromFiles(final, index);
    expect(samples).toHaveLength(7);
    for (const s of samples) {
      const r = routeContext(state, s.context, { now: ranAt });
      const want = s.consult;
      expect(r.cursor).toBe(want.cursor);
      expect(r.resolvedCapabilities).toEqual(want.resolved_capabilities);
      expect(printedSuggestions(r)).toEqual(want.suggested_paths.map(({ annotation: _a, ...p }) => p));
      expect(r.deadEnds.map((d) => [d.deadEnd.topic, d.reopenTriggered, d.reopenMatched])).toEqual(
        want.dead_ends.map((d) => [d.topic, d.reopen_triggered, d.reopen_matched]),
      );
      expect(r.penaltyEnergy).toEqual(want.penalty_applied);
      const boosted = Object.entries(r.context.energy).filter(([, v]) => v > 0.01);
      expect(Object.fromEntries(boosted.map(([k, v]) => [k, Math.round(v * 1e4) / 1e4]))).toEqual(want.context_boosted);
    }
  });

  it('“the” reopens dead ends: the bridge flags a disk alert as reopening two unrelated dead ends', () => {
    const deadEnds = bridgeIndexOf(index).deadEnds;
    const v = referenceReopen('triage the disk alert on db-7', deadEnds, { now: ranAt });
    expect(v.returned.map((m) => [m.deadEnd.topic, m.reopenMatched])).toEqual([
      ['scrape the payments status page for limits', ['the']],
      ['roll back the login service alone', ['the']],
    ]);
    expect(v.routingPenalty.foundry_track_outcome).toBe(0.75);
    expect(wouldReopen('triage the disk alert on db-7', deadEnds)).toEqual([]);
  });

  it('steps as the bridge stepped: 10 ticks and 7 consults from the t 250 snapshot give the final file', () => {
    const from = substrateFromFiles(read(`snapshots/${snapshotFiles.at(-1)}`), index);
    expect(from.t).toBe(250);
    // The driver consulted with the context its outcome names ("<action> for '<context>' -> <success>").
    const reports: SimStep[] = lines
      .filter((l) => (l.t as number) > 250)
      .map((l) => ({
        context: /for '(.+)' -> /.exec(l.outcome as string)![1],
        action: l.action as string,
        success: l.success as string,
      }));
    const consults: SimStep[] = samples.map((s) => ({ context: s.context, action: null }));
    const got = simulateSteps(from, reports.length + consults.length, { steps: [...reports, ...consults], now: ranAt });
    const want = substrateFromFiles(final, index);
    expect([got.t, got.cursor, got.reportCounter]).toEqual([want.t, want.cursor, 0]);
    let worst = 0;
    for (const f of ['energy', 'memory', 'salience', 'context_energy'])
      got.fields[f]!.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - want.fields[f]![i]!))));
    expect(worst).toBeLessThanOrEqual(1e-9);
    expect(got.edges.map((e) => e.w)).toEqual(want.edges.map((e) => e.w));
    expect(Object.keys(got.edgeBias).sort()).toEqual(Object.keys(want.edgeBias).sort());
    for (const [k, v] of Object.entries(want.edgeBias)) expect(got.edgeBias[k]).toBeCloseTo(v, 12);
    expect(Object.keys(got.ports).sort()).toEqual(Object.keys(want.ports).sort());
    for (const [k, v] of Object.entries(want.ports)) expect(got.ports[k]).toBeCloseTo(v, 9);
  });

  it('audits with no disagreement across its 7 states and 60 log lines', () => {
    const states = [
      ...snapshotFiles.map((f) => ({ ...splitUcsState(read(`snapshots/${f}`)), label: f })),
      { ...splitUcsState(final), label: 'ucs/state/torusfield_state.json' },
    ];
    const r = auditWorkspace({
      states,
      actions,
      lastPhiT: bridgeIndexOf(index).lastPhiT!,
      consultSamples: samples,
    });
    expect(r.disagreements).toEqual([]);
    expect(r.checked).toMatchObject({ states: 6, reports: 60 });
    expect(r.replay.reports.filter((x) => !x.routed)).toHaveLength(5);
    expect(r.replay.reports.filter((x) => x.phi)).toHaveLength(12);
    // read, foundry_metrics and foundry_implement come first for different contexts.
    expect(r.differentiation).toMatchObject({ contexts: 7, uniqueTop1: 3, verdict: 'works' });
  });
});
