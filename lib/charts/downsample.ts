/**
 * Reduces a series to at most `max` points by taking the mean of each bucket (nulls skipped;
 * a bucket of nulls stays null), so a sparkline of a 20,000-turn session stays cheap.
 */
export function downsample(values: readonly (number | null)[], max: number): (number | null)[] {
  if (values.length <= max) return [...values];
  const out: (number | null)[] = [];
  const size = values.length / max;
  for (let b = 0; b < max; b++) {
    let sum = 0;
    let n = 0;
    for (let i = Math.floor(b * size); i < Math.floor((b + 1) * size); i++) {
      const v = values[i];
      if (v !== null && v !== undefined) {
        sum += v;
        n++;
      }
    }
    out.push(n ? sum / n : null);
  }
  return out;
}
