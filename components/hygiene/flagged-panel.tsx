'use client';

import Link from 'next/link';
import { Panel } from '@/components/ui/panel';
import { f2, turnHref, type ChainGroup } from '@/lib/hygiene/lab-view';
import type { LabItem } from './types';

/** The memory items to look at first: misaligned experience replay and error-propagation chains. */
export function FlaggedPanel({
  misaligned,
  chains,
  onSelect,
}: {
  misaligned: LabItem[];
  chains: ChainGroup[];
  onSelect: (id: string) => void;
}) {
  return (
    <Panel testId="flagged" title="Flagged" bodyProps={{ style: { display: 'grid', gap: 12 } }}>
      <div>
        <h3 style={{ margin: '0 0 6px', fontSize: 13 }}>Misaligned experience replay ({misaligned.length})</h3>
        {misaligned.length ? (
          misaligned.map((r) => (
            <div
              key={r.id}
              className="toolbar"
              style={{ justifyContent: 'space-between', marginBottom: 4 }}
              data-testid="misaligned-item"
            >
              <button type="button" className="link-btn mono" onClick={() => onSelect(r.id)}>
                {r.id}
              </button>
              <span className="muted">
                {r.recalled}× · in {f2(r.meanInputSim)} · out {f2(r.meanOutputSim)} · utility {f2(r.meanUtility)}
              </span>
            </div>
          ))
        ) : (
          <p className="muted" style={{ margin: 0 }}>
            No memory item is recalled on similar inputs without being followed.
          </p>
        )}
      </div>
      <div>
        <h3 style={{ margin: '0 0 2px', fontSize: 13 }}>Error propagation ({chains.length})</h3>
        {chains.length ? (
          <div className="cell-sub" style={{ marginBottom: 4 }}>
            item → the wrong turn it was recalled into → the item that turn stored → …
          </div>
        ) : null}
        {chains.length ? (
          chains.map((c, i) => (
            <div key={i} className="chain" data-testid="chain">
              {c.links.map((l, j) => (
                <span key={j} className="chain-step">
                  {/* An arrow never ends a line alone: it wraps with what it points at. */}
                  <span className="nowrap">
                    {j ? <span className="chain-arrow">→ </span> : null}
                    <button type="button" className="chip chip-link mono" onClick={() => onSelect(l.item)}>
                      {l.item}
                    </button>
                  </span>
                  {l.turns.map((t, k) => (
                    <span key={`${t.session}/${t.turn}`} className="nowrap">
                      {/* Recalled into more than one wrong turn (chains that differ only there are one): "and". */}
                      <span className="chain-arrow">{k ? 'and ' : '→ '}</span>
                      <Link
                        className="chip chip-bad"
                        href={turnHref(t.session, t.turn)}
                        title="the turn it was recalled into went wrong"
                      >
                        {t.session} #{t.turn} · u {f2(t.utility)}
                      </Link>
                    </span>
                  ))}
                </span>
              ))}
            </div>
          ))
        ) : (
          <p className="muted" style={{ margin: 0 }}>
            No wrong turn&apos;s output was stored and recalled into another wrong turn.
          </p>
        )}
      </div>
    </Panel>
  );
}
