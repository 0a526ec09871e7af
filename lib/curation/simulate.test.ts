import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FIGURE3,
  PAPER_SETTINGS,
  readSimSettings,
  retrievalProbability,
  SIM_START,
  simSettingsParams,
  simulate,
  sweepRow,
  theorem1,
} from './simulate';

const table = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../server/demo/curator/mc_results.json'), 'utf8'),
) as Record<
  string,
  {
    alpha: number;
    eta: number;
    P_at_t30: number;
    P_at_t90: number;
    P_at_t180: number;
    P_at_t365: number;
    P_std_at_t365: number;
    N_at_t365: number;
    Nhall_at_t365: number;
  }
>;

describe('hallucination-compounding Monte Carlo', () => {
  it.each(Object.entries(table))(
    'reproduces Table A for %s: P_365 within 2σ, and the path and memory size close',
    (_name, row) => {
      const r = simulate({ ...PAPER_SETTINGS, alpha: row.alpha, eta: row.eta });
      const p365 = r.mean[364]!;
      expect(Math.abs(p365 - row.P_at_t365)).toBeLessThanOrEqual(2 * row.P_std_at_t365);
      expect(r.std[364]!).toBeCloseTo(row.P_std_at_t365, 1);
      for (const [day, want] of [
        [30, row.P_at_t30],
        [90, row.P_at_t90],
        [180, row.P_at_t180],
      ] as const)
        expect(Math.abs(r.mean[day - 1]! - want)).toBeLessThan(0.03);
      expect(r.entries[364]! / row.N_at_t365).toBeGreaterThan(0.97);
      expect(r.entries[364]! / row.N_at_t365).toBeLessThan(1.03);
    },
  );

  it('is deterministic for a seed and differs across seeds', () => {
    const s = { ...PAPER_SETTINGS, alpha: 0.3, eta: 0.9, days: 60, seeds: 5 };
    expect(simulate({ ...s, seed: 4 }).mean).toEqual(simulate({ ...s, seed: 4 }).mean);
    expect(simulate({ ...s, seed: 4 }).mean).not.toEqual(simulate({ ...s, seed: 5 }).mean);
  });

  it('gives no hallucination risk when nothing hallucinated is stored', () => {
    expect(retrievalProbability(100, 0, 5)).toBe(0);
    expect(retrievalProbability(0, 0, 5)).toBe(0);
    expect(retrievalProbability(1000, 1000, 5)).toBe(1);
  });
});

const figure3 = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, 'fixtures/figure3-reference.json'), 'utf8'),
) as { points: { alpha: number; eta: number; p: number; std: number }[] };

describe('Theorem 1 (closed form) and the Figure 3 sweep', () => {
  const s = { lambda: 10, hallucination: 0.1, r0: 5, alpha: 0.3, eta: 0.9 };
  it('gives the bound and the ratio of the paper, consistent with each other', () => {
    const t = theorem1(s, 365);
    // 1 − (3650)^(−0.5) and 1 − (1095)^(−0.05).
    expect(t.uncurated).toBeCloseTo(1 - 3650 ** -0.5, 12);
    expect(t.curated).toBeCloseTo(1 - 1095 ** -0.05, 12);
    expect(t.ratio).toBeCloseTo((1 - t.curated) / (1 - t.uncurated), 9);
    // Corollary 1: the ratio grows without bound in t iff η > 0.
    expect(theorem1(s, 3650).ratio).toBeGreaterThan(t.ratio);
    expect(theorem1({ ...s, eta: 0 }, 3650).ratio).toBeCloseTo(theorem1({ ...s, eta: 0 }, 365).ratio, 12);
    // A probability even before the first entry (αλt < 1).
    expect(theorem1({ ...s, lambda: 1 }, 1)).toMatchObject({ uncurated: 0, curated: 0 });
  });

  it('reproduces the reference sweep (80 seeds a point) within 4 standard errors at every α and η', () => {
    const seen = FIGURE3.alphas.flatMap((alpha) => sweepRow(PAPER_SETTINGS, alpha));
    expect(seen).toHaveLength(55);
    for (const ref of figure3.points) {
      const mine = seen.find((x) => x.alpha === ref.alpha && Math.abs(x.eta - ref.eta) < 1e-9)!;
      const se = Math.sqrt((ref.std ** 2 + mine.std ** 2) / FIGURE3.seeds);
      expect(Math.abs(mine.p - ref.p), `α ${ref.alpha} η ${ref.eta}`).toBeLessThanOrEqual(4 * se + 1e-9);
    }
    // The paper's reading of it: η dominates (α 0.5: η 0.7 → 0.95 cuts P_365 several-fold), α barely matters at η 0.9.
    const at = (alpha: number, eta: number) => seen.find((x) => x.alpha === alpha && Math.abs(x.eta - eta) < 1e-9)!.p;
    expect(at(0.5, 0.7) / at(0.5, 0.9)).toBeGreaterThan(2);
    expect(Math.abs(at(0.7, 0.9) - at(0.1, 0.9)) / at(0.1, 0.9)).toBeLessThan(0.4);
  });
});

describe("the simulator's settings in its address", () => {
  it("writes what differs from the start and reads it back; names a value out of range and keeps the start's", () => {
    const moderate = { ...SIM_START, alpha: 0.5, eta: 0.7, lambda: 3.2 };
    const params = simSettingsParams(moderate);
    expect(params.toString()).toBe('lambda=3.2&alpha=0.5&eta=0.7');
    expect(readSimSettings(params)).toEqual({ settings: moderate, problems: [] });
    expect(simSettingsParams(SIM_START).toString()).toBe('');
    const bad = readSimSettings(new URLSearchParams('eta=2&days=abc&h=&seed=7&days=100.5&seeds=10.5&r0=2.5'));
    expect(bad.settings).toEqual({ ...SIM_START, seed: 7, r0: 2.5 });
    expect(bad.problems).toEqual([
      'eta: “2” is not a number from 0 to 1',
      'days: “abc” is not a whole number from 30 to 730',
      'seeds: “10.5” is not a whole number from 10 to 400',
    ]);
    // A fraction where the model counts (days=100.5 made arrays of 100 read at 99.5: the page threw).
    expect(readSimSettings(new URLSearchParams('days=100.5')).problems).toEqual([
      'days: “100.5” is not a whole number from 30 to 730',
    ]);
  });
});
