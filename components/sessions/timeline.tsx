'use client';

import { memo, useMemo, useRef } from 'react';
import type { SessionDigest } from '@/lib/ccs/digest';
import { useWidth } from '@/components/ui/use-width';

const H = 46;
const PAD = 6;

interface Props {
  digest: SessionDigest;
  /** Turn number at an index. */
  turnAt: (i: number) => number;
  index: number;
  onSeek: (index: number) => void;
  /** Indexes of the turns that carry annotations: a mark above the bars. */
  annotated?: number[];
}

/**
 * One tick per turn (per bucket of turns in a long session, as tall as its biggest change): its height is how much
 * the CCS changed; hollow where nothing changed; red marks stress turns; an amber mark under the bars a dropped or
 * changed constraint or an H_t/D_t spike (lib/ccs/alerts.ts); a break marks a gap in turn numbers; a blue
 * flag at the top, a turn with annotations.
 */
export function Timeline({ digest, turnAt, index, onSeek, annotated }: Props) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const n = digest.n;
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
        // Focusable; ←/→, Home and End (the player's keys) move it.
        tabIndex={0}
        aria-label="Turn"
        aria-valuemin={turnAt(0)}
        aria-valuemax={turnAt(n - 1)}
        aria-valuenow={turnAt(index)}
        onPointerDown={(e) => {
          dragging.current = true;
          e.currentTarget.setPointerCapture(e.pointerId);
          seek(e.clientX, e.currentTarget);
        }}
        onPointerMove={(e) => dragging.current && seek(e.clientX, e.currentTarget)}
        onPointerUp={() => (dragging.current = false)}
      >
        <Ticks digest={digest} step={step} />
        {annotated?.length ? <Notes at={annotated} step={step} /> : null}
      </svg>
      {/* The cursor in a layer of its own: a step repaints it, not the ticks. */}
      <div
        className="tl-cursor"
        aria-hidden="true"
        style={{ width: Math.max(3, step + 2), height: H, transform: `translateX(${PAD + index * step - 1}px)` }}
      />
    </div>
  );
}

const Ticks = memo(function Ticks({ digest, step }: { digest: SessionDigest; step: number }) {
  return useMemo(() => {
    const { change, gap, stressed, size, n } = digest;
    const max = change.reduce((a, b) => Math.max(a, b), 1);
    const heightOf = (c: number) => 4 + (H - 18) * Math.sqrt(c / max);
    // Buckets of `size` turns; more of them than pixels: one bar per 2 px, as tall as the biggest change it covers.
    const bucketStep = step * size;
    const per = bucketStep < 2 ? Math.ceil(2 / bucketStep) : 1;
    const bars = [];
    for (let from = 0; from < change.length; from += per) {
      let big = 0;
      let stress: string | null = null;
      let broken = false;
      for (let k = from; k < Math.min(change.length, from + per); k++) {
        big = Math.max(big, change[k]!);
        stress ??= stressed[k] ?? null;
        broken ||= !!gap[k];
      }
      const x = PAD + from * bucketStep;
      const turns = Math.min(n, (from + per) * size) - from * size;
      const w = per > 1 ? 1.5 : Math.max(1, turns * step - (bucketStep > 4 ? 1 : 0));
      const h = big ? heightOf(big) : 0;
      bars.push(
        <g key={from} data-same={big ? undefined : '1'}>
          {big ? (
            <rect x={x} y={H - 6 - h} width={w} height={h} className="tl-tick" />
          ) : (
            <rect x={x} y={H - 8} width={w} height={3} className="tl-same" />
          )}
          {stress ? (
            <circle cx={x + w / 2} cy={4} r={Math.min(3, Math.max(2, bucketStep / 2))} className="tl-stress" />
          ) : null}
          {broken ? <line x1={x - 0.5} x2={x - 0.5} y1={8} y2={H - 4} className="tl-gap" /> : null}
        </g>,
      );
    }
    // One notch per pixel column at most (the alerts are in turn order).
    const notches = [];
    let lastX = -Infinity;
    for (const a of digest.alerts ?? []) {
      if (a.kind === 'stress') continue;
      const x = PAD + (a.i + 0.5) * step;
      if (x - lastX < 1) continue;
      lastX = x;
      // Under the change bars (stress has the top row).
      notches.push(
        <rect key={a.i} x={x - 1.5} y={H - 4} width={3} height={4} className="tl-alert" data-alert={a.kind} />,
      );
    }
    return (
      <g>
        {bars}
        {notches}
      </g>
    );
  }, [digest, step]);
});

/** Turns with annotations: a small flag each (one per pixel column at most), a layer of its own. */
const Notes = memo(function Notes({ at, step }: { at: number[]; step: number }) {
  const flags = [];
  let lastX = -Infinity;
  for (const i of [...at].sort((a, b) => a - b)) {
    const x = PAD + (i + 0.5) * step;
    if (x - lastX < 1) continue;
    lastX = x;
    flags.push(<path key={i} d={`M${x - 3} 0h6l-3 5z`} className="tl-note" data-note={i} />);
  }
  return <g>{flags}</g>;
});
