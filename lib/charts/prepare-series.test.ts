import { line, scaleLinear } from 'd3';
import { describe, expect, it } from 'vitest';
import type { M4 } from '@/lib/ccs/digest';
import { prepareSeries } from './prepare-series';

/** Buckets of `size` turns, as the session digest keeps them. */
function m4Of(values: (number | null)[], size: number): M4 {
  const m: M4 = { first: [], min: [], max: [], last: [] };
  for (let k = 0; k * size < values.length; k++) {
    const v = values.slice(k * size, (k + 1) * size).filter((x): x is number => x !== null);
    m.first.push(v.length ? v[0]! : null);
    m.min.push(v.length ? v.reduce((a, b) => Math.min(a, b)) : null);
    m.max.push(v.length ? v.reduce((a, b) => Math.max(a, b)) : null);
    m.last.push(v.length ? v.at(-1)! : null);
  }
  return m;
}

const points = (d: string) => d.match(/[ML][^ML]+/g) ?? [];
const ys = (d: string) => points(d).map((p) => Number(p.slice(1).split(',')[1]));

describe('per-turn chart paths', () => {
  it('lay another run over the chart where its turns align (Compare runs), with its own bucket size', () => {
    const b = [1, 2, 3, 4, 5];
    const own = { n: 5, size: 1, at: (j: number) => j * 2, from: (i: number) => (i % 2 ? null : i / 2) };
    const p = prepareSeries(
      [
        { key: 'a', label: 'A', m4: m4Of([0, 0, 0, 0, 0, 0, 0, 0, 0], 1) },
        { key: 'b', label: 'B', m4: m4Of(b, 1), own },
      ],
      9,
      1,
      400,
      96,
    );
    const xs = (d: string) => points(d).map((q) => Number(q.slice(1).split(',')[0]));
    // B's five turns span A's nine: its first and last points sit on A's first and last turn.
    expect(xs(p.paths[1]!.d)).toEqual(xs(p.paths[0]!.d).filter((_, i) => i % 2 === 0));
    expect(ys(p.paths[1]!.d)[4]).toBeLessThan(ys(p.paths[1]!.d)[0]!);
  });

  it('draw every turn of a short session, as d3 would', () => {
    const values = [3, 1, null, 4, 1, 5];
    const p = prepareSeries([{ key: 'a', label: 'a', m4: m4Of(values, 1) }], values.length, 1, 400, 96);
    expect(points(p.paths[0]!.d)).toHaveLength(5);
    expect(p.paths[0]!.d.startsWith('M')).toBe(true);
    // The gap breaks the line: a new move after it.
    expect(p.paths[0]!.d.match(/M/g)).toHaveLength(2);
    const x = scaleLinear().domain([0, 5]).range([44, 392]);
    const y = scaleLinear().domain([0, 5]).nice(3).range([82, 6]);
    const d3Path = line<number | null>()
      .defined((v) => v !== null)
      .x((_, i) => x(i))
      .y((v) => y(v!))(values)!;
    expect(ys(p.paths[0]!.d)).toEqual(ys(d3Path).map((v) => Number(v.toFixed(1))));
  });

  it('draw a value with no neighbour as a small ring around it (a one-point line draws nothing)', () => {
    // Usage reported on odd turns only: every value stands alone.
    const values = [1200, null, 900, null, 1500];
    const p = prepareSeries([{ key: 'a', label: 'a', m4: m4Of(values, 1) }], values.length, 1, 400, 96);
    const d = p.paths[0]!.d;
    expect(d.match(/M/g)).toHaveLength(3);
    expect(d.match(/a2\.5,2\.5 0 1 0 5,0a2\.5,2\.5 0 1 0 -5,0/g)).toHaveLength(3);
    // Centred on its value: the ring starts 2.5 px to its left, at its height.
    const [x0, y0] = d
      .slice(1)
      .split(/[a-zA-Z]/)[0]!
      .split(',')
      .map(Number);
    expect(x0! + 2.5).toBeCloseTo(p.x(0), 1);
    expect(y0).toBeCloseTo(p.y(1200), 1);
    // Joined values stay a line; the one after a gap alone is a ring.
    const q = prepareSeries([{ key: 'a', label: 'a', m4: m4Of([1, 2, null, 4], 1) }], 4, 1, 400, 96).paths[0]!.d;
    expect(q).toMatch(/^M[\d.]+,[\d.]+L[\d.]+,[\d.]+M[\d.]+,[\d.]+a2\.5,2\.5 0 1 0 5,0a2\.5,2\.5 0 1 0 -5,0$/);
  });

  it('draw 100,000 turns from their buckets, at most four points a pixel column, keeping every spike', () => {
    const n = 100_000;
    const values = Array.from({ length: n }, (_, i) => (i === 77_777 ? 1_000 : i === 33_333 ? -50 : i % 100));
    const p = prepareSeries([{ key: 'a', label: 'a', m4: m4Of(values, 128) }], n, 128, 400, 96);
    const d = p.paths[0]!.d;
    expect(points(d).length).toBeLessThanOrEqual(4 * 400);
    expect(d.length).toBeLessThan(40_000);
    // The highest and lowest turns are drawn where they are.
    expect(Math.min(...ys(d))).toBeCloseTo(p.y(1_000), 1);
    expect(Math.max(...ys(d))).toBeCloseTo(p.y(-50), 1);
    // x never goes back.
    const xs = points(d).map((q) => Number(q.slice(1).split(',')[0]));
    expect(xs.every((v, i) => i === 0 || v >= xs[i - 1]!)).toBe(true);
    expect(p.indexAt(p.x(77_777))).toBe(77_777);
    // A falling bucket draws its highest value before its lowest.
    const falling = prepareSeries([{ key: 'a', label: 'a', m4: m4Of([9, 1, 10, 0], 4) }], 4, 4, 400, 96);
    expect(ys(falling.paths[0]!.d)).toEqual([9, 10, 0, 0].map((v) => Number(falling.y(v).toFixed(1))));
  });
});
