'use client';

import { scaleLinear, line as d3line } from 'd3';
import { useWidth } from '@/components/ui/use-width';

export interface ScatterPoint {
  key: string;
  record: string;
  x: number;
  y: number;
  utility: number | null;
  flagged: boolean;
  label: string;
}

/**
 * The paper's experience-following plot: one dot per retrieval, input similarity (query vs the
 * record's query) against output similarity (the turn's output vs the record's execution). The
 * shaded corner is where the misalignment rule fires.
 */
export function Scatter({
  points,
  inputMin,
  outputMax,
  selected,
  onSelect,
}: {
  points: ScatterPoint[];
  inputMin: number;
  outputMax: number;
  selected: string | null;
  onSelect: (record: string) => void;
}) {
  const [ref, width] = useWidth<HTMLDivElement>(560);
  const h = 300;
  const m = { l: 40, r: 12, t: 10, b: 34 };
  const lo = Math.min(0.4, ...points.map((p) => Math.min(p.x, p.y)));
  const x = scaleLinear()
    .domain([lo, 1])
    .range([m.l, width - m.r]);
  const y = scaleLinear()
    .domain([lo, 1])
    .range([h - m.b, m.t]);
  const ticks = x.ticks(6);
  return (
    <div ref={ref} className="chart" data-testid="scatter">
      <svg
        width={width}
        height={h}
        role="img"
        aria-label={`Input similarity against output similarity for ${points.length} retrievals`}
      >
        <rect
          x={x(inputMin)}
          y={y(outputMax)}
          width={Math.max(0, x(1) - x(inputMin))}
          height={Math.max(0, y(lo) - y(outputMax))}
          fill="var(--danger-soft)"
        />
        <text x={x(1) - 4} y={y(lo) - 6} textAnchor="end" className="axis" fill="var(--danger)">
          misaligned: similar input, output not followed
        </text>
        {ticks.map((t) => (
          <g key={t}>
            <line className="grid" x1={x(t)} x2={x(t)} y1={m.t} y2={h - m.b} />
            <line className="grid" x1={m.l} x2={width - m.r} y1={y(t)} y2={y(t)} />
            <text className="axis" x={x(t)} y={h - m.b + 14} textAnchor="middle">
              {t.toFixed(1)}
            </text>
            <text className="axis" x={m.l - 6} y={y(t) + 4} textAnchor="end">
              {t.toFixed(1)}
            </text>
          </g>
        ))}
        <text className="axis" x={(m.l + width - m.r) / 2} y={h - 4} textAnchor="middle">
          input similarity (query vs record&apos;s query)
        </text>
        <text className="axis" transform={`translate(11 ${(m.t + h - m.b) / 2}) rotate(-90)`} textAnchor="middle">
          output similarity
        </text>
        {points.map((p) => (
          <circle
            key={p.key}
            cx={x(p.x)}
            cy={y(p.y)}
            r={p.record === selected ? 6 : p.flagged ? 4.5 : 3.5}
            fill={p.utility === null ? 'var(--faint)' : p.utility < 0.5 ? 'var(--danger)' : 'var(--ok)'}
            fillOpacity={selected && p.record !== selected ? 0.25 : 0.75}
            stroke={p.record === selected ? 'var(--text)' : p.flagged ? 'var(--danger)' : 'none'}
            strokeWidth={1.5}
            style={{ cursor: 'pointer' }}
            onClick={() => onSelect(p.record)}
          >
            <title>{p.label}</title>
          </circle>
        ))}
      </svg>
      <div className="legend">
        <span>
          <i style={{ background: 'var(--ok)' }} /> turn went well
        </span>
        <span>
          <i style={{ background: 'var(--danger)' }} /> turn went wrong
        </span>
        <span>
          <i style={{ background: 'var(--faint)' }} /> no utility reported
        </span>
      </div>
    </div>
  );
}

export interface Series {
  key: string;
  label: string;
  color: string;
  values: { x: number; y: number }[];
  dashed?: boolean;
}

/** A small multi-line chart (memory size over steps; utility by window). */
export function LineChart({
  series,
  xLabel,
  yLabel,
  height = 240,
  yMax,
  testId,
}: {
  series: Series[];
  xLabel: string;
  yLabel: string;
  height?: number;
  yMax?: number;
  testId?: string;
}) {
  const [ref, width] = useWidth<HTMLDivElement>(700);
  const m = { l: 44, r: 12, t: 10, b: 32 };
  const xs = series.flatMap((s) => s.values.map((v) => v.x));
  const ys = series.flatMap((s) => s.values.map((v) => v.y));
  const x = scaleLinear()
    .domain([Math.min(...xs, 0), Math.max(...xs, 1)])
    .range([m.l, width - m.r]);
  const y = scaleLinear()
    .domain([0, yMax ?? Math.max(1, ...ys)])
    .nice()
    .range([height - m.b, m.t]);
  const path = d3line<{ x: number; y: number }>()
    .x((d) => x(d.x))
    .y((d) => y(d.y));
  return (
    <div ref={ref} className="chart" data-testid={testId}>
      <svg width={width} height={height} role="img" aria-label={`${yLabel} by ${xLabel}`}>
        {y.ticks(5).map((t) => (
          <g key={t}>
            <line className="grid" x1={m.l} x2={width - m.r} y1={y(t)} y2={y(t)} />
            <text className="axis" x={m.l - 6} y={y(t) + 4} textAnchor="end">
              {t}
            </text>
          </g>
        ))}
        {x.ticks(8).map((t) => (
          <text key={t} className="axis" x={x(t)} y={height - m.b + 14} textAnchor="middle">
            {t}
          </text>
        ))}
        <text className="axis" x={(m.l + width - m.r) / 2} y={height - 4} textAnchor="middle">
          {xLabel}
        </text>
        {series.map((s) => (
          <path
            key={s.key}
            d={path(s.values) ?? ''}
            fill="none"
            stroke={s.color}
            strokeWidth={2}
            strokeDasharray={s.dashed ? '4 3' : undefined}
          />
        ))}
      </svg>
      <div className="legend">
        {series.map((s) => (
          <span key={s.key}>
            <i style={{ background: s.color }} /> {s.label}
            {s.values.length ? (
              <b style={{ marginLeft: 4 }}>
                {s.values.at(-1)!.y.toFixed(Number.isInteger(s.values.at(-1)!.y) ? 0 : 2)}
              </b>
            ) : null}
          </span>
        ))}
      </div>
    </div>
  );
}
