'use client';

import { useMemo } from 'react';
import { segments, type SessionHistory } from '@/lib/ccs/provenance';
import { TermChip } from './term-chip';
import { useWidth } from '@/components/ui/use-width';

const ROW = 18;
const LABEL = 240;

/** When each constraint was present, dropped and back: retention at a glance. Click a bar to jump. */
export function ConstraintTimeline({
  history,
  index,
  onJump,
}: {
  history: SessionHistory;
  index: number;
  onJump: (index: number) => void;
}) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const n = history.turns.length;
  const plot = Math.max(100, width - LABEL - 8);
  const step = plot / Math.max(1, n);
  const rows = useMemo(
    () =>
      history.constraints.map((c) => ({
        term: c.term,
        segs: segments(c.present),
        kept: c.present.reduce((a, b) => a + b, 0),
      })),
    [history],
  );
  // The bars only change with the data: the player moves just the cursor lines.
  const bars = useMemo(
    () =>
      rows.map((r) => (
        <g key={r.term}>
          <rect x={0} y={ROW / 2 - 1} width={plot} height={2} className="ct-track" />
          {r.segs.map(([a, b]) => (
            <rect
              key={a}
              x={a * step}
              y={3}
              width={Math.max(2, (b - a + 1) * step)}
              height={ROW - 6}
              rx={2}
              className="ct-bar"
            />
          ))}
        </g>
      )),
    [rows, plot, step],
  );
  if (!rows.length) return <div className="faint">No constraints in this session.</div>;
  return (
    <div ref={ref} data-testid="constraint-timeline">
      {rows.map((r, k) => (
        <div key={r.term} className="ct-row">
          <div className="ct-label" title={`present in ${r.kept} of ${n} turns`}>
            <TermChip term={r.term} />
          </div>
          <svg
            width={plot}
            height={ROW}
            onClick={(e) =>
              onJump(Math.min(n - 1, Math.floor((e.clientX - e.currentTarget.getBoundingClientRect().left) / step)))
            }
          >
            {bars[k]}
            <line x1={index * step + step / 2} x2={index * step + step / 2} y1={0} y2={ROW} className="cursor-line" />
          </svg>
          <span className="ct-kept faint">{Math.round((100 * r.kept) / n)}%</span>
        </div>
      ))}
    </div>
  );
}
