'use client';

import { ticks } from 'd3';
import { useMemo, useState } from 'react';
import { prepareSeries, type Series } from '@/lib/charts/prepare-series';
import { useWidth } from '@/components/ui/use-width';

const COLORS = ['var(--series-1)', 'var(--series-2)', 'var(--series-3)', 'var(--series-4)'];
const HEIGHT = 96;

interface Props {
  title: string;
  series: Series[];
  /** Turns in the session, and turns per bucket of the series. */
  n: number;
  size: number;
  /** Turn number at an index. */
  turnAt: (i: number) => number;
  /** Stress turns, by index. */
  stress: readonly [number, string][];
  /** What the stress lines mark, in the legend (a session's charts say so in their own legend). */
  stressLabel?: string;
  /** The current turn (the cursor line); null draws none. */
  index: number | null;
  /** What a point of the x axis is called: a session's turn, or a substrate's step t. */
  unit?: 'turn' | 't';
  /** The current turn's exact values by series key, once its turn is loaded. */
  current?: Record<string, number | null>;
  format: (v: number | null) => string;
  /** A click at a point; none, and the chart is not clickable. */
  onJump?: (index: number) => void;
  /** Before the values have come, the keys of the series that have some: the head as it will be, a placeholder plot. */
  pending?: readonly string[];
  /** Name in the legend the series that have no value at all (two runs side by side: one may report none). */
  sayMissing?: boolean;
}

/**
 * A per-turn chart linked to the player: the cursor is the current turn, hover shows a turn's values, click jumps
 * there. Two layers: the lines, axes and stress marks, drawn once per data and width from paths reduced to the
 * pixels they occupy, and above them the cursor and hover lines, the only thing a step redraws.
 */
export function SeriesChart({
  title,
  series,
  n,
  size,
  turnAt,
  stress,
  stressLabel,
  index,
  unit = 'turn',
  current,
  format,
  onJump,
  pending,
  sayMissing = false,
}: Props) {
  const [ref, width] = useWidth<HTMLDivElement>(360);
  const [hover, setHover] = useState<number | null>(null);
  const p = useMemo(() => prepareSeries(series, n, size, width, HEIGHT), [series, n, size, width]);
  // One mark a pixel column, however many stress turns share it.
  const stressColumns = useMemo(() => {
    const xs = new Set<number>();
    for (const [i] of stress) xs.add(Math.round(p.x(i)));
    return [...xs];
  }, [stress, p]);
  // A hovered turn shows its bucket: the value itself when a bucket is one turn, else the range of its turns.
  const valueAt = (s: Series, i: number): string => {
    if (hover === null && current && s.key in current) return format(current[s.key] ?? null);
    const j = s.own ? s.own.from(i) : i;
    if (j === null) return '—';
    const k = Math.floor(j / (s.own?.size ?? size));
    const lo = s.m4.min[k] ?? null;
    const hi = s.m4.max[k] ?? null;
    return lo === hi || lo === null || hi === null ? format(lo) : `${format(lo)}–${format(hi)}`;
  };
  // With no cursor (a chart not linked to a player) and nothing hovered, the legend reads the latest point.
  const latest = hover === null && index === null && n > 0;
  // A step picked on a chart of steps (a click on Judgment's reward chart): its values, and which step they are.
  const picked = hover === null && index !== null && unit === 't';
  const shown = hover ?? index ?? (latest ? n - 1 : null);
  const at = (i: number) => (unit === 't' ? `t ${turnAt(i)}` : `turn ${turnAt(i)}`);
  const range = (a: number, b: number) =>
    unit === 't' ? `t ${turnAt(a)}–${turnAt(b)}` : `turns ${turnAt(a)}–${turnAt(b)}`;
  const bucketStart = (i: number) => Math.floor(i / size) * size;
  // Round turns (or steps) between the ends, one per ~120 px, none within 60 px of an end's label; each at the first
  // point whose turn is at least the round value (turns are in order; a session may skip some).
  const xTicks = useMemo(() => {
    if (n < 2) return [];
    const first = turnAt(0);
    const last = turnAt(n - 1);
    const at = (v: number) => {
      let lo = 0;
      let hi = n - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (turnAt(mid) < v) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const out = ticks(first, last, Math.max(1, Math.floor(width / 120)))
      .filter(Number.isInteger)
      .map(at)
      .filter((i) => p.x(i) - p.x(0) > 60 && p.x(n - 1) - p.x(i) > 60);
    return [...new Set(out)];
    // turnAt is read when the data change (n, p); a new function each render would redraw on every step.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [n, width, p]);
  // Axes, stress marks and lines do not move with the player: built once per data and width.
  const statics = useMemo(
    () => (
      <>
        {p.yTicks.map((t) => (
          <g key={t.value}>
            <line x1={44} x2={width - 8} y1={t.y} y2={t.y} className="grid" />
            <text x={40} y={t.y + 3} textAnchor="end" className="axis">
              {format(t.value)}
            </text>
          </g>
        ))}
        {stressColumns.map((x) => (
          <line key={x} x1={x} x2={x} y1={6} y2={HEIGHT - 14} className="stress-line" />
        ))}
        {p.paths.map((s, i) => (
          <path
            key={s.key}
            d={s.d}
            fill="none"
            stroke={COLORS[i % COLORS.length]}
            strokeWidth={1.5}
            strokeLinejoin="round"
          />
        ))}
      </>
    ),
    [p, stressColumns, width, format],
  );
  const present = useMemo(
    () => series.filter((s) => (pending ? pending.includes(s.key) : s.m4.max.some((v) => v !== null))),
    [series, pending],
  );
  return (
    <div className="chart" ref={ref} data-testid={`chart-${title}`}>
      <div className="chart-head">
        <span className="chart-title">{title}</span>
        <span className="legend">
          {present.map((s) => (
            <span key={s.key}>
              <i style={{ background: COLORS[series.indexOf(s) % COLORS.length] }} />
              {s.label} <b>{shown === null ? '—' : valueAt(s, shown)}</b>
            </span>
          ))}
          {sayMissing && !pending && present.length
            ? series
                .filter((s) => !present.includes(s))
                .map((s) => (
                  <span key={s.key} className="faint" data-testid="not-reported">
                    {s.label}: not reported
                  </span>
                ))
            : null}
          {stressLabel && stress.length ? (
            <span>
              <i className="legend-stress" />
              {stressLabel}
            </span>
          ) : null}
          {hover !== null || latest || picked ? (
            <span className="faint" data-testid="legend-at">
              {hover === null
                ? latest
                  ? `${at(n - 1)}, the latest`
                  : at(index!)
                : size > 1
                  ? range(bucketStart(hover), Math.min(n - 1, bucketStart(hover) + size - 1))
                  : at(hover)}
            </span>
          ) : null}
        </span>
      </div>
      {pending ? (
        <div className="skeleton" style={{ height: HEIGHT }} />
      ) : present.length && n < 2 ? (
        // One point is no line: its figures are in the legend above.
        <div className="faint chart-one" data-testid="chart-one-point">
          one {unit === 't' ? 'step' : 'turn'}: nothing to plot over time yet
        </div>
      ) : present.length ? (
        <div className="chart-plot" style={{ width, height: HEIGHT }}>
          <svg width={width} height={HEIGHT} aria-hidden="true">
            {statics}
            {/* The x axis's ends: which turns (or steps) the chart spans, and a few between, clear of the ends. */}
            {n > 1 ? (
              <>
                {xTicks.map((i) => (
                  <g key={i} data-tick={turnAt(i)}>
                    <line x1={p.x(i)} x2={p.x(i)} y1={HEIGHT - 14} y2={HEIGHT - 11} className="axis-tick" />
                    <text x={p.x(i)} y={HEIGHT - 2} textAnchor="middle" className="axis">
                      {turnAt(i)}
                    </text>
                  </g>
                ))}
                <text x={p.x(0)} y={HEIGHT - 2} textAnchor="start" className="axis" data-end="first">
                  {at(0)}
                </text>
                <text x={p.x(n - 1)} y={HEIGHT - 2} textAnchor="end" className="axis" data-end="last">
                  {at(n - 1)}
                </text>
              </>
            ) : null}
          </svg>
          <svg
            className={onJump ? 'chart-overlay' : 'chart-overlay chart-static'}
            width={width}
            height={HEIGHT}
            onPointerMove={(e) => setHover(p.indexAt(e.clientX - e.currentTarget.getBoundingClientRect().left))}
            onPointerLeave={() => setHover(null)}
            onClick={
              onJump ? (e) => onJump(p.indexAt(e.clientX - e.currentTarget.getBoundingClientRect().left)) : undefined
            }
            role="img"
            aria-label={title}
          >
            {index !== null ? (
              <line x1={p.x(index)} x2={p.x(index)} y1={4} y2={HEIGHT - 12} className="cursor-line" />
            ) : null}
            {hover !== null ? (
              <line x1={p.x(hover)} x2={p.x(hover)} y1={4} y2={HEIGHT - 12} className="hover-line" />
            ) : null}
          </svg>
        </div>
      ) : (
        <div className="faint" style={{ height: HEIGHT, display: 'grid', placeItems: 'center' }}>
          {unit === 't' ? 'not reported' : 'not reported in this session'}
        </div>
      )}
    </div>
  );
}
