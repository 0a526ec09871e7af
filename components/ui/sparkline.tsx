import { prepareSparkline, type SparkSeries } from '@/lib/charts/prepare-sparkline';

const COLORS = ['var(--series-1)', 'var(--series-2)', 'var(--series-3)'];

/** A tiny multi-series line chart; d3 computes the paths, React draws them. */
export function Sparkline({
  series,
  width = 120,
  height = 28,
  label,
}: {
  series: SparkSeries[];
  width?: number;
  height?: number;
  label: string;
}) {
  const p = prepareSparkline(series, width, height);
  if (!p.paths.length) return <span className="faint">no data</span>;
  return (
    <svg width={width} height={height} role="img" aria-label={label}>
      <title>{label}</title>
      {p.paths.map((s, i) => (
        <g key={s.key}>
          <path d={s.d} fill="none" stroke={COLORS[i % COLORS.length]} strokeWidth={1.4} strokeLinejoin="round" />
          {s.last ? <circle cx={s.last.x} cy={s.last.y} r={1.8} fill={COLORS[i % COLORS.length]} /> : null}
        </g>
      ))}
    </svg>
  );
}
