import { extent, line, scaleLinear } from 'd3';

export interface Series {
  key: string;
  label: string;
  values: readonly (number | null)[];
}

export interface PreparedSeries {
  paths: { key: string; d: string }[];
  yTicks: { y: number; value: number }[];
  /** x position of turn index i. */
  x: (i: number) => number;
  /** Turn index nearest to an x position. */
  indexAt: (px: number) => number;
  y: (v: number) => number;
}

/**
 * Scales and paths for a per-turn chart (d3 does the maths, React draws). All series share the y
 * scale, from 0 (or the data minimum when below 0) to the maximum; gaps (null) break the lines.
 */
export function prepareSeries(
  series: readonly Series[],
  n: number,
  width: number,
  height: number,
  margin = { left: 44, right: 8, top: 6, bottom: 14 },
): PreparedSeries {
  const all = series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  const [lo, hi] = all.length ? (extent(all) as [number, number]) : [0, 1];
  const x = scaleLinear()
    .domain([0, Math.max(1, n - 1)])
    .range([margin.left, width - margin.right]);
  const y = scaleLinear()
    .domain([Math.min(0, lo), hi > 0 ? hi : 1])
    .nice(3)
    .range([height - margin.bottom, margin.top]);
  const gen = line<number | null>()
    .defined((v) => v !== null && Number.isFinite(v))
    .x((_, i) => x(i))
    .y((v) => y(v ?? 0));
  return {
    paths: series.map((s) => ({ key: s.key, d: gen(s.values as (number | null)[]) ?? '' })),
    yTicks: y.ticks(3).map((value) => ({ value, y: y(value) })),
    x: (i) => x(i),
    indexAt: (px) => Math.max(0, Math.min(n - 1, Math.round(x.invert(px)))),
    y: (v) => y(v),
  };
}
