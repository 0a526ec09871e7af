import { scaleLinear } from 'd3';

import type { M4 } from '@/lib/ccs/digest';

/** A per-turn figure as the session digest keeps it: per bucket of `size` turns, its first/min/max/last value. */
export interface Series {
  key: string;
  label: string;
  m4: M4;
  /**
   * A series of another session laid over the chart's (Compare runs): its own length and bucket size, where its turn
   * index j lies on the chart's index scale, and which of its indexes stands at a chart index (null: none).
   */
  own?: { n: number; size: number; at: (j: number) => number; from: (i: number) => number | null };
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

/** A series of one value per point (buckets of one): for charts of short series that are not session digests. */
export function perPoint(values: readonly (number | null)[]): M4 {
  const v = values.map((x) => (finite(x) ? x : null));
  return { first: v, min: v, max: v, last: v };
}

/**
 * The values of a series in turn order as (turn index, value) samples: each bucket's first, lowest, highest and last
 * value at its first, middle and last turn (the highest before the lowest when the bucket falls); null where a bucket
 * has none (the line breaks there).
 */
function* samples(m: M4, n: number, size: number): Generator<[number, number | null]> {
  for (let k = 0; k < m.first.length; k++) {
    const first = m.first[k] ?? null;
    if (first === null) {
      yield [k * size, null];
      continue;
    }
    const start = k * size;
    const end = Math.min(n - 1, start + size - 1);
    if (end === start) {
      yield [start, first];
      continue;
    }
    const mid = (start + end) / 2;
    const last = m.last[k]!;
    const [a, b] = first > last ? [m.max[k]!, m.min[k]!] : [m.min[k]!, m.max[k]!];
    yield [start, first];
    yield [mid, a];
    yield [mid, b];
    yield [end, last];
  }
}

/** A circle of radius 2.5 from its leftmost point, in two arcs. */
const RING = 'a2.5,2.5 0 1 0 5,0a2.5,2.5 0 1 0 -5,0';

/**
 * One series' path, at most four points per pixel column (first, min, max, last of the samples the column holds,
 * the M4 reduction): a line drawn from it is pixel-for-pixel the line of every turn, so a 100,000-turn session
 * draws ~1,000 points, not 100,000, and no spike is lost. Buckets without a value break the line.
 */
function pathOf(m: M4, n: number, size: number, x: (i: number) => number, y: (v: number) => number): string {
  const out: string[] = [];
  let pen = false;
  // A value with no neighbour (a turn that reported it between turns that did not) would be a line of one point,
  // which draws nothing: it becomes a small ring around it (a 3 px dash read as a stray mark on the axis).
  let alone: [number, number] | null = null;
  const lift = () => {
    if (alone) out[out.length - 1] = `M${(alone[0] - 2.5).toFixed(1)},${alone[1].toFixed(1)}${RING}`;
    alone = null;
    pen = false;
  };
  const to = (i: number, v: number) => {
    out.push(`${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`);
    alone = pen ? null : [x(i), y(v)];
    pen = true;
  };
  let column = NaN;
  // The open column: its first, lowest, highest and last sample.
  let open: [number, number][] = [];
  const flush = () => {
    if (!open.length) return;
    let lo = open[0]!;
    let hi = open[0]!;
    for (const s of open) {
      if (s[1] < lo[1]) lo = s;
      if (s[1] > hi[1]) hi = s;
    }
    const picks = [...new Set([open[0]!, lo, hi, open.at(-1)!])].sort((a, b) => a[0] - b[0]);
    for (const [i, v] of picks) to(i, v);
    open = [];
  };
  for (const [i, v] of samples(m, n, size)) {
    if (!finite(v)) {
      flush();
      lift();
      column = NaN;
      continue;
    }
    const c = Math.round(x(i));
    if (c !== column) {
      flush();
      column = c;
    }
    open.push([i, v]);
  }
  flush();
  lift();
  return out.join('');
}

/**
 * Scales and paths for a per-turn chart (d3 does the maths, React draws). All series share the y
 * scale, from 0 (or the data minimum when below 0) to the maximum; gaps (null) break the lines. Paths are
 * reduced to the pixels they occupy (`pathOf`), so their size follows the chart's width, not the session's length;
 * `size` is the number of turns per bucket of the series.
 */
export function prepareSeries(
  series: readonly Series[],
  n: number,
  size: number,
  width: number,
  height: number,
  margin = { left: 44, right: 8, top: 6, bottom: 14 },
): PreparedSeries {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) {
    for (const v of s.m4.min) if (finite(v) && v < lo) lo = v;
    for (const v of s.m4.max) if (finite(v) && v > hi) hi = v;
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
    paths: series.map((s) => ({
      key: s.key,
      d: s.own ? pathOf(s.m4, s.own.n, s.own.size, (j) => x(s.own!.at(j)), y) : pathOf(s.m4, n, size, x, y),
    })),
    yTicks: y.ticks(3).map((value) => ({ value, y: y(value) })),
    x: (i) => x(i),
    indexAt: (px) => Math.max(0, Math.min(n - 1, Math.round(x.invert(px)))),
    y: (v) => y(v),
  };
}
