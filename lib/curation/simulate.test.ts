import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAPER_SETTINGS, retrievalProbability, simulate } from './simulate';

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
