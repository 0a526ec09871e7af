'use client';

import { entryHref, eventHref } from '@/lib/pages';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fmtDateTime, fmtInt } from '@/lib/format';
import { useAddressSync } from '@/components/ui/use-address-sync';
import { useTRPC } from '@/components/trpc/provider';
import { DataTable } from '@/components/ui/data-table';
import { JsonDialog } from '@/components/ui/json-dialog';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { EmptyState, QueryError } from '@/components/ui/states';
import { Actor, useActorLabel } from '@/components/ui/actor';

/** Where a subject of the log is shown, by its type (a proposal in the inbox, an event or an entry in its tab). */
const SUBJECT_HREF: Record<string, (id: string) => string> = {
  proposal: (id) => `/curation?proposal=${id}`,
  memory_event: eventHref,
  memory_entry: entryHref,
};

/** A filter's options with the one chosen (from a link, before the options load, or one the log no longer has). */
const withChosen = (options: readonly string[] | undefined, chosen: string) =>
  chosen && !options?.includes(chosen) ? [...(options ?? []), chosen] : [...(options ?? [])];

/** Records a page of the log shows. */
const PAGE = 100;

/** The append-only audit log, newest first, filterable by action, actor and subject (kept in the address). */
export function AuditLog() {
  const trpc = useTRPC();
  const params = useSearchParams();
  const [action, setAction] = useState(() => params.get('action') ?? '');
  const [actor, setActor] = useState(() => params.get('actor') ?? '');
  const [subject, setSubject] = useState(() => params.get('subject') ?? '');
  useAddressSync({ action: action || null, actor: actor || null, subject: subject.trim() || null }, params.toString());
  const [pages, setPages] = useState<(number | null)[]>([null]);
  const before = pages.at(-1) ?? null;
  const q = useQuery({
    ...trpc.curation.audit.queryOptions({
      action: action || null,
      actor: actor || null,
      subject: subject.trim() || null,
      before,
      limit: PAGE,
    }),
    placeholderData: keepPreviousData,
  });
  const first = (pages.length - 1) * PAGE;
  const reset = () => setPages([null]);
  // API keys by name in the actor filter, as in the rows.
  const actorLabel = useActorLabel();
  return (
    <>
      <div className="toolbar" style={{ marginBottom: 10, flexWrap: 'wrap' }}>
        <select
          className="select"
          aria-label="Action"
          value={action}
          onChange={(e) => (setAction(e.target.value), reset())}
        >
          <option value="">all actions</option>
          {withChosen(q.data?.actions, action).map((a) => (
            <option key={a}>{a}</option>
          ))}
        </select>
        <select
          className="select"
          aria-label="Actor"
          value={actor}
          onChange={(e) => (setActor(e.target.value), reset())}
        >
          <option value="">all actors</option>
          {withChosen(q.data?.actors, actor).map((a) => (
            <option key={a} value={a}>
              {actorLabel(a)}
            </option>
          ))}
        </select>
        <input
          className="input"
          aria-label="Subject"
          placeholder="subject id (event, proposal, entry)"
          value={subject}
          onChange={(e) => (setSubject(e.target.value), reset())}
        />
        {/* Mounted always, so that its first count is announced; empty while the page asked for is on its way. */}
        <span className="muted" data-testid="audit-count" aria-live="polite">
          {q.data?.rows.length && !q.isPlaceholderData
            ? `${fmtInt(first + 1)}–${fmtInt(first + q.data.rows.length)} of ${fmtInt(q.data.matching)}`
            : ''}
        </span>
        {pages.length > 1 ? (
          <button type="button" className="btn" onClick={() => setPages((p) => p.slice(0, -1))}>
            Newer
          </button>
        ) : null}
        {q.data?.next ? (
          <button type="button" className="btn" onClick={() => setPages((p) => [...p, q.data!.next])}>
            Older
          </button>
        ) : null}
      </div>
      <QueryError query={q} />
      <Panel as="div" body={false} className="scroll-x">
        {q.data && !q.data.rows.length ? (
          <EmptyState title="No audit records match" />
        ) : (
          <DataTable
            compact
            testId="audit"
            rows={q.data?.rows ?? []}
            rowKey={(r) => r.id}
            columns={[
              { id: 'when', header: 'When', className: 'nowrap', cell: (r) => fmtDateTime(r.at) },
              // A key's name may be long: it wraps rather than widen the table past its panel.
              { id: 'actor', header: 'Actor', cell: (r) => <Actor actor={r.actor} /> },
              {
                id: 'action',
                header: 'Action',
                className: 'nowrap',
                cell: (r) => <span className="badge">{r.action}</span>,
              },
              {
                id: 'subject',
                header: 'Subject',
                // Its kind and id on two lines where the table is narrow (1,280 px with the sidebar open).
                className: 'mono',
                cell: (r) => {
                  const id = r.subjectId.length > 24 ? `${r.subjectId.slice(0, 24)}…` : r.subjectId;
                  const href = SUBJECT_HREF[r.subjectType]?.(encodeURIComponent(r.subjectId));
                  return (
                    <span title={`${r.subjectType} ${r.subjectId}`}>
                      {r.subjectType}{' '}
                      <span className="nowrap">
                        {href ? (
                          <Link className="u-link" href={href}>
                            {id}
                          </Link>
                        ) : (
                          id
                        )}
                      </span>
                    </span>
                  );
                },
              },
              {
                id: 'detail',
                header: 'Detail',
                cell: (r) => (
                  <>
                    <MemoryText className="clip mono audit-detail" text={JSON.stringify(r.detail)} />
                    <JsonDialog
                      value={{
                        at: r.at,
                        actor: r.actor,
                        action: r.action,
                        subject: `${r.subjectType} ${r.subjectId}`,
                        detail: r.detail,
                      }}
                      title={`${r.action} · ${r.subjectType} ${r.subjectId}`}
                      label="the audit entry, as recorded"
                      what={`audit entry of ${r.action} on ${r.subjectType} ${r.subjectId}`}
                    />
                  </>
                ),
              },
            ]}
          />
        )}
      </Panel>
    </>
  );
}
