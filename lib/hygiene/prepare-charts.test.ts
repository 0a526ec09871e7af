import { describe, expect, it } from 'vitest';
import { prepareRecallStrip, prepareScatter, scatterPoints } from './prepare-charts';

const close = (xs: number[], want: number[]) => {
  expect(xs).toHaveLength(want.length);
  xs.forEach((x, i) => expect(x).toBeCloseTo(want[i]!, 9));
};

describe('scatterPoints', () => {
  it('makes one point per retrieval with both similarities, flagged with its misaligned item', () => {
    const pts = scatterPoints([
      {
        id: 'm',
        misaligned: true,
        retrievals: [
          { step: 3, session: 's', turn: 3, inputSim: 0.5, outputSim: 0.9, utility: 0.2 },
          { step: 4, session: 's', turn: 4, inputSim: null, outputSim: 0.9, utility: 0.2 }, // no input similarity
          { step: 5, session: 's', turn: 5, inputSim: 1, outputSim: 0.2, utility: null },
        ],
      },
      { id: 'ok', misaligned: false, retrievals: [] },
    ]);
    expect(pts).toEqual([
      {
        key: 'm@3',
        item: 'm',
        x: 0.5,
        y: 0.9,
        utility: 0.2,
        flagged: true,
        label: 'm recalled into s turn 3: input 0.50, output 0.90, utility 0.20',
      },
      {
        key: 'm@5',
        item: 'm',
        x: 1,
        y: 0.2,
        utility: null,
        flagged: true,
        label: 'm recalled into s turn 5: input 1.00, output 0.20, utility —',
      },
    ]);
  });
});

describe('prepareScatter', () => {
  // Width 252 and height 300 leave a 200 × 256 plot: x from 40 to 240, y from 266 (bottom) to 10.
  const pts = scatterPoints([
    {
      id: 'm',
      misaligned: true,
      retrievals: [
        { step: 3, session: 's', turn: 3, inputSim: 0.5, outputSim: 0.9, utility: 0.2 },
        { step: 5, session: 's', turn: 5, inputSim: 1, outputSim: 0.2, utility: null },
      ],
    },
  ]);
  const c = prepareScatter(pts, 0.7, 0.6, 252, 300);

  it('scales both axes from the lowest similarity (0.2 here) to 1', () => {
    expect(c.frame).toEqual({ left: 40, right: 240, top: 10, bottom: 266 });
    // x = 40 + 250·(v − 0.2), y = 266 − 320·(v − 0.2)
    close(
      c.dots.map((d) => d.cx),
      [115, 240],
    );
    close(
      c.dots.map((d) => d.cy),
      [42, 266],
    );
    expect(c.dots.map((d) => d.tone)).toEqual(['bad', 'none']);
  });

  it('shades the misaligned corner: input ≥ 0.7 and output ≤ 0.6', () => {
    close([c.zone.x, c.zone.y, c.zone.width, c.zone.height], [165, 138, 75, 128]);
    expect(c.zoneLabel).toEqual({ x: 236, y: 260 });
    expect(c.xLabel).toEqual({ x: 140, y: 296 });
    expect(c.yLabel).toEqual({ x: 11, y: 138 });
  });

  it('ticks every 0.1 on the shared domain, labelled with one decimal', () => {
    expect(c.ticks.map((t) => t.label)).toEqual(['0.2', '0.3', '0.4', '0.5', '0.6', '0.7', '0.8', '0.9', '1.0']);
    close(
      c.ticks.map((t) => t.x),
      [40, 65, 90, 115, 140, 165, 190, 215, 240],
    );
    close(
      c.ticks.map((t) => t.y),
      [266, 234, 202, 170, 138, 106, 74, 42, 10],
    );
  });

  it('starts at 0.4 when every similarity is higher (or there are no points)', () => {
    expect(prepareScatter([], 0.7, 0.6, 252, 300).ticks.map((t) => t.label)).toEqual([
      '0.4',
      '0.5',
      '0.6',
      '0.7',
      '0.8',
      '0.9',
      '1.0',
    ]);
  });
});

describe('prepareRecallStrip', () => {
  it('places each recall on the timeline with a pixel of margin, red when its turn went wrong', () => {
    // Width 102: x = step / 10 · 100 + 1.
    expect(
      prepareRecallStrip(
        [
          { step: 0, utility: 1 },
          { step: 5, utility: 0.4 },
          { step: 10, utility: null },
        ],
        10,
        2,
        102,
      ),
    ).toEqual({
      from: 21,
      marks: [
        { x: 1, bad: false },
        { x: 51, bad: true },
        { x: 101, bad: false },
      ],
    });
    expect(prepareRecallStrip([{ step: 3, utility: 0 }], 0, 0, 102)).toEqual({ from: 0, marks: [{ x: 0, bad: true }] });
  });
});
