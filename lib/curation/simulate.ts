/**
 * The Memory Curator paper's Monte Carlo model of hallucination compounding (§4.5, Appendix C):
 * each day brings Poisson(λ) memory events; each is hallucinated with probability h_e; the curator
 * admits a sound event with probability α and a hallucinated one with probability α(1 − η) (η is its
 * filter accuracy; uncurated is α = 1, η = 0). A retrieval surfaces r = ⌊r0 · ln N⌋ entries of the N
 * in memory, uniformly, so the chance that at least one is hallucinated is P_t = 1 − (1 − H/N)^r.
 * Seeded: the same settings and seed give the same runs.
 */
import { rng } from '@/lib/random';
import { readUrlNumber } from '@/lib/url-number';

export interface SimSettings {
  /** Events per day. */
  lambda: number;
  /** Probability an emitted event is hallucinated. */
  hallucination: number;
  /** Admission rate α. */
  alpha: number;
  /** Filter accuracy η. */
  eta: number;
  /** Retrieval size factor: r = ⌊r0 · ln N⌋. */
  r0: number;
  days: number;
  seeds: number;
  seed?: number;
}

export const PAPER_SETTINGS = { lambda: 10, hallucination: 0.1, r0: 5, days: 365, seeds: 200 } as const;

export interface SimResult {
  /** Per day (1…days): mean and standard deviation over seeds of P_t, and mean N and hallucinated entries. */
  mean: Float64Array;
  std: Float64Array;
  entries: Float64Array;
  hallucinated: Float64Array;
}

/** Knuth's Poisson sampler (fine for the small daily rates used here). */
function poisson(lambda: number, random: () => number): number {
  const limit = Math.exp(-lambda);
  let k = 0;
  let p = random();
  while (p > limit) {
    k++;
    p *= random();
  }
  return k;
}

export function retrievalProbability(entries: number, hallucinated: number, r0: number): number {
  if (entries < 1 || hallucinated <= 0) return 0;
  const r = Math.max(1, Math.floor(r0 * Math.log(entries)));
  return 1 - Math.pow(1 - hallucinated / entries, r);
}

export function simulate(s: SimSettings): SimResult {
  const { days, seeds } = s;
  const sum = new Float64Array(days);
  const sumSq = new Float64Array(days);
  const entries = new Float64Array(days);
  const hallucinated = new Float64Array(days);
  const admitSound = s.alpha;
  const admitBad = s.alpha * (1 - s.eta);
  for (let k = 0; k < seeds; k++) {
    const random = rng((s.seed ?? 1) * 1_000_003 + k);
    let n = 0;
    let h = 0;
    for (let d = 0; d < days; d++) {
      const events = poisson(s.lambda, random);
      for (let e = 0; e < events; e++) {
        const bad = random() < s.hallucination;
        if (random() < (bad ? admitBad : admitSound)) {
          n++;
          if (bad) h++;
        }
      }
      const p = retrievalProbability(n, h, s.r0);
      sum[d]! += p;
      sumSq[d]! += p * p;
      entries[d]! += n / seeds;
      hallucinated[d]! += h / seeds;
    }
  }
  const mean = sum.map((x) => x / seeds);
  const std = sumSq.map((x, d) => Math.sqrt(Math.max(0, x / seeds - mean[d]! ** 2)));
  return { mean, std, entries, hallucinated };
}

/**
 * Theorem 1 of the curator paper (§4.2–4.4), the closed form the Monte Carlo validates: with N_t = λt memory entries
 * uncurated and αλt curated, and r(t) = r0·ln N_t retrievals,
 *   P_t^unc ≈ 1 − (λt)^(−r0·h_e),   P_t^cur ≈ 1 − (αλt)^(−r0·h_e·(1−η)),
 *   (1 − P_t^cur) / (1 − P_t^unc) = α^(−r0·h_e·(1−η)) · (λt)^(r0·h_e·η),
 * which grows without bound in t iff η > 0 (Corollary 1). An approximation (first order in h_e): the paper notes the
 * simulated P_t rises faster than it.
 */
export function theorem1(
  s: Pick<SimSettings, 'lambda' | 'hallucination' | 'alpha' | 'eta' | 'r0'>,
  day: number,
): { uncurated: number; curated: number; ratio: number } {
  const k = s.r0 * s.hallucination;
  // A probability: before the first entry (αλt < 1) the closed form would go below 0.
  const p = (x: number) => Math.min(1, Math.max(0, x));
  const uncurated = p(1 - Math.pow(s.lambda * day, -k));
  const curated = p(1 - Math.pow(s.alpha * s.lambda * day, -k * (1 - s.eta)));
  const ratio = Math.pow(s.alpha, -k * (1 - s.eta)) * Math.pow(s.lambda * day, k * s.eta);
  return { uncurated, curated, ratio };
}

/** The curator paper's Figure 3 sweep (its scripts/mc_simulation.py): P_365 for η 0, 0.1 … 1 at α 0.1 … 1. */
export const FIGURE3 = {
  etas: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
  alphas: [0.1, 0.3, 0.5, 0.7, 1],
  days: 365,
  seeds: 80,
} as const;

export interface SweepPoint {
  alpha: number;
  eta: number;
  /** Mean and standard deviation over seeds of P at the last day. */
  p: number;
  std: number;
}

/** One α row of the sweep (so that a page can compute it a row at a time without freezing). */
export function sweepRow(
  s: Pick<SimSettings, 'lambda' | 'hallucination' | 'r0'> & { seed?: number },
  alpha: number,
  etas: readonly number[] = FIGURE3.etas,
  days: number = FIGURE3.days,
  seeds: number = FIGURE3.seeds,
): SweepPoint[] {
  return etas.map((eta) => {
    const r = simulate({ ...s, alpha, eta, days, seeds });
    return { alpha, eta, p: r.mean[days - 1]!, std: r.std[days - 1]! };
  });
}

/** The simulator's settings at first: the paper's, at its practical curator (α 0.3, η 0.9). */
export const SIM_START: Required<SimSettings> = { ...PAPER_SETTINGS, alpha: 0.3, eta: 0.9, seed: 1 };

/** Each setting of the simulator: its key in the page's address, and the range its slider offers. */
export const SIM_FIELDS: { key: keyof SimSettings; url: string; min: number; max: number; step: number }[] = [
  { key: 'lambda', url: 'lambda', min: 1, max: 50, step: 0.1 },
  { key: 'hallucination', url: 'h', min: 0, max: 0.5, step: 0.01 },
  { key: 'alpha', url: 'alpha', min: 0.05, max: 1, step: 0.01 },
  { key: 'eta', url: 'eta', min: 0, max: 1, step: 0.01 },
  { key: 'r0', url: 'r0', min: 1, max: 10, step: 0.5 },
  { key: 'days', url: 'days', min: 30, max: 730, step: 5 },
  { key: 'seeds', url: 'seeds', min: 10, max: 400, step: 10 },
  { key: 'seed', url: 'seed', min: 1, max: 100, step: 1 },
];

/**
 * The settings a link names (`?alpha=0.5&eta=0.7`), the start's for the rest; each value out of its slider's range,
 * or no number, is named in `problems` and not used.
 */
export function readSimSettings(params: URLSearchParams): { settings: Required<SimSettings>; problems: string[] } {
  const settings = { ...SIM_START };
  const problems: string[] = [];
  for (const f of SIM_FIELDS) {
    // A slider's step of 1 or more takes whole numbers (days=100.5 made arrays of 100 read at 99.5).
    const v = readUrlNumber(params, f.url, { min: f.min, max: f.max, integer: f.step >= 1 }, problems);
    if (v !== undefined) settings[f.key] = v;
  }
  return { settings, problems };
}

/** The address's parameters for `s`: only what differs from the start. */
export function simSettingsParams(s: SimSettings): URLSearchParams {
  const params = new URLSearchParams();
  for (const f of SIM_FIELDS)
    if (s[f.key] !== undefined && s[f.key] !== SIM_START[f.key]) params.set(f.url, String(s[f.key]));
  return params;
}
