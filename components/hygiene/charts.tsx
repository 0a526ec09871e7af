'use client';

import { plural } from '@/lib/format';
import { useWidth } from '@/components/ui/use-width';
import { prepareRecallStrip, prepareScatter, type ScatterPoint, type Tone } from '@/lib/hygiene/prepare-charts';

const TONE_FILL: Record<Tone, string> = { good: 'var(--ok)', bad: 'var(--danger)', none: 'var(--faint)' };

/**
 * The experience-following plot of "How Memory Management Impacts LLM Agents: An Empirical Study of
 * Experience-Following Behavior": one dot per retrieval, input similarity (query vs the memory item's
 * query) against output similarity (the turn's output vs the item's execution). The shaded corner is
 * where the misalignment rule fires.
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
  onSelect: (item: string) => void;
}) {
  const [ref, width] = useWidth<HTMLDivElement>(560);
  const h = 300;
  const c = prepareScatter(points, inputMin, outputMax, width, h);
  const f = c.frame;
  return (
    <div ref={ref} className="chart" data-testid="scatter">
      <svg
        width={width}
        height={h}
        role="img"
        aria-label={`Input similarity against output similarity for ${plural(points.length, 'retrieval')}`}
      >
        <rect x={c.zone.x} y={c.zone.y} width={c.zone.width} height={c.zone.height} fill="var(--danger-soft)" />
        <text x={c.zoneLabel.x} y={c.zoneLabel.y} textAnchor="end" className="axis" fill="var(--danger)">
          misaligned: similar input, output not followed
        </text>
        {c.ticks.map((t) => (
          <g key={t.value}>
            <line className="grid" x1={t.x} x2={t.x} y1={f.top} y2={f.bottom} />
            <line className="grid" x1={f.left} x2={f.right} y1={t.y} y2={t.y} />
            <text className="axis" x={t.x} y={f.bottom + 14} textAnchor="middle">
              {t.label}
            </text>
            <text className="axis" x={f.left - 6} y={t.y + 4} textAnchor="end">
              {t.label}
            </text>
          </g>
        ))}
        <text className="axis" x={c.xLabel.x} y={c.xLabel.y} textAnchor="middle">
          input similarity (query vs item&apos;s query)
        </text>
        <text className="axis" transform={`translate(${c.yLabel.x} ${c.yLabel.y}) rotate(-90)`} textAnchor="middle">
          output similarity
        </text>
        {c.dots.map((p) => (
          <circle
            key={p.key}
            cx={p.cx}
            cy={p.cy}
            r={p.item === selected ? 6 : p.flagged ? 4.5 : 3.5}
            fill={TONE_FILL[p.tone]}
            fillOpacity={selected && p.item !== selected ? 0.25 : 0.75}
            stroke={p.item === selected ? 'var(--text)' : p.flagged ? 'var(--danger)' : 'none'}
            strokeWidth={1.5}
            style={{ cursor: 'pointer' }}
            onClick={() => onSelect(p.item)}
          >
            <title>{p.label}</title>
          </circle>
        ))}
      </svg>
      <div className="legend">
        <span>
          <i style={{ background: TONE_FILL.good }} /> turn went well
        </span>
        <span>
          <i style={{ background: TONE_FILL.bad }} /> turn went wrong
        </span>
        <span>
          <i style={{ background: TONE_FILL.none }} /> no utility reported
        </span>
      </div>
    </div>
  );
}

/** When a memory item was recalled, across the timeline (red: into a turn that went wrong). */
export function RecallStrip({
  retrievals,
  total,
  added,
}: {
  retrievals: { step: number; utility: number | null }[];
  total: number;
  added: number;
}) {
  const w = 140;
  const c = prepareRecallStrip(retrievals, total, added, w);
  return (
    <svg width={w} height={14} aria-label={`${c.marks.length} recalls`}>
      <line x1={c.from} x2={w - 1} y1={7} y2={7} stroke="var(--border-strong)" />
      {c.marks.map((s, i) => (
        <rect key={i} x={s.x - 1} y={2} width={2} height={10} fill={s.bad ? 'var(--danger)' : 'var(--ok)'} />
      ))}
    </svg>
  );
}
