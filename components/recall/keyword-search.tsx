'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useDeferredValue, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { MemoryText } from '@/components/ui/memory-text';
import { EmptyState, ErrorBox } from '@/components/ui/states';
import { fmtInt } from '@/lib/format';

const KIND_LABEL: Record<string, string> = { turn: 'turn', memory_event: 'memory event', artifact: 'artifact', dead_end: 'dead end', methodology: 'methodology' };

export function KeywordSearch() {
  const trpc = useTRPC();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query.trim());
  const q = useQuery({ ...trpc.recall.keyword.queryOptions({ query: deferred }), enabled: deferred.length > 1, placeholderData: keepPreviousData });
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Recall</h1>
          <div className="sub">Search everything the agents remember: CCS terms and turns, memory events, artifacts, dead ends, methodology</div>
        </div>
      </div>
      <div className="toolbar" style={{ marginBottom: 12 }}>
        <input
          className="input"
          type="search"
          autoFocus
          placeholder="e.g. keepalive nginx, consent, validation"
          aria-label="Search memory"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          style={{ width: 420 }}
        />
        {q.data && deferred.length > 1 ? <span className="muted">{fmtInt(q.data.length)} matches (every word must appear)</span> : null}
      </div>
      {q.error ? <ErrorBox error={q.error} /> : null}
      <div className="panel">
        {deferred.length < 2 ? (
          <EmptyState title="Type at least two characters">Keyword search runs on this machine&apos;s database; nothing leaves it.</EmptyState>
        ) : q.data && !q.data.length ? (
          <EmptyState title={`Nothing matches “${deferred}”`} />
        ) : (
          <table className="data" data-testid="recall-results">
            <tbody>
              {(q.data ?? []).map((h) => (
                <tr key={`${h.kind}:${h.id}`}>
                  <td className="nowrap" style={{ width: 1 }}>
                    <span className="badge accent">{KIND_LABEL[h.kind]}</span>
                  </td>
                  <td className="nowrap mono" style={{ width: 1 }}>
                    {h.href ? <Link href={h.href}>{h.id}</Link> : h.id}
                    <div className="cell-sub">{h.scope}</div>
                  </td>
                  <td>
                    <MemoryText className="clip" text={h.text} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </>
  );
}
