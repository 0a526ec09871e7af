'use client';

import { useEffect, useRef } from 'react';
import Link from 'next/link';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { refocus } from '@/components/ui/refocus';
import { f2, turnHref } from '@/lib/hygiene/lab-view';
import { POLICY_LABEL } from './labels';
import { ProposeButton } from './propose-button';
import type { Lab, LabItem, Raise } from './types';

/** One memory item: where it came from, how its recalls went, which policies remove it; propose from here. */
export function ItemDetail({
  r,
  lab,
  inChain,
  onClose,
  raise,
  busy,
}: {
  r: LabItem;
  lab: Lab;
  inChain: boolean;
  onClose: () => void;
  raise: Raise;
  busy: boolean;
}) {
  // Picked from the flagged list or the scatter, far above: brought into sight with the focus on its name (nothing
  // on screen changed but the scatter's dimming). Escape closes it.
  const panel = useRef<HTMLElement>(null);
  // What had the focus when the item was picked (the flagged list's link).
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const el = panel.current;
    // Picked in the items table beside it (↓ / ↑ go on there): the focus stays in the table.
    if (!el || document.activeElement?.closest('[data-testid=items-table]')) return;
    if (document.activeElement instanceof HTMLElement && !el.contains(document.activeElement))
      opener.current = document.activeElement;
    el.scrollIntoView({ block: 'nearest' });
    el.querySelector<HTMLElement>('[data-item-name]')?.focus({ preventScroll: true });
  }, [r.id]);
  // Closed, the focus goes back to what picked it (the flagged list's link), else to the item's row in the table, not
  // to the page's start.
  const close = () => {
    const id = r.id;
    const back = opener.current;
    onClose();
    refocus(() =>
      back?.isConnected
        ? back
        : [...document.querySelectorAll<HTMLElement>('[data-testid=items-table] .link-btn')].find(
            (b) => b.textContent === id,
          ),
    );
  };
  const removedBy = (Object.keys(lab.deletion.now) as (keyof Lab['deletion']['now'])[]).filter((p) =>
    lab.deletion.now[p].some((v) => v.id === r.id),
  );
  return (
    <Panel
      testId="item-detail"
      ref={panel}
      bodyClassName="detail"
      bodyProps={{ onKeyDown: (e) => e.key === 'Escape' && close() }}
      title={
        <>
          <span className="mono" tabIndex={-1} data-item-name onKeyDown={(e) => e.key === 'Escape' && close()}>
            {r.id}
          </span>
          <button type="button" className="icon-btn" aria-label="Close" onClick={close}>
            ×
          </button>
        </>
      }
    >
      <dl className="kv">
        <dt>Kind</dt>
        <dd>
          {r.source === 'entry' ? 'durable memory entry' : 'artifact of the external store'} · {r.kind ?? '—'} ·{' '}
          {r.status}
        </dd>
        <dt>Added</dt>
        <dd>
          step {r.addedStep}
          {r.fromTurn ? (
            <>
              {' '}
              from{' '}
              <Link href={turnHref(r.fromTurn.session, r.fromTurn.turn)}>
                {r.fromTurn.session} #{r.fromTurn.turn}
              </Link>
            </>
          ) : null}
          {r.addition ? ` · ${r.addition.decision} by ${r.addition.evaluator ?? 'an evaluator'}` : ''}
        </dd>
        <dt>Query</dt>
        <dd>
          <MemoryText text={r.query} />
        </dd>
        <dt>Execution</dt>
        <dd className="mono" style={{ whiteSpace: 'pre-wrap' }}>
          <MemoryText text={r.execution} />
        </dd>
        <dt>Recalled</dt>
        <dd>
          {r.recalled}× (let in {r.qualified}×) · mean utility {f2(r.meanUtility)} ·{' '}
          {`input ${f2(r.meanInputSim)} · output ${f2(r.meanOutputSim)}`}
        </dd>
        <dt>Policies</dt>
        <dd>
          {removedBy.length
            ? `removed now by ${removedBy.map((p) => POLICY_LABEL[p]).join(', ')}`
            : 'kept by every deletion policy'}
        </dd>
      </dl>
      {raise && r.status === 'active' ? (
        <div className="toolbar" style={{ flexWrap: 'wrap' }}>
          {r.misaligned ? (
            <ProposeButton
              item={r.id}
              policy="misaligned"
              raise={raise}
              busy={busy}
              label="Propose deprecation (misaligned)"
            />
          ) : null}
          {inChain ? (
            <ProposeButton
              item={r.id}
              policy="chain"
              raise={raise}
              busy={busy}
              label="Propose deprecation (error chain)"
            />
          ) : null}
          {removedBy.map((p) => (
            <ProposeButton
              key={p}
              item={r.id}
              policy={p}
              raise={raise}
              busy={busy}
              label={`Propose deprecation (${POLICY_LABEL[p].toLowerCase()})`}
            />
          ))}
          {!r.misaligned && !inChain && !removedBy.length ? (
            <ProposeButton item={r.id} policy="manual" raise={raise} busy={busy} />
          ) : null}
        </div>
      ) : null}
      <h3>Retrievals</h3>
      {r.retrievals.length ? (
        <DataTable
          compact
          rows={r.retrievals}
          rowKey={(x) => x.step}
          columns={[
            {
              id: 'turn',
              header: 'Turn',
              cell: (x) => (
                <>
                  <Link href={turnHref(x.session, x.turn)}>
                    {x.session} #{x.turn}
                  </Link>
                  {x.qualified ? '' : <span className="muted"> (not let in)</span>}
                </>
              ),
            },
            { id: 'step', header: 'Step', num: true, cell: (x) => x.step },
            { id: 'in', header: 'In', num: true, cell: (x) => f2(x.inputSim) },
            { id: 'out', header: 'Out', num: true, cell: (x) => f2(x.outputSim) },
            {
              id: 'utility',
              header: 'Utility',
              num: true,
              cellProps: (x) => ({
                style: { color: x.utility !== null && x.utility < 0.5 ? 'var(--danger)' : undefined },
              }),
              cell: (x) => f2(x.utility),
            },
            { id: 'h', header: 'H_t', num: true, cell: (x) => f2(x.hallucination) },
            { id: 'd', header: 'D_t', num: true, cell: (x) => f2(x.drift) },
          ]}
        />
      ) : (
        <p className="muted">Never recalled.</p>
      )}
    </Panel>
  );
}
