import { describe, expect, it } from 'vitest';
import { experienceFollowing, pearson } from './experience';

describe('experience-following (memory-addition-deletion §4.3, A.2)', () => {
  it('computes Pearson r, and nothing where it is undefined', () => {
    expect(pearson([1, 2, 3, 4], [2, 4, 6, 8])).toBeCloseTo(1, 12);
    expect(pearson([1, 2, 3, 4], [8, 6, 4, 2])).toBeCloseTo(-1, 12);
    // r of (1,2),(2,1),(3,4),(4,3) = 0.6
    expect(pearson([1, 2, 3, 4], [2, 1, 4, 3])).toBeCloseTo(0.6, 12);
    expect(pearson([1, 2], [1, 2])).toBeNull();
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeNull();
  });

  it('pairs each turn with its most similar recall, then averages cumulatively in time order', () => {
    const e = experienceFollowing([
      { step: 2, inputSim: 0.4, outputSim: 0.3, utility: 1 },
      { step: 1, inputSim: 0.9, outputSim: 0.8, utility: 0 },
      { step: 1, inputSim: 0.2, outputSim: 0.9, utility: 0 }, // not the turn's best recall
      { step: 3, inputSim: 0.6, outputSim: 0.7, utility: null },
      { step: 4, inputSim: null, outputSim: 0.5, utility: 1 }, // similarity unknown: left out
    ]);
    expect([e.turns, e.recalls]).toEqual([3, 4]);
    expect(e.cumulative.map((c) => c.step)).toEqual([1, 2, 3]);
    expect(e.cumulative[1]!.input).toBeCloseTo(0.65, 12);
    expect(e.cumulative[1]!.output).toBeCloseTo(0.55, 12);
    expect(e.cumulative[2]!.input).toBeCloseTo(1.9 / 3, 12);
    expect(e.cumulative.map((c) => c.performance)).toEqual([0, 0.5, 0.5]);
    // Turns (0.9,0.8), (0.4,0.3), (0.6,0.7) follow: r > 0.9; over every recall the stray (0.2,0.9) lowers it.
    expect(e.r!).toBeGreaterThan(0.9);
    expect(e.rRecalls!).toBeLessThan(e.r!);
  });

  it('keeps at most maxPoints cumulative points, always the last', () => {
    const recalls = Array.from({ length: 1000 }, (_, i) => ({
      step: i + 1,
      inputSim: (i % 10) / 10,
      outputSim: (i % 10) / 10,
      utility: 1,
    }));
    const e = experienceFollowing(recalls, 100);
    expect(e.cumulative.length).toBeLessThanOrEqual(101);
    expect(e.cumulative.at(-1)).toMatchObject({ step: 1000, n: 1000 });
    expect(e.r).toBeCloseTo(1, 12);
  });
});
