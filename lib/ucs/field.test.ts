import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fieldDiff, fieldExtent, neighbours, nodePositions, valueAt } from './field';

const state = JSON.parse(
  readFileSync(
    path.join(import.meta.dirname, '../../server/demo/ucs-workspace/ucs/state/torusfield_state.json'),
    'utf8',
  ),
);

describe('torus field', () => {
  const f = { thetaBins: 24, phiBins: 32, values: state.state.fields.energy as number[] };

  it('reads row-major cells and wraps on both axes', () => {
    expect(valueAt(f, 2, 5)).toBe(f.values[2 * 32 + 5]);
    expect(valueAt(f, -1, 0)).toBe(valueAt(f, 23, 0));
    expect(valueAt(f, 0, 32)).toBe(valueAt(f, 0, 0));
    expect(neighbours(0, 31, 24, 32)).toEqual([
      [23, 31],
      [1, 31],
      [0, 30],
      [0, 0],
    ]);
  });

  it('subtracts snapshots cell by cell and finds the extent', () => {
    expect(fieldDiff([1, 2, 3], [2, 2, 0])).toEqual([1, 0, -3]);
    expect(() => fieldDiff([1], [1, 2])).toThrow(/differ in size/);
    expect(fieldExtent([3, -1, 2])).toEqual([-1, 3]);
  });

  it("places capabilities from the state's injection schedule, else as the reference does", () => {
    const pos = nodePositions(state.graph.nodes, state.injection_schedule, 24, 32);
    expect(pos).toHaveLength(45);
    expect(pos.find((p) => p.name === 'sessions_spawn')).toMatchObject({
      theta: state.cursor.theta,
      phi: state.cursor.phi,
      source: 'schedule',
    });
    expect(nodePositions(['a', 'b', 'c'], null, 24, 32)[2]).toEqual({ name: 'c', theta: 2, phi: 6, source: 'derived' });
  });
});
