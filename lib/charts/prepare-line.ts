/** A small multi-line chart, prepared: d3 does the scales, ticks and paths; `components/ui/line-chart.tsx` draws. */
import { line, scaleLinear } from 'd3';

/** The plotting area's edges, in pixels. */
export interface LineFrame {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export interface LineSeries {
  key: string;
  label: string;
  color: string;
  values: { x: number; y: number }[];
  dashed?: boolean;
  /** Draw a dot at each value (measured points, e.g. a reference's figures). */
  dots?: boolean;
  /**
   * A trajectory (values in time order, x not increasing): its first and last points marked and labelled, so that
   * where it starts and ends can be read when it doubles back; drawn thinner.
   */
  ends?: { first: string; last: string };
}

export interface PreparedLineChart {
  frame: LineFrame;
  yTicks: { value: number; y: number }[];
  xTicks: { value: number; x: number }[];
  xLabel: { x: number; y: number };
  paths: {
    key: string;
    d: string;
    color: string;
    dashed: boolean;
    dots: { x: number; y: number }[];
    /** A trajectory's first and last points, labelled (`LineSeries.ends`); the label's side keeps it in the frame. */
    ends: { x: number; y: number; label: string; last: boolean; anchor: 'start' | 'end'; labelY: number }[];
    thin: boolean;
  }[];
  /** Each series with its last value (whole numbers without decimals, others with two), if it has one. */
  legend: { key: string; label: string; color: string; last: string | null }[];
}

/**
 * A small multi-line chart: x from 0 (or below) to at least 1, or the data's extent with `fitX`; y from 0 to `yMax` or
 * the data's niced maximum.
 */
export function prepareLineChart(
  series: readonly LineSeries[],
  width: number,
  height: number,
  yMax?: number,
  /** x over the data's own extent (niced), not from 0. */
  fitX = false,
): PreparedLineChart {
  const m = { l: 44, r: 12, t: 10, b: 32 };
  const xs = series.flatMap((s) => s.values.map((v) => v.x));
  const ys = series.flatMap((s) => s.values.map((v) => v.y));
  const x = scaleLinear()
    .domain(fitX && xs.length ? [Math.min(...xs), Math.max(...xs)] : [Math.min(...xs, 0), Math.max(...xs, 1)])
    .range([m.l, width - m.r]);
  if (fitX) x.nice();
  const y = scaleLinear()
    .domain([0, yMax ?? Math.max(1, ...ys)])
    .nice()
    .range([height - m.b, m.t]);
  const path = line<{ x: number; y: number }>()
    .x((d) => x(d.x))
    .y((d) => y(d.y));
  // One number format for the legend's values: two decimals for all when any is a fraction ("1.00" beside "0.92").
  const decimals = series.some((s) => !Number.isInteger(s.values.at(-1)?.y ?? 0)) ? 2 : 0;
  return {
    frame: { left: m.l, right: width - m.r, top: m.t, bottom: height - m.b },
    yTicks: y.ticks(5).map((value) => ({ value, y: y(value) })),
    xTicks: x.ticks(8).map((value) => ({ value, x: x(value) })),
    xLabel: { x: (m.l + width - m.r) / 2, y: height - 4 },
    paths: series.map((s) => ({
      key: s.key,
      d: path(s.values) ?? '',
      color: s.color,
      dashed: !!s.dashed,
      dots: s.dots ? s.values.map((v) => ({ x: x(v.x), y: y(v.y) })) : [],
      ends:
        s.ends && s.values.length
          ? [
              ...(s.values.length > 1 ? [{ v: s.values[0]!, label: s.ends.first, last: false }] : []),
              { v: s.values.at(-1)!, label: s.ends.last, last: true },
            ].map(({ v, label, last }) => ({
              x: x(v.x),
              y: y(v.y),
              label,
              last,
              anchor: x(v.x) > (m.l + width - m.r) / 2 ? ('end' as const) : ('start' as const),
              // Above the point, or below it where above would leave the chart.
              labelY: y(v.y) - 6 < m.t + 8 ? y(v.y) + 15 : y(v.y) - 6,
            }))
          : [],
      thin: !!s.ends,
    })),
    legend: series.map((s) => {
      const last = s.values.at(-1)?.y;
      return { key: s.key, label: s.label, color: s.color, last: last === undefined ? null : last.toFixed(decimals) };
    }),
  };
}
