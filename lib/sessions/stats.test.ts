import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addTurns, bucketsMean, emptyStats, sparkline, widthFor, SPARK_BUCKETS, type StatsTurn } from './stats';

const turn = (n: number, over: Partial<StatsTurn> = {}): StatsTurn => ({
  turn: n,
  ts: new Date(Date.UTC(2026, 10, 1) + n * 1000).toISOString(),
  hallucination: n / 100,
  drift: null,
  ccs: n,
  transcript: 2 * n,
  ...over,
});

describe('session figures kept as turns arrive', () => {
  it('keeps one bucket a turn up to 64 turns, then doubles the width and merges neighbours', () => {
    const s = addTurns(
      emptyStats(),
      Array.from({ length: 64 }, (_, i) => turn(i + 1)),
    );
    expect(s.width).toBe(1);
    expect(sparkline(s.ccs)).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
    const t = addTurns(s, [turn(65)]);
    expect(t.width).toBe(2);
    expect(t.ccs).toHaveLength(33);
    expect(sparkline(t.ccs).slice(0, 2)).toEqual([1.5, 3.5]);
    expect(sparkline(t.ccs)[32]).toBe(65);
    expect(s.width).toBe(1); // the input is not changed
    expect(widthFor(100_000)).toBe(2048);
    expect(addTurns(emptyStats(), [turn(100_000)]).ccs).toHaveLength(49);
  });

  it('averages drift over turns 2…T and the footprint over every turn (ACC §5.3: D̄, M̄)', () => {
    // D_1 is undefined (no prior state): a value sent for turn 1 is not averaged in. D̄ = (0.2 + 0.4) / 2.
    const s = addTurns(emptyStats(), [
      turn(1, { drift: 0.9, ccs: 100 }),
      turn(2, { drift: 0.2, ccs: 200 }),
      turn(3, { drift: 0.4, ccs: 600 }),
    ]);
    expect([s.dN, s.dSum / s.dN]).toEqual([2, 0.30000000000000004]);
    // A session numbered from 0: its first turn is 0, and turn 1 (the second) counts. D̄ = (0.2 + 0.4) / 2 again.
    const zero = addTurns(emptyStats(), [turn(1, { drift: 0.2 }), turn(2, { drift: 0.4 })]);
    expect([zero.dN, zero.firstTurn]).toEqual([1, 1]);
    const whole = addTurns(zero, [turn(0, { drift: 0.9 })]);
    expect([whole.dN, whole.dSum / whole.dN, whole.firstTurn, whole.firstDrift]).toEqual([
      2, 0.30000000000000004, 0, 0.9,
    ]);
    expect(bucketsMean(s.ccs)).toBe(300);
    expect(
      bucketsMean(
        addTurns(
          s,
          Array.from({ length: 200 }, (_, i) => turn(i + 4, { ccs: 300 })),
        ).ccs,
      ),
    ).toBe(300);
    expect(bucketsMean(emptyStats().ccs)).toBeNull();
  });

  it('counts, times, means and buckets do not depend on the order or batching of the turns', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 300 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 10 }),
        (numbers, cuts) => {
          const turns = numbers.map((n) => turn(n, { drift: n % 3 ? n / 7 : null, ccs: n % 5 ? n : null }));
          const whole = addTurns(
            emptyStats(),
            [...turns].sort((a, b) => a.turn - b.turn),
          );
          let parts = emptyStats();
          for (let i = 0, c = 0; i < turns.length; c++) {
            const size = cuts[c % cuts.length]!;
            parts = addTurns(parts, turns.slice(i, i + size));
            i += size;
          }
          expect(parts.turnCount).toBe(numbers.length);
          expect(parts.width).toBe(whole.width);
          expect(parts.firstAt).toBe(whole.firstAt);
          expect(parts.lastAt).toBe(whole.lastAt);
          expect(parts.hN).toBe(whole.hN);
          expect(parts.hSum).toBeCloseTo(whole.hSum, 6);
          expect(parts.dN).toBe(whole.dN);
          expect(parts.dSum).toBeCloseTo(whole.dSum, 6);
          expect([parts.firstTurn, parts.firstDrift]).toEqual([whole.firstTurn, whole.firstDrift]);
          expect(parts.ccs.length).toBeLessThanOrEqual(SPARK_BUCKETS);
          expect(parts.ccs.map((b) => b[1])).toEqual(whole.ccs.map((b) => b[1]));
          parts.ccs.forEach((b, i) => expect(b[0]).toBeCloseTo(whole.ccs[i]![0], 6));
        },
      ),
      { numRuns: 200, seed: 20261125 },
    );
  });
});
