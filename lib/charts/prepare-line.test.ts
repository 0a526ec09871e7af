import { describe, expect, it } from 'vitest';
import { prepareLineChart } from './prepare-line';

const close = (xs: number[], want: number[]) => {
  expect(xs).toHaveLength(want.length);
  xs.forEach((x, i) => expect(x).toBeCloseTo(want[i]!, 9));
};

describe('prepareLineChart', () => {
  // Width 200 and height 100 leave a 144 × 58 plot: x from 44 to 188, y from 68 (bottom) to 10.
  it('scales x from 0 and y from 0 to the niced maximum; draws each series, an empty one as nothing', () => {
    const c = prepareLineChart(
      [
        {
          key: 'a',
          label: 'A',
          color: 'red',
          values: [
            { x: 0, y: 0 },
            { x: 10, y: 5 },
          ],
        },
        { key: 'b', label: 'B', color: 'blue', dashed: true, values: [] },
      ],
      200,
      100,
    );
    expect(c.frame).toEqual({ left: 44, right: 188, top: 10, bottom: 68 });
    expect(c.paths).toEqual([
      { key: 'a', d: 'M44,68L188,10', color: 'red', dashed: false, dots: [], ends: [], thin: false },
      { key: 'b', d: '', color: 'blue', dashed: true, dots: [], ends: [], thin: false },
    ]);
    // y = 68 − 11.6·v for v in 0…5; x = 44 + 14.4·v for v in 0…10.
    expect(c.yTicks.map((t) => t.value)).toEqual([0, 1, 2, 3, 4, 5]);
    close(
      c.yTicks.map((t) => t.y),
      [68, 56.4, 44.8, 33.2, 21.6, 10],
    );
    expect(c.xTicks.map((t) => t.value)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    close(
      c.xTicks.map((t) => t.x),
      [44, 58.4, 72.8, 87.2, 101.6, 116, 130.4, 144.8, 159.2, 173.6, 188],
    );
    expect(c.xLabel).toEqual({ x: 116, y: 96 });
    expect(c.legend).toEqual([
      { key: 'a', label: 'A', color: 'red', last: '5' },
      { key: 'b', label: 'B', color: 'blue', last: null },
    ]);
  });

  it('takes yMax as the top of the y axis, x up to the data; a fractional last value has two decimals', () => {
    const c = prepareLineChart(
      [
        {
          key: 'u',
          label: 'U',
          color: 'red',
          dots: true,
          values: [
            { x: 1, y: 0.25 },
            { x: 4, y: 0.5 },
          ],
        },
      ],
      200,
      100,
      1,
    );
    // x = 44 + 36·v (0…4), y = 68 − 58·v (0…1): (1, 0.25) → (80, 53.5), (4, 0.5) → (188, 39).
    expect(c.paths[0]!.d).toBe('M80,53.5L188,39');
    expect(c.paths[0]!.dots).toEqual([
      { x: 80, y: 53.5 },
      { x: 188, y: 39 },
    ]);
    expect(c.yTicks.map((t) => t.value)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(c.xTicks.map((t) => t.value)).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4]);
    expect(c.legend[0]!.last).toBe('0.50');
    // Beside a fraction, a whole number is written with the same decimals.
    const mixed = prepareLineChart(
      [
        { key: 'a', label: 'A', color: 'red', values: [{ x: 1, y: 1 }] },
        { key: 'b', label: 'B', color: 'blue', values: [{ x: 1, y: 0.92 }] },
      ],
      300,
      200,
      1,
    );
    expect(mixed.legend.map((l) => l.last)).toEqual(['1.00', '0.92']);
  });

  it('fits x to the data with fitX (niced), instead of from 0', () => {
    const c = prepareLineChart(
      [
        {
          key: 'c',
          label: 'C',
          color: 'red',
          values: [
            { x: 0.83, y: 0.5 },
            { x: 0.97, y: 0.9 },
          ],
        },
      ],
      200,
      100,
      1,
      true,
    );
    expect(c.xTicks[0]!.value).toBeGreaterThanOrEqual(0.8);
    expect(c.xTicks.at(-1)!.value).toBeLessThanOrEqual(1);
    // The curve spans the plot (44…188) instead of its right seventh.
    const [x0, x1] = c.paths[0]!.d.match(/[\d.]+(?=,)/g)!.map(Number);
    expect(x0!).toBeLessThan(70);
    expect(x1!).toBeGreaterThan(160);
  });

  it('marks where a trajectory starts and ends, labels kept inside the frame, and draws it thinner', () => {
    const values = [
      { x: 1, y: 0.5 },
      { x: 0.2, y: 0.8 },
      { x: 0.6, y: 0.9 },
    ];
    const c = prepareLineChart(
      [{ key: 't', label: 'T', color: 'red', values, ends: { first: 'after 1 turn', last: 'after 3 turns' } }],
      200,
      100,
      1,
      true,
    );
    const [first, last] = c.paths[0]!.ends;
    expect(first).toMatchObject({ label: 'after 1 turn', last: false, anchor: 'end', x: 188 });
    expect(last).toMatchObject({ label: 'after 3 turns', last: true });
    expect(last!.x).toBeGreaterThan(44);
    expect(last!.x).toBeLessThan(188);
    expect(c.paths[0]!.thin).toBe(true);
    // A point at the top has its label below it (above, it would leave the chart); one point is labelled once.
    const top = prepareLineChart(
      [{ key: 't', label: 'T', color: 'red', values: [{ x: 0.5, y: 1 }], ends: { first: 'a', last: 'b' } }],
      200,
      100,
      1,
    ).paths[0]!.ends;
    expect(top).toHaveLength(1);
    expect(top[0]!.labelY).toBeGreaterThan(top[0]!.y);
    expect(first!.labelY).toBeLessThan(first!.y);
    // A plain series has neither.
    const plain = prepareLineChart([{ key: 'p', label: 'P', color: 'red', values }], 200, 100);
    expect(plain.paths[0]).toMatchObject({ ends: [], thin: false });
  });
});
