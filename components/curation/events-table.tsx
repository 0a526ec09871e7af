'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { MemoryText } from '@/components/ui/memory-text';
import { useFocus } from '@/components/ui/use-focus';
import { EmptyState, ErrorBox, SkeletonRows } from '@/components/ui/states';
import { fmtDateTime, fmtInt } from '@/lib/format';

const CONF: Record<string, string> = { high: 'ok', medium: 'warn', low: 'danger' };

export function EventsTable() {
  const trpc = useTRPC();
  const q = useQuery(trpc.curation.events.queryOptions());
  const [kind, setKind] = useState('');
  const kinds = useMemo(() => [...new Set((q.data ?? []).map((e) => e.kind))].sort(), [q.data]);
  const rows = (q.data ?? []).filter((e) => !kind || e.kind === kind);
  const redacted = (q.data ?? []).filter((e) => e.redactions.length).length;
  const focus = useFocus(!!q.data);
  return (
    <>
      <div className="toolbar" style={{ justifyContent: 'space-between', margin: '12px 0 8px' }}>
        <span className="muted">
          {q.data
            ? `${fmtInt(q.data.length)} memory events received · ${fmtInt(redacted)} with secrets redacted`
            : 'Loading…'}
        </span>
        <select className="select" aria-label="Filter by kind" value={kind} onChange={(e) => setKind(e.target.value)}>
          <option value="">All kinds</option>
          {kinds.map((k) => (
            <option key={k}>{k}</option>
          ))}
        </select>
      </div>
      {q.error ? <ErrorBox error={q.error} /> : null}
      <div className="panel">
        <table className="data" data-testid="events-table">
          <thead>
            <tr>
              <th>Event</th>
              <th>Kind</th>
              <th>Suggested scope</th>
              <th>Confidence</th>
              <th>Content</th>
              <th className="num">Evidence</th>
              <th>Received as</th>
            </tr>
          </thead>
          {q.isPending ? (
            <SkeletonRows cols={7} />
          ) : (
            <tbody>
              {rows.map((e) => (
                <tr
                  key={e.eventId}
                  data-focus-id={e.eventId}
                  className={focus === e.eventId ? 'focus-target' : undefined}
                >
                  <td className="nowrap">
                    <div className="mono">{e.eventId}</div>
                    <div className="cell-sub">
                      {e.sourceAgent} · {fmtDateTime(e.timestamp)}
                    </div>
                  </td>
                  <td>
                    <span className="badge accent">{e.kind}</span>
                  </td>
                  <td className="mono">{e.suggestedScope}</td>
                  <td>
                    <span className={`badge ${CONF[e.confidence] ?? ''}`}>{e.confidence}</span>
                  </td>
                  <td style={{ maxWidth: 520 }}>
                    <MemoryText className="pre" text={e.content} />
                    {e.humanReviewRequired ? (
                      <div>
                        <span className="badge warn">human review required</span>
                      </div>
                    ) : null}
                  </td>
                  <td className="num">
                    {e.evidenceCount ? fmtInt(e.evidenceCount) : <span className="badge danger">none</span>}
                  </td>
                  <td className="cell-sub">
                    {e.shape === 'agentlas' ? 'Agentlas schema' : "Curator paper's older shape"}
                  </td>
                </tr>
              ))}
            </tbody>
          )}
        </table>
        {q.data && !q.data.length ? (
          <EmptyState title="No memory events yet">
            Agents send them as <code>{'{"type": "memory_event", "data": {...}}'}</code> to{' '}
            <code>POST /api/v1/ingest</code>.
          </EmptyState>
        ) : null}
      </div>
    </>
  );
}
