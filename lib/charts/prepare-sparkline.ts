import { extent, line, scaleLinear } from 'd3';

export interface SparkSeries {
  key: string;
  values: readonly (number | null)[];
}

export interface PreparedSparkline {
  paths: { key: string; d: string; last: { x: number; y: number } | null }[];
  max: number | null;
}

/**
 * Paths for a small multi-series line chart sharing one y scale (so CCS and transcript footprints
 * are comparable at a glance). Gaps (null) break the line.
 */
export function prepareSparkline(
  series: readonly SparkSeries[],
  width: number,
  height: number,
  pad = 2,
): PreparedSparkline {
  const all = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  if (!all.length) return { paths: [], max: null };
  const [, hi] = extent(all) as [number, number];
  const n = Math.max(...series.map((s) => s.values.length));
  const x = scaleLinear()
    .domain([0, Math.max(1, n - 1)])
    .range([pad, width - pad]);
  const y = scaleLinear()
    .domain([0, hi || 1])
    .range([height - pad, pad]);
  const gen = line<number | null>()
    .defined((v) => v !== null)
    .x((_, i) => x(i))
    .y((v) => y(v ?? 0));
  return {
    max: hi,
    paths: series.map((s) => {
      const lastIndex = s.values.findLastIndex((v) => v !== null);
      return {
        key: s.key,
        d: gen(s.values as (number | null)[]) ?? '',
        last: lastIndex >= 0 ? { x: x(lastIndex), y: y(s.values[lastIndex]!) } : null,
      };
    }),
  };
}
