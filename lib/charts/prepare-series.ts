import { scaleLinear } from 'd3';

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

const finite = (v: number | null | undefined): v is number => v !== null && v !== undefined && Number.isFinite(v);

/**
 * One series' path, at most four points per pixel column (first, min, max, last of the turns the column holds,
 * the M4 reduction): a line drawn from it is pixel-for-pixel the line of every turn, so a 100,000-turn session
 * draws ~1,000 points, not 100,000, and no spike is lost. Turns without a value break the line.
 */
function pathOf(values: readonly (number | null)[], x: (i: number) => number, y: (v: number) => number): string {
  const out: string[] = [];
  let pen = false;
  const to = (i: number, v: number) => {
    out.push(`${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`);
    pen = true;
  };
  let column = NaN;
  // The open column: its first, lowest, highest and last turn with a value.
  let first = -1;
  let lo = -1;
  let hi = -1;
  let last = -1;
  const flush = () => {
    if (first < 0) return;
    const picks = [...new Set([first, lo, hi, last])].sort((a, b) => a - b);
    for (const i of picks) to(i, values[i]!);
    first = lo = hi = last = -1;
  };
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!finite(v)) {
      flush();
      pen = false;
      column = NaN;
      continue;
    }
    const c = Math.round(x(i));
    if (c !== column) {
      flush();
      column = c;
    }
    if (first < 0) first = lo = hi = i;
    if (v < values[lo]!) lo = i;
    if (v > values[hi]!) hi = i;
    last = i;
  }
  flush();
  return out.join('');
}

/**
 * Scales and paths for a per-turn chart (d3 does the maths, React draws). All series share the y
 * scale, from 0 (or the data minimum when below 0) to the maximum; gaps (null) break the lines. Paths are
 * reduced to the pixels they occupy (`pathOf`), so their size follows the chart's width, not the session's length.
 */
export function prepareSeries(
  series: readonly Series[],
  n: number,
  width: number,
  height: number,
  margin = { left: 44, right: 8, top: 6, bottom: 14 },
): PreparedSeries {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series)
    for (const v of s.values)
      if (finite(v)) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
  if (lo === Infinity) [lo, hi] = [0, 1];
  const x = scaleLinear()
    .domain([0, Math.max(1, n - 1)])
    .range([margin.left, width - margin.right]);
  const y = scaleLinear()
    .domain([Math.min(0, lo), hi > 0 ? hi : 1])
    .nice(3)
    .range([height - margin.bottom, margin.top]);
  return {
    paths: series.map((s) => ({ key: s.key, d: pathOf(s.values, x, y) })),
    yTicks: y.ticks(3).map((value) => ({ value, y: y(value) })),
    x: (i) => x(i),
    indexAt: (px) => Math.max(0, Math.min(n - 1, Math.round(x.invert(px)))),
    y: (v) => y(v),
  };
}
