'use client';

import { memo, useEffect, useMemo, useRef, type RefObject } from 'react';
import { nextChange, type SessionDigest } from '@/lib/ccs/digest';
import { TermChip } from './term-chip';
import { useWidth } from '@/components/ui/use-width';

const ROW = 18;
const LABEL = 240;
const GAP = 8;

/**
 * When each constraint was present, dropped and back: retention at a glance. Click a bar to jump; a constraint's name
 * (a button, by keyboard too) goes to the next turn where it appears or is dropped. The rows are drawn
 * once per data and width, their runs joined where less than a pixel apart; a step moves one cursor line, in a
 * layer of its own above them.
 */
export function ConstraintTimeline({
  digest,
  index,
  onJump,
}: {
  digest: SessionDigest;
  index: number;
  onJump: (index: number) => void;
}) {
  const [ref, width] = useWidth<HTMLDivElement>();
  // Read by the names' buttons when pressed: the rows are not drawn again on every step.
  const at = useRef(index);
  useEffect(() => {
    at.current = index;
  }, [index]);
  const n = digest.n;
  const plot = Math.max(100, width - LABEL - 48 - 2 * GAP);
  const step = plot / Math.max(1, n);
  if (!digest.constraints.length) return <div className="faint">No constraints in this session.</div>;
  return (
    <div ref={ref} className="ct" data-testid="constraint-timeline">
      <Rows digest={digest} plot={plot} step={step} at={at} onJump={onJump} />
      <div
        className="ct-cursor"
        aria-hidden="true"
        style={{ transform: `translateX(${LABEL + GAP + index * step + step / 2}px)` }}
      />
    </div>
  );
}

const Rows = memo(function Rows({
  digest,
  plot,
  step,
  at,
  onJump,
}: {
  digest: SessionDigest;
  plot: number;
  step: number;
  at: RefObject<number>;
  onJump: (index: number) => void;
}) {
  const n = digest.n;
  const rows = useMemo(
    () =>
      digest.constraints.map((c) => {
        // Runs less than a pixel apart are one bar: the row's size follows its width, not the session's length.
        const bars: [number, number][] = [];
        for (const [a, b] of c.segs) {
          const last = bars.at(-1);
          if (last && (a - last[1]) * step < 1) last[1] = b;
          else bars.push([a, b]);
        }
        // Retention counts the turns since the constraint first appeared: before it, it was not yet there to keep.
        const since = n - (c.segs[0]?.[0] ?? 0);
        return { term: c.term, kept: c.kept, since, bars, segs: c.segs };
      }),
    [digest, step, n],
  );
  return rows.map((r) => (
    <div key={r.term} className="ct-row">
      <div
        className="ct-label"
        title={`present in ${r.kept} of the ${r.since} turns since it first appeared (of ${n} in the session)`}
      >
        <TermChip
          term={r.term}
          title="Go to the next turn where it appears or is dropped"
          onClick={() => onJump(nextChange(r.segs, at.current, n))}
        />
      </div>
      <svg
        width={plot}
        height={ROW}
        onClick={(e) =>
          onJump(Math.min(n - 1, Math.floor((e.clientX - e.currentTarget.getBoundingClientRect().left) / step)))
        }
      >
        <rect x={0} y={ROW / 2 - 1} width={plot} height={2} className="ct-track" />
        {r.bars.map(([a, b]) => (
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
      </svg>
      <span className="ct-kept faint" title="kept in this share of the turns since it first appeared">
        {Math.round((100 * r.kept) / Math.max(1, r.since))}%
      </span>
    </div>
  ));
});
