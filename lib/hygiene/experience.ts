/**
 * The experience-following property ("How Memory Management Impacts LLM Agents: An Empirical Study of
 * Experience-Following Behavior", §4.3 and Appendix A.2), measured on the recorded recalls:
 * - per turn, the input similarity is the highest similarity between the turn's task and the memory records it
 *   recalled, and the output similarity is that of the record with the highest input similarity (A.2);
 * - the correlation between the two (Pearson r, over turns; and over every recall, as the scatter shows them);
 * - the paper's cumulative averages over the sequence of executions (Figure 4): cumulative mean input similarity
 *   against cumulative mean output similarity (left) and against cumulative performance (right; here the turns'
 *   utility, the success rate's analogue).
 */

export interface Recall {
  /** The turn's step in the agent's timeline. */
  step: number;
  inputSim: number | null;
  outputSim: number | null;
  /** The turn's utility, when known. */
  utility: number | null;
}

export interface CumulativePoint {
  step: number;
  /** Turns counted so far. */
  n: number;
  input: number;
  output: number;
  /** Null until a turn with a known utility was seen. */
  performance: number | null;
}

export interface ExperienceFollowing {
  /** Turns with at least one recall whose similarities are known. */
  turns: number;
  recalls: number;
  /** Pearson r between a turn's input and output similarity (A.2's per-turn pair); null under 3 turns. */
  r: number | null;
  /** Pearson r over every recall (the scatter's points). */
  rRecalls: number | null;
  /** Cumulative averages, at most `maxPoints` (every k-th turn and the last). */
  cumulative: CumulativePoint[];
}

/** Pearson's correlation coefficient; null when fewer than 3 pairs or a side does not vary. */
export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = Math.min(xs.length, ys.length);
  if (n < 3) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i]!;
    my += ys[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
}

export function experienceFollowing(recalls: readonly Recall[], maxPoints = 400): ExperienceFollowing {
  const known = recalls.filter(
    (x): x is Recall & { inputSim: number; outputSim: number } => x.inputSim !== null && x.outputSim !== null,
  );
  // Per turn: the recall with the highest input similarity (A.2).
  const best = new Map<number, (typeof known)[number]>();
  for (const x of known) {
    const b = best.get(x.step);
    if (!b || x.inputSim > b.inputSim) best.set(x.step, x);
  }
  const turns = [...best.values()].sort((a, b) => a.step - b.step);
  const cumulative: CumulativePoint[] = [];
  let sIn = 0;
  let sOut = 0;
  let sPerf = 0;
  let nPerf = 0;
  const every = Math.max(1, Math.ceil(turns.length / maxPoints));
  turns.forEach((t, i) => {
    sIn += t.inputSim;
    sOut += t.outputSim;
    if (t.utility !== null) {
      sPerf += t.utility;
      nPerf++;
    }
    if (i % every === 0 || i === turns.length - 1)
      cumulative.push({
        step: t.step,
        n: i + 1,
        input: sIn / (i + 1),
        output: sOut / (i + 1),
        performance: nPerf ? sPerf / nPerf : null,
      });
  });
  return {
    turns: turns.length,
    recalls: known.length,
    r: pearson(
      turns.map((t) => t.inputSim),
      turns.map((t) => t.outputSim),
    ),
    rRecalls: pearson(
      known.map((x) => x.inputSim),
      known.map((x) => x.outputSim),
    ),
    cumulative,
  };
}
