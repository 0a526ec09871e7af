'use client';

import { entryHref } from '@/lib/pages';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import type { RouterOutputs } from '@/components/trpc/outputs';
import { DataTable } from '@/components/ui/data-table';
import { ListFoot } from '@/components/ui/list-foot';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { useFocus } from '@/components/ui/use-focus';
import { EmptyState, QueryError } from '@/components/ui/states';
import { CURATION_PAGE } from '@/lib/curation/event';
import { fmtDateTime, fmtInt } from '@/lib/format';
import { readScopeOf } from '@/lib/curation/read-as';

const CONF: Record<string, string> = { high: 'ok', medium: 'warn', low: 'danger' };
// Rejected by the curator or a reviewer in red; discarded (the agent asked) and duplicate (said already) are neither.
const DISPOSITION: Record<string, string> = { written: 'ok', approved: 'ok', proposed: 'warn', rejected: 'danger' };
// The outcomes that put the event somewhere (or propose to): they carry the scope and kind it went to.
const PLACED = new Set(['written', 'approved', 'proposed']);

type EventRow = RouterOutputs['curation']['events']['items'][number];

/** The memory events received, newest first, paged by the server and filtered by kind there. */
export function EventsTable() {
  const trpc = useTRPC();
  const [kind, setKind] = useState('');
  const focusParam = useSearchParams().get('focus');
  const q = useInfiniteQuery({
    ...trpc.curation.events.infiniteQueryOptions(
      { kind: kind || null, focus: focusParam, limit: CURATION_PAGE },
      { getNextPageParam: (last) => last.next },
    ),
    placeholderData: keepPreviousData,
  });
  const first = q.data?.pages[0];
  // Each event once, even if a refetch of a later page meets one already shown.
  const seen = new Set<string>();
  const loaded = (q.data?.pages.flatMap((p) => p.items) ?? []).filter(
    (e) => !seen.has(e.eventId) && !!seen.add(e.eventId),
  );
  // The event a link points at is shown first, wherever it is in the list.
  const pinned = first?.focused && !loaded.some((e) => e.eventId === first.focused!.eventId) ? first.focused : null;
  const rows = pinned ? [pinned, ...loaded] : loaded;
  const focus = useFocus(!!first);
  return (
    <>
      <div className="toolbar" style={{ justifyContent: 'space-between', margin: '12px 0 8px' }}>
        <span className="muted" data-testid="events-summary">
          {first
            ? `${fmtInt(first.total ?? 0)} memory events received · ` +
              `${fmtInt(first.redacted ?? 0)} with secrets redacted`
            : q.error
              ? 'Not loaded'
              : 'Loading…'}
        </span>
        <select className="select" aria-label="Filter by kind" value={kind} onChange={(e) => setKind(e.target.value)}>
          <option value="">All kinds</option>
          {(first?.kinds ?? []).map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.kind} ({fmtInt(k.n)})
            </option>
          ))}
        </select>
      </div>
      <QueryError query={q} />
      <Panel as="div" body={false}>
        <DataTable
          testId="events-table"
          loading={q.isPending}
          updating={q.isPlaceholderData}
          rows={rows}
          rowKey={(e) => e.eventId}
          rowProps={(e) => ({
            'data-focus-id': e.eventId,
            className: focus === e.eventId ? 'focus-target' : undefined,
          })}
          columns={[
            {
              id: 'event',
              header: 'Event',
              cellProps: () => ({ style: { minWidth: 150 } }),
              cell: (e: EventRow) => (
                <>
                  <div className="mono">{e.eventId}</div>
                  <div className="cell-sub">
                    {e.sourceAgent} · {fmtDateTime(e.timestamp)}
                  </div>
                  {e.sessionId !== null && e.turn !== null ? (
                    <div className="cell-sub">
                      emitted at{' '}
                      <Link
                        className="u-link"
                        href={`/sessions/${encodeURIComponent(e.sessionId)}?turn=${e.turn}`}
                        aria-label={`turn ${e.turn} of ${e.sessionId}, where ${e.eventId} was emitted`}
                      >
                        turn {e.turn}
                      </Link>{' '}
                      of <span className="mono">{e.sessionId}</span>
                    </div>
                  ) : null}
                  {/* The Agentlas schema goes without saying; the paper's older shape is named. */}
                  {e.shape === 'agentlas' ? null : (
                    <div className="cell-sub">sent in the Curator paper's older shape</div>
                  )}
                </>
              ),
            },
            { id: 'kind', header: 'Kind', cell: (e) => <span className="badge accent">{e.kind}</span> },
            { id: 'scope', header: 'Scope asked', className: 'mono', cell: (e) => e.suggestedScope },
            {
              id: 'confidence',
              header: 'Confidence',
              cell: (e) => <span className={`badge ${CONF[e.confidence] ?? ''}`}>{e.confidence}</span>,
            },
            {
              id: 'content',
              header: 'Content',
              cellProps: () => ({ style: { maxWidth: 520 } }),
              cell: (e) => (
                <>
                  <MemoryText className="pre" text={e.content} />
                  {e.humanReviewRequired ? (
                    <div>
                      <span className="badge warn">human review required</span>
                    </div>
                  ) : null}
                </>
              ),
            },
            {
              id: 'evidence',
              header: 'Evidence',
              num: true,
              cell: (e) => (e.evidenceCount ? fmtInt(e.evidenceCount) : <span className="badge danger">none</span>),
            },
            {
              id: 'outcome',
              header: 'Outcome',
              cellProps: () => ({ style: { minWidth: 150, maxWidth: 240 } }),
              cell: (e) => <Outcome eventId={e.eventId} outcome={e.outcome} asked={e} />,
            },
          ]}
        />
        <ListFoot
          testId="events-count"
          shown={loaded.length}
          matching={first?.matching ?? 0}
          noun={kind ? `${kind} events` : 'events'}
          page={CURATION_PAGE}
          query={q}
        />
        {first && !first.total ? (
          <EmptyState title="No memory events yet">
            Agents send them as <code>{'{"type": "memory_event", "data": {...}}'}</code> to{' '}
            <code>POST /api/v1/ingest</code>.
          </EmptyState>
        ) : null}
      </Panel>
    </>
  );
}

/** What became of an event: the curator's (or a reviewer's) latest outcome, its reason, and where it led. */
export function Outcome({
  eventId,
  outcome: o,
  asked,
}: {
  eventId: string;
  outcome: EventRow['outcome'];
  /** What the agent asked for: where the curator put it elsewhere, or as another kind, the outcome says so. */
  asked: { kind: string; suggestedScope: string };
}) {
  if (!o) return <span className="muted">not curated yet</span>;
  const entry = o.disposition === 'duplicate' ? 'the entry it repeats' : 'entry';
  const placed = PLACED.has(o.disposition) && o.scope && o.kind;
  // `agent_team` (the Curator paper's older name) is `team_memory`: put there, the event is where it asked to be.
  const askedScope = readScopeOf(asked.suggestedScope) ?? asked.suggestedScope;
  const moved = placed && (o.scope !== askedScope || o.kind !== asked.kind);
  return (
    <div data-testid="event-outcome" data-disposition={o.disposition}>
      <span className={`badge ${DISPOSITION[o.disposition] ?? ''}`}>{o.disposition}</span>{' '}
      {o.proposalId && o.disposition === 'proposed' ? (
        <Link className="u-link" href={`/curation?proposal=${o.proposalId}`} aria-label={`review ${eventId}`}>
          review
        </Link>
      ) : o.entryId ? (
        <Link className="u-link" href={entryHref(o.entryId)} aria-label={`${entry} of ${eventId}`}>
          {entry}
        </Link>
      ) : null}
      {moved ? (
        <div className="cell-sub" data-testid="placed-as">
          {o.disposition === 'proposed' ? 'proposed' : 'stored'} as <b>{o.kind}</b> in{' '}
          <span className="mono">{o.scope}</span>, not as asked
        </div>
      ) : null}
      {o.reason ? (
        <div className="cell-sub">
          <MemoryText text={o.reason} />
        </div>
      ) : null}
    </div>
  );
}
