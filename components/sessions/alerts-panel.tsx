'use client';

import { memo, useState } from 'react';
import { ALERT_CAP, ALERT_KINDS, ALERT_LABEL, alertCount, type Alert, type AlertKind } from '@/lib/ccs/alerts';
import { fmtInt } from '@/lib/format';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';

const TONE: Record<AlertKind, string> = {
  constraint_dropped: 'danger',
  constraint_changed: 'warn',
  h_spike: 'warn',
  d_spike: 'warn',
  stress: 'danger',
  injection: 'danger',
};

function Detail({ a }: { a: Alert }) {
  if (a.kind === 'h_spike' || a.kind === 'd_spike')
    return (
      <span className="mono">
        {a.what} {a.value!.toFixed(2)} <span className="faint">(mean {a.mean!.toFixed(2)} before)</span>
      </span>
    );
  if (a.kind === 'constraint_changed')
    return (
      <span className="clip mono">
        <MemoryText text={a.what} /> <span className="faint">→</span> <MemoryText text={a.to ?? ''} />
      </span>
    );
  return <MemoryText className="clip mono" text={a.what} />;
}

/** One alert; only the rows whose `current` changes render again as the player steps (there may be hundreds). */
const AlertRow = memo(function AlertRow({
  a,
  turn,
  current,
  onOpen,
}: {
  a: Alert;
  turn: number;
  current: boolean;
  onOpen: (index: number) => void;
}) {
  return (
    <li>
      <button
        type="button"
        className="alert-row"
        aria-current={current ? 'true' : undefined}
        data-alert={a.kind}
        onClick={() => onOpen(a.i)}
      >
        <span className="mono">turn {turn}</span>
        <span>
          <span className={`badge ${TONE[a.kind]}`}>
            {a.kind === 'stress' ? `stress · ${a.what}` : ALERT_LABEL[a.kind]}
          </span>
        </span>
        {a.kind === 'stress' ? <span className="faint">declared by the turn or the session</span> : <Detail a={a} />}
      </button>
    </li>
  );
});

/**
 * What went wrong in the session (lib/ccs/alerts.ts), listed in turn order and filterable by kind; a row opens its turn
 * with the diff against the turn before, where the change is.
 */
export const AlertsPanel = memo(function AlertsPanel({
  counts = {},
  alerts,
  turnAt,
  index,
  onOpen,
}: {
  /** How many of each kind (the digest's `alertCounts`). */
  counts: Partial<Record<AlertKind, number>> | undefined;
  /** The first ALERT_CAP (the digest's `alerts`); null until the digest has come: rows that hold their place. */
  alerts: Alert[] | null;
  turnAt: (i: number) => number;
  index: number;
  onOpen: (index: number) => void;
}) {
  const [kind, setKind] = useState<AlertKind | ''>('');
  const all = alerts ?? [];
  const total = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
  const shown = kind ? all.filter((a) => a.kind === kind) : all;
  return (
    <Panel
      as="div"
      style={{ margin: '14px 0' }}
      testId="alerts"
      body={false}
      headStyle={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}
      title={
        <>
          <span>What went wrong</span>
          {ALERT_KINDS.filter((k) => counts[k]).map((k) => (
            <span key={k} className={`badge ${TONE[k]}`}>
              {alertCount(k, counts[k]!)}
            </span>
          ))}
          {total > ALERT_CAP ? <span className="faint">the first {fmtInt(ALERT_CAP)} listed</span> : null}
          {total ? (
            <select
              className="select"
              style={{ marginLeft: 'auto' }}
              aria-label="Show alerts of kind"
              value={kind}
              onChange={(e) => setKind(e.target.value as AlertKind | '')}
            >
              <option value="">all kinds</option>
              {ALERT_KINDS.filter((k) => counts[k]).map((k) => (
                <option key={k} value={k}>
                  {ALERT_LABEL[k]}
                </option>
              ))}
            </select>
          ) : null}
        </>
      }
    >
      {!total ? (
        <div className="panel-body faint">
          Nothing flagged: no constraint dropped or changed, no H_t or D_t spike, no stress turn.
        </div>
      ) : (
        <ul className="alerts-list" aria-label="Alerts" tabIndex={0}>
          {alerts === null
            ? // More rows than the list shows without scrolling make no difference to its height.
              Array.from({ length: Math.min(total, 8) }, (_, k) => (
                <li key={k} aria-hidden="true">
                  <div className="alert-row faint">
                    <span className="mono">turn …</span>
                    <span>
                      <span className="badge">…</span>
                    </span>
                    <span />
                  </div>
                </li>
              ))
            : null}
          {shown.map((a, k) => (
            <AlertRow key={k} a={a} turn={turnAt(a.i)} current={a.i === index} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </Panel>
  );
});
