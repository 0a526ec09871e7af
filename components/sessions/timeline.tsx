'use client';

import { memo, useMemo, useRef } from 'react';
import type { SessionHistory } from '@/lib/ccs/provenance';
import { useWidth } from '@/components/ui/use-width';

const H = 46;
const PAD = 6;

interface Props {
  history: SessionHistory;
  stress: (string | null)[];
  index: number;
  onSeek: (index: number) => void;
}

/**
 * One tick per turn: its height is how much the CCS changed; hollow where nothing changed; red marks stress turns; a
 * break marks a gap in turn numbers.
 */
export function Timeline({ history, stress, index, onSeek }: Props) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const n = history.turns.length;
  const step = (width - 2 * PAD) / Math.max(1, n);
  const dragging = useRef(false);
  const seek = (clientX: number, el: Element) => {
    const x = clientX - el.getBoundingClientRect().left - PAD;
    onSeek(Math.max(0, Math.min(n - 1, Math.floor(x / step))));
  };
  return (
    <div ref={ref} className="timeline" data-testid="timeline">
      <svg
        width={width}
        height={H}
        role="slider"
        aria-label="Turn"
        aria-valuemin={history.turns[0]}
        aria-valuemax={history.turns.at(-1)}
        aria-valuenow={history.turns[index]}
        onPointerDown={(e) => {
          dragging.current = true;
          e.currentTarget.setPointerCapture(e.pointerId);
          seek(e.clientX, e.currentTarget);
        }}
        onPointerMove={(e) => dragging.current && seek(e.clientX, e.currentTarget)}
        onPointerUp={() => (dragging.current = false)}
      >
        <Ticks history={history} stress={stress} step={step} />
        <rect x={PAD + index * step - 1} y={0} width={Math.max(3, step + 2)} height={H} className="tl-cursor" />
      </svg>
    </div>
  );
}

const Ticks = memo(function Ticks({
  history,
  stress,
  step,
}: {
  history: SessionHistory;
  stress: (string | null)[];
  step: number;
}) {
  return useMemo(() => {
    const sizes = history.diffs.map((d) => d.counts.added + d.counts.removed + d.counts.changed);
    const max = sizes.reduce((a, b) => Math.max(a, b), 1);
    const heightOf = (size: number) => 4 + (H - 18) * Math.sqrt(size / max);
    if (step < 2) {
      // More turns than pixels: one bar per 2 px, as tall as the biggest change it covers.
      const n = sizes.length;
      const buckets = Math.max(1, Math.floor((n * step) / 2));
      const bars = [];
      for (let b = 0; b < buckets; b++) {
        const from = Math.floor((b * n) / buckets);
        const to = Math.max(from + 1, Math.floor(((b + 1) * n) / buckets));
        let big = 0;
        let stressed = false;
        let gap = false;
        for (let k = from; k < to; k++) {
          big = Math.max(big, sizes[k]!);
          stressed ||= !!stress[k];
          gap ||= k > 0 && history.turns[k]! - history.turns[k - 1]! > 1;
        }
        const x = PAD + from * step;
        const h = big ? heightOf(big) : 0;
        bars.push(
          <g key={b}>
            {big ? (
              <rect x={x} y={H - 6 - h} width={1.5} height={h} className="tl-tick" />
            ) : (
              <rect x={x} y={H - 8} width={1.5} height={3} className="tl-same" />
            )}
            {stressed ? <circle cx={x + 0.75} cy={4} r={2} className="tl-stress" /> : null}
            {gap ? <line x1={x} x2={x} y1={8} y2={H - 4} className="tl-gap" /> : null}
          </g>,
        );
      }
      return <g>{bars}</g>;
    }
    const w = Math.max(1, step - (step > 4 ? 1 : 0));
    return (
      <g>
        {history.diffs.map((d, i) => {
          const x = PAD + i * step;
          const gap = i > 0 && history.turns[i]! - history.turns[i - 1]! > 1;
          const h = d.same ? 0 : heightOf(sizes[i]!);
          return (
            <g key={i} data-same={d.same ? '1' : undefined}>
              {d.same ? (
                <rect x={x} y={H - 8} width={w} height={3} className="tl-same" />
              ) : (
                <rect x={x} y={H - 6 - h} width={w} height={h} className="tl-tick" />
              )}
              {stress[i] ? (
                <circle cx={x + w / 2} cy={4} r={Math.min(3, Math.max(2, step / 2))} className="tl-stress" />
              ) : null}
              {gap ? <line x1={x - 0.5} x2={x - 0.5} y1={8} y2={H - 4} className="tl-gap" /> : null}
            </g>
          );
        })}
      </g>
    );
  }, [history, stress, step]);
});
