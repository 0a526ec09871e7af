import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decay, diffuse, inject, step } from './dynamics';
import { scoreOutgoing } from './routing';

const dir = path.join(import.meta.dirname, '../../server/demo/ucs-workspace');
const state = JSON.parse(readFileSync(path.join(dir, 'ucs/state/torusfield_state.json'), 'utf8'));
const consult = JSON.parse(readFileSync(path.join(dir, 'consult_samples.json'), 'utf8'));
const sum = (a: readonly number[]) => a.reduce((x, y) => x + y, 0);

describe('field dynamics', () => {
  it('diffuses a point to its four torus neighbours by the mixing coefficients, across the seams', () => {
    const f = inject(new Array(4 * 5).fill(0), 5, 0, 0, 1);
    const d = diffuse(f, 4, 5, 0.06, 0.04);
    expect(d[0]).toBeCloseTo(0.9);
    expect(d[1 * 5 + 0]).toBeCloseTo(0.03); // θ+1
    expect(d[3 * 5 + 0]).toBeCloseTo(0.03); // θ−1 wraps to the last row
    expect(d[0 * 5 + 1]).toBeCloseTo(0.02); // φ+1
    expect(d[0 * 5 + 4]).toBeCloseTo(0.02); // φ−1 wraps to the last column
  });

  it('conserves the total on a torus and decays every field but the context field', () => {
    const e = state.state.fields.energy as number[];
    expect(sum(diffuse(e, 24, 32))).toBeCloseTo(sum(e), 8);
    const next = decay({ energy: [2, 4], context_energy: [1, 1] }, 0.5);
    expect(next).toEqual({ energy: [1, 2], context_energy: [1, 1] });
    const s = step(state.state.fields, 24, 32);
    expect(sum(s.energy!)).toBeCloseTo(sum(e) * 0.995, 6);
    expect(s.context_energy).toEqual(state.state.fields.context_energy);
  });
});

describe('routing', () => {
  it('reproduces the reference consult scores from their components', () => {
    const paths = consult[0].consult.suggested_paths as {
      to: string;
      edge_index: number;
      score: number;
      context_boost: number;
      components: Record<string, number>;
    }[];
    // The sample's raw edge parameters, as the reference reported them when it consulted.
    const edges = paths.map((p) => ({
      src: 'message',
      dst: p.to,
      u: p.components.utility!,
      c: -p.components.cost!,
      n: p.components.novelty!,
      w: p.components.weight!,
    }));
    const bias = Object.fromEntries(paths.map((p, k) => [String(k), p.components.bias!]));
    const contextEnergy = Object.fromEntries(paths.map((p) => [p.to, p.context_boost / 0.5]));
    const scored = scoreOutgoing(edges, 'message', { bias, contextEnergy });
    for (const p of paths) expect(scored.find((s) => s.to === p.to)!.score).toBeCloseTo(p.score, 3);
    expect(sum(scored.map((s) => s.probability))).toBeCloseTo(1, 12);
    const top = scored[0]!;
    expect(top.to).toBe('session_status');
    expect(Object.values(top.parts).reduce((a, b) => a + b, 0)).toBeCloseTo(top.score, 12);
  });

  it('scores every outgoing edge of the cursor in the stored graph', () => {
    const scored = scoreOutgoing(state.graph.edges, state.cursor.node, { bias: state.policy.edge_bias });
    expect(scored.length).toBe(state.graph.edges.filter((e: { src: string }) => e.src === state.cursor.node).length);
    expect(scored.every((s, k) => k === 0 || s.score <= scored[k - 1]!.score)).toBe(true);
  });
});
