'use client';

import { prepareLineChart, type LineSeries } from '@/lib/charts/prepare-line';
import { useWidth } from './use-width';

/** A small multi-line chart (memory size over steps, cumulative curves, the curator's Figure 3 sweep). */
export function LineChart({
  series,
  xLabel,
  yLabel,
  height = 240,
  yMax,
  testId,
  showLast = true,
  fitX = false,
  lastLabel,
}: {
  series: LineSeries[];
  xLabel: string;
  yLabel: string;
  height?: number;
  yMax?: number;
  testId?: string;
  /** Print each series' last value in the legend (not for curves whose last point says nothing). */
  showLast?: boolean;
  /** x over the data's extent rather than from 0. */
  fitX?: boolean;
  /** What the legend's last values are, when not plain ("last window"). */
  lastLabel?: string;
}) {
  const [ref, width] = useWidth<HTMLDivElement>(700);
  const c = prepareLineChart(series, width, height, yMax, fitX);
  const f = c.frame;
  return (
    <div ref={ref} className="chart" data-testid={testId}>
      <svg width={width} height={height} role="img" aria-label={`${yLabel} by ${xLabel}`}>
        {c.yTicks.map((t) => (
          <g key={t.value}>
            <line className="grid" x1={f.left} x2={f.right} y1={t.y} y2={t.y} />
            <text className="axis" x={f.left - 6} y={t.y + 4} textAnchor="end">
              {t.value}
            </text>
          </g>
        ))}
        {c.xTicks.map((t) => (
          <text key={t.value} className="axis" x={t.x} y={f.bottom + 14} textAnchor="middle">
            {t.value}
          </text>
        ))}
        <text className="axis" x={c.xLabel.x} y={c.xLabel.y} textAnchor="middle">
          {xLabel}
        </text>
        <text
          className="axis"
          transform={`translate(10, ${(f.top + f.bottom) / 2}) rotate(-90)`}
          textAnchor="middle"
          data-testid="y-title"
        >
          {yLabel}
        </text>
        {c.paths.map((p) => (
          <path
            key={p.key}
            d={p.d}
            fill="none"
            stroke={p.color}
            strokeWidth={p.thin ? 1.25 : 2}
            strokeDasharray={p.dashed ? '4 3' : undefined}
          />
        ))}
        {c.paths.flatMap((p) =>
          p.ends.map((e) => (
            <g key={`${p.key}-${e.last ? 'last' : 'first'}`} data-end={e.last ? 'last' : 'first'}>
              <circle
                cx={e.x}
                cy={e.y}
                r={4}
                fill={e.last ? p.color : 'var(--panel)'}
                stroke={p.color}
                strokeWidth={1.5}
              />
              <text className="axis" x={e.x + (e.anchor === 'start' ? 7 : -7)} y={e.labelY} textAnchor={e.anchor}>
                {e.label}
              </text>
            </g>
          )),
        )}
        {c.paths.flatMap((p) =>
          p.dots.map((d, i) => <circle key={`${p.key}-${i}`} cx={d.x} cy={d.y} r={3} fill={p.color} />),
        )}
      </svg>
      <div className="legend">
        {c.legend.map((s) => (
          <span key={s.key}>
            <i style={{ background: s.color }} /> {s.label}
            {showLast && s.last !== null ? (
              <>
                {lastLabel ? <span className="faint"> {lastLabel}</span> : null}
                <b style={{ marginLeft: 4 }}>{s.last}</b>
              </>
            ) : null}
          </span>
        ))}
      </div>
    </div>
  );
}
