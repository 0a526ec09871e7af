import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AEGIS_VOCABULARY,
  artifactStaleness,
  edgeBiasOf,
  edgesOf,
  keywordCapabilities,
  learnFromReport,
  reportReward,
  resolveCapabilities,
  traceOf,
} from './reference';
import { bridgeIndexOf, reportCounterAt, routeContext, simulateTicks, substrateFromParts } from './substrate-sim';

describe('the reference rules shared by the simulation, the dead-end search and the audit', () => {
  it('reads a stored graph with the Edge dataclass’s defaults, biases by edge index, the trace tail', () => {
    expect(
      edgesOf({
        edges: [
          { src: 'a', dst: 'b' },
          { src: 'b', dst: 'a', u: 0.9, c: 0.1, n: 0.1, w: -1 },
        ],
      }),
    ).toEqual([
      { src: 'a', dst: 'b', u: 0.5, c: 0.2, n: 0, w: 0 },
      { src: 'b', dst: 'a', u: 0.9, c: 0.1, n: 0.1, w: -1 },
    ]);
    expect(edgesOf(null)).toEqual([]);
    expect(edgeBiasOf({ edge_bias: { '7': 1.5, '12': 'x' } })).toEqual({ '7': 1.5, '12': 0 });
    expect(
      traceOf({ theta_tail: [{ t: 3, src: 'a', dst: 'b', edge_index: 0, reward: 1, cost: 0.2, novelty: 0 }, 7] }),
    ).toHaveLength(1);
  });

  it('learns from a report as op_report does: reward, clamp, trace step; nothing without an edge', () => {
    const edges = edgesOf({ edges: [{ src: 'a', dst: 'b', u: 0.9, c: 0.1, w: 2.49 }] });
    const routed = learnFromReport(edges, 'a', 'b', 'success', 40);
    expect(routed.reward).toBeCloseTo(0.7 * 0.8 + 0.3 * 0.9, 15);
    expect([routed.routed, routed.edgeIndex, routed.oldW, routed.newW, routed.clamped]).toEqual([
      true,
      0,
      2.49,
      2.5,
      true,
    ]);
    expect(edges[0]!.w).toBe(2.5);
    expect(routed.step).toMatchObject({ t: 40, src: 'a', dst: 'b', edge_index: 0, cost: 0.1 });
    const jump = learnFromReport(edges, 'b', 'a', 'failure', 41);
    expect([jump.routed, jump.reward, jump.step, edges[0]!.w]).toEqual([false, 0.1, null, 2.5]);
    // An outcome the bridge does not know rewards as its fallback, 0.3, whatever its name.
    expect(reportReward('constructor', 0)).toBeCloseTo(0.21, 15);
  });

  it('resolves capabilities as the bridge does: keyword map, explicit names, the last 20 methodology entries', () => {
    expect(resolveCapabilities('AUDIT the logs')).toEqual(keywordCapabilities('audit').slice().sort());
    expect(resolveCapabilities('', { explicit: ['tts', 'bogus_cap'] })).toEqual(['tts']);
    const old = { capabilities: ['canvas'], keywords: ['firewall'] };
    const filler = Array.from({ length: 20 }, () => ({ capabilities: ['tts'], keywords: ['nothing_here'] }));
    expect(resolveCapabilities('firewall', { methodology: [old, ...filler] })).toEqual([]);
    expect(resolveCapabilities('firewall', { methodology: [...filler, old] })).toEqual(['canvas']);
    expect(keywordCapabilities('__proto__')).toEqual([]);
    expect(AEGIS_VOCABULARY.capabilityNames[0]).toBe('read'); // the manifest's order, not sorted
  });
});

describe('a substrate state from stored parts', () => {
  const parts = {
    t: 12,
    thetaBins: 2,
    phiBins: 3,
    fields: { energy: [1, 2, 3, 4, 5, 6], memory: [1] },
    ports: null,
    graph: {
      nodes: ['read', 'write'],
      edges: [
        { src: 'read', dst: 'write', u: 0.9, c: 0.1, n: 0.1, w: 0 },
        { src: 'write', dst: 'read', u: 0.9, c: 0.1, n: 0.1, w: 0 },
      ],
    },
    policy: null,
    cursor: null,
    injectionSchedule: null,
    trace: null,
  };

  it('keeps only the kernel’s fields of the right size, zeroes the rest, and puts the cursor on the first node', () => {
    const s = substrateFromParts(parts, bridgeIndexOf(null));
    expect(s.fields).toEqual({
      energy: [1, 2, 3, 4, 5, 6],
      memory: [0, 0, 0, 0, 0, 0],
      salience: [0, 0, 0, 0, 0, 0],
      context_energy: [0, 0, 0, 0, 0, 0],
    });
    expect([s.cursor.node, s.reportCounter, s.deadEnds, s.methodology]).toEqual(['read', 0, [], []]);
  });

  it('counts reports since the last φ-cycle at an older snapshot from last_phi_t', () => {
    const index = { reportCounter: 3, lastPhiT: 600 };
    expect(reportCounterAt(index, 600, 600)).toBe(3);
    expect(reportCounterAt(index, 581, 600)).toBe(1);
    expect(reportCounterAt(index, 580, 600)).toBe(0);
    expect(reportCounterAt({ reportCounter: 2, lastPhiT: null }, 10, 20)).toBe(2);
  });

  it('simulates ticks that follow the advice along the edges and run a φ-cycle every 5th report', () => {
    const s = substrateFromParts(parts, null);
    const run = simulateTicks(s, 6);
    expect(run.ticks.map((x) => [x.action, x.routed, x.phi])).toEqual([
      ['write', true, false],
      ['read', true, false],
      ['write', true, false],
      ['read', true, false],
      ['write', true, true],
      ['read', true, false],
    ]);
    // A cursor without an outgoing edge gets no advice, reports nothing, and t stays.
    const stuck = substrateFromParts({ ...parts, graph: { nodes: ['read', 'write'], edges: [] } }, null);
    expect(simulateTicks(stuck, 3).ticks.map((x) => x.action)).toEqual([null, null, null]);
    expect(simulateTicks(stuck, 3).state.t).toBe(12);
    expect(run.state.t).toBe(18);
    expect(routeContext(s, 'constructor hasOwnProperty __proto__').resolvedCapabilities).toEqual([]);
  });

  it('counts stale artifacts as the bridge’s status does (stale_artifact_count), on two workspaces', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    for (const [dir, want] of [
      ['server/demo/ucs-workspace', 1],
      ['lib/ucs/fixtures/ops-workspace', 0],
    ] as const) {
      const read = (f: string) => JSON.parse(readFileSync(path.join(root, dir, f), 'utf8'));
      const live = read('ucs/state/torusfield_state.json');
      const arts = live.artifacts as { created_t: number; meta: unknown }[];
      const stale = arts.filter((a) => artifactStaleness({ createdT: a.created_t, meta: a.meta }, live.state.t)?.stale);
      expect(stale.length).toBe(want);
      expect(read('status.json').stale_artifact_count).toBe(want);
    }
    // The last detection wins over creation; one step inside the window is not stale.
    expect(artifactStaleness({ createdT: 10, meta: { last_detected_t: 100 } }, 600)).toEqual({
      lastDetectedT: 100,
      recorded: true,
      age: 500,
      stale: false,
    });
    expect(artifactStaleness({ createdT: 10, meta: {} }, 600)).toMatchObject({
      recorded: false,
      age: 590,
      stale: true,
    });
    expect(artifactStaleness({ createdT: null, meta: null }, 600)).toBeNull();
  });
});
