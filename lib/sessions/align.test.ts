import { describe, expect, it } from 'vitest';
import { alignedIndex, compareQueryString, pairedCount, parseCompareQuery, placeOnA } from './align';

describe('aligning two runs', () => {
  it('shifts by whole turns, with no partner past either end', () => {
    const al = { mode: 'shift', shift: 2 } as const;
    expect([0, 5, 7, 8].map((i) => alignedIndex(i, 10, 10, al))).toEqual([2, 7, 9, null]);
    expect(alignedIndex(0, 10, 10, { mode: 'shift', shift: -1 })).toBeNull();
    expect(placeOnA(2, 10, 10, al)).toBe(0);
  });

  it('counts the turns of A with a partner: the overlap a shift leaves, none past either end', () => {
    for (const [nA, nB, shift] of [
      [10, 10, 2],
      [10, 10, -3],
      [50, 50, -100],
      [50, 50, 50],
      [5, 20, 7],
      [20, 5, -2],
    ] as const) {
      const al = { mode: 'shift', shift } as const;
      const byHand = Array.from({ length: nA }, (_, i) => alignedIndex(i, nA, nB, al)).filter((j) => j !== null);
      expect(pairedCount(nA, nB, al), `${nA}/${nB}/${shift}`).toBe(byHand.length);
    }
    expect(pairedCount(5, 9, { mode: 'stretch' })).toBe(5);
    expect(pairedCount(5, 0, { mode: 'stretch' })).toBe(0);
  });

  it('stretches runs of different lengths end to end, and places B back on A exactly', () => {
    const al = { mode: 'stretch' } as const;
    expect([0, 1, 2, 3, 4].map((i) => alignedIndex(i, 5, 9, al))).toEqual([0, 2, 4, 6, 8]);
    expect([0, 4].map((i) => alignedIndex(i, 5, 2, al))).toEqual([0, 1]);
    expect(placeOnA(8, 5, 9, al)).toBe(4);
    expect(alignedIndex(0, 1, 1, al)).toBe(0);
    expect(alignedIndex(0, 3, 0, al)).toBeNull();
  });
});

describe('the compare query', () => {
  it('reads what a link gives and writes it back', () => {
    const q = parseCompareQuery({ a: 'run-1', b: 'run-2', turn: '12', shift: '-3' });
    expect(q).toEqual({ a: 'run-1', b: 'run-2', turn: 12, align: { mode: 'shift', shift: -3 }, problems: [] });
    expect(compareQueryString(q as { a: string; b: string } & typeof q)).toBe('a=run-1&b=run-2&turn=12&shift=-3');
    expect(compareQueryString({ a: 'x', b: 'y', turn: null, align: { mode: 'stretch' } })).toBe(
      'a=x&b=y&align=stretch',
    );
  });

  it('names each value it cannot use, and keeps the rest', () => {
    const q = parseCompareQuery({ a: 'run-1', b: '', turn: '2.5', align: 'zip', shift: 'x' });
    expect(q.a).toBe('run-1');
    expect(q.b).toBeNull();
    expect(q.turn).toBeNull();
    expect(q.problems).toEqual([
      'turn: "2.5" is not a whole number ≥ 0',
      'align: "zip" is not one of shift, stretch',
      'shift: "x" is not a whole number',
    ]);
    expect(parseCompareQuery({ align: 'stretch', shift: '2' }).problems).toEqual([
      'shift: only the shift alignment takes a shift',
    ]);
  });
});
