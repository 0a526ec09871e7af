'use client';

import Link from 'next/link';
import { MemoryText } from '@/components/ui/memory-text';
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
  const removedBy = (Object.keys(lab.deletion.now) as (keyof Lab['deletion']['now'])[]).filter((p) =>
    lab.deletion.now[p].some((v) => v.id === r.id),
  );
  return (
    <section className="panel" data-testid="item-detail">
      <div className="panel-head">
        <span className="mono">{r.id}</span>
        <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="panel-body detail">
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
            {r.recalled}× (let in {r.qualified}×) · mean utility {f2(r.meanUtility)} · input {f2(r.meanInputSim)} ·
            output {f2(r.meanOutputSim)}
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
          <table className="data compact">
            <thead>
              <tr>
                <th>Turn</th>
                <th className="num">Step</th>
                <th className="num">In</th>
                <th className="num">Out</th>
                <th className="num">Utility</th>
                <th className="num">H_t</th>
                <th className="num">D_t</th>
              </tr>
            </thead>
            <tbody>
              {r.retrievals.map((x) => (
                <tr key={x.step}>
                  <td>
                    <Link href={turnHref(x.session, x.turn)}>
                      {x.session} #{x.turn}
                    </Link>
                    {x.qualified ? '' : <span className="muted"> (not let in)</span>}
                  </td>
                  <td className="num">{x.step}</td>
                  <td className="num">{f2(x.inputSim)}</td>
                  <td className="num">{f2(x.outputSim)}</td>
                  <td
                    className="num"
                    style={{ color: x.utility !== null && x.utility < 0.5 ? 'var(--danger)' : undefined }}
                  >
                    {f2(x.utility)}
                  </td>
                  <td className="num">{f2(x.hallucination)}</td>
                  <td className="num">{f2(x.drift)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">Never recalled.</p>
        )}
      </div>
    </section>
  );
}
