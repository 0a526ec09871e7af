'use client';

import { entryHref, eventHref } from '@/lib/pages';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useDeferredValue, useState } from 'react';
import { useAddressSync } from '@/components/ui/use-address-sync';
import { SCOPES } from '@/lib/curation/pipeline';
import { fmtDateTime, fmtInt } from '@/lib/format';
import { useTRPC } from '@/components/trpc/provider';
import { AnnotateDialog } from '@/components/annotations/annotate-dialog';
import { EditEntryForm, escapeCloses, inEntries, LinkEntryForm, NewEntryButton } from './entry-edit';
import { AnnotationsSection } from '@/components/annotations/annotations-section';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { pickByArrows } from '@/components/ui/list-keys';
import { refocus } from '@/components/ui/refocus';
import { EmptyState, ErrorBox, QueryError, SkeletonRows, updatingProps } from '@/components/ui/states';
import { ListFoot } from '@/components/ui/list-foot';
import { TextDiff } from './text-diff';

const PAGE = 100;

const STATUSES = ['active', 'in_conflict', 'deprecated'] as const;
const STATUS_TONE: Record<string, string> = { active: 'ok', deprecated: '', in_conflict: 'danger' };
/** A value from the address that is one of `allowed`; '' (all) for anything else. */
const known = (v: string | null, allowed: readonly string[]) => (v && allowed.includes(v) ? v : '');

/** Durable memory by scope: entries with kind, status and provenance; each with its version history. */
export function EntriesBrowser() {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  // The scope, status and words live in the address beside the entry open (`?scope=…&status=…&q=…&entry=…`): a
  // reload or a link opens the same list. Written at once as they change (a navigation per click raced the next
  // click, which then built its address from the one before), and again should a link drop them.
  const [scope, setScope] = useState(() => known(params.get('scope'), SCOPES));
  const [status, setStatus] = useState(() => known(params.get('status'), STATUSES));
  const [query, setQuery] = useState(() => params.get('q') ?? '');
  const deferred = useDeferredValue(query.trim());
  const selected = params.get('entry');
  useAddressSync({ scope: scope || null, status: status || null, q: deferred || null }, params.toString());
  // Paged by the server, 100 at a time, with how many match: a long memory never stops silently.
  const list = useInfiniteQuery({
    ...trpc.curation.entries.infiniteQueryOptions(
      { scope: scope || null, status: status || null, query: deferred || null, limit: PAGE },
      { getNextPageParam: (last) => last.next },
    ),
    placeholderData: keepPreviousData,
  });
  const pages = list.data?.pages ?? [];
  const items = pages.flatMap((p) => p.items);
  const first = pages[0];
  const count = (s: string) => (first?.counts ?? []).filter((c) => !s || c.scope === s).reduce((n, c) => n + c.n, 0);
  return (
    <>
      <div className="toolbar" style={{ flexWrap: 'wrap', marginBottom: 10 }}>
        <div className="seg" role="group" aria-label="Scope">
          {['', ...SCOPES].map((s) => (
            <button key={s || 'all'} type="button" aria-pressed={scope === s} onClick={() => setScope(s)}>
              {s || 'all scopes'} <span className="muted">{fmtInt(count(s))}</span>
            </button>
          ))}
        </div>
        <select className="select" aria-label="Status" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">any status</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replace('_', ' ')}
            </option>
          ))}
        </select>
        <input
          className="input"
          type="search"
          placeholder="words in the entry"
          aria-label="Search entries"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <span className="grow" />
        <NewEntryButton />
      </div>
      <QueryError query={list} />
      <div className="inbox">
        <Panel as="div" className="inbox-list" testId="entries" body={false}>
          {list.isPending || (list.isPlaceholderData && !items.length) ? (
            // Loading, or a new scope, status or search loading after an empty one: not "no entries" yet.
            <table className="data">
              <SkeletonRows cols={2} />
            </table>
          ) : first && !items.length ? (
            scope || status || deferred ? (
              <EmptyState
                title={`No ${status ? `${status.replace('_', ' ')} ` : ''}entry${scope ? ` in ${scope}` : ''}${
                  deferred ? ` matches “${deferred}”` : ''
                }`}
              >
                {count('') ? `${fmtInt(count(''))} in all: change the filters above to see them.` : null}
              </EmptyState>
            ) : (
              <EmptyState title="No entries here">
                Entries appear when the curator writes, or a reviewer approves, a memory event.
              </EmptyState>
            )
          ) : (
            <div
              role="list"
              aria-label="Memory entries"
              {...updatingProps(list.isPlaceholderData)}
              onKeyDown={(e) => pickByArrows(e)}
            >
              {items.map((e) => (
                <div
                  key={e.id}
                  className="inbox-row"
                  role="listitem"
                  style={{ gridTemplateColumns: '1fr' }}
                  aria-current={e.id === selected ? 'true' : undefined}
                  data-entry={e.id}
                >
                  <button
                    type="button"
                    className="row-pick"
                    onClick={() => router.replace(inEntries({ entry: e.id }), { scroll: false })}
                  >
                    <MemoryText className="clip" text={e.content} />
                    <span className="meta">
                      <span className="badge">{e.scope}</span>
                      <span className="badge">{e.kind}</span>
                      <span className={`badge ${STATUS_TONE[e.status] ?? ''}`}>{e.status.replace('_', ' ')}</span>
                      <span>v{e.version}</span>
                      <span className="nowrap">{fmtDateTime(new Date(e.updatedAt).toISOString())}</span>
                    </span>
                  </button>
                </div>
              ))}
            </div>
          )}
          <ListFoot
            testId="entries-count"
            shown={items.length}
            matching={first?.matching ?? 0}
            noun="entries"
            filter={first?.query}
            page={PAGE}
            query={list}
          />
        </Panel>
        <Panel as="div" className="detail" body={false}>
          {selected ? (
            <EntryDetail key={selected} id={selected} />
          ) : (
            <EmptyState title="Select an entry">
              Its versions, links and the decisions behind it appear here.
            </EmptyState>
          )}
        </Panel>
      </div>
      <AnnotateDialog />
    </>
  );
}

function EntryDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const q = useQuery(trpc.curation.entry.queryOptions({ id }));
  const [reason, setReason] = useState('');
  const [asking, setAsking] = useState(false);
  const [editing, setEditing] = useState<'edit' | 'link' | null>(null);
  const deprecate = useMutation(
    trpc.curation.deprecate.mutationOptions({
      onSuccess: () => {
        setAsking(false);
        void qc.invalidateQueries({ queryKey: trpc.curation.pathKey() });
      },
    }),
  );
  if (q.error) return <QueryError query={q} />;
  if (!q.data) return <div className="panel-body muted">Loading…</div>;
  const { entry, versions, links, decisions } = q.data;
  // A form closed (saved, cancelled, Escape) goes with the focus: it comes back to the entry's Edit… button.
  const backToButtons = () => refocus(() => document.querySelector<HTMLElement>('[data-testid=edit-entry-open]'));
  const closeForm = () => {
    setEditing(null);
    backToButtons();
  };
  return (
    <div className="panel-body" data-testid="entry-detail">
      <div className="toolbar" style={{ justifyContent: 'space-between' }}>
        <span>
          <span className="badge">{entry.scope}</span> <span className="badge">{entry.kind}</span>{' '}
          <span className={`badge ${STATUS_TONE[entry.status] ?? ''}`}>{entry.status.replace('_', ' ')}</span> v
          {entry.version}
        </span>
        {entry.status !== 'deprecated' && !asking && !editing ? (
          <span className="toolbar">
            <button type="button" className="btn" onClick={() => setEditing('edit')} data-testid="edit-entry-open">
              Edit…
            </button>
            <button type="button" className="btn" onClick={() => setEditing('link')}>
              Link…
            </button>
          </span>
        ) : null}
        {entry.status !== 'deprecated' && !editing ? (
          asking ? (
            <form
              className="toolbar"
              onKeyDown={(e) =>
                escapeCloses(e, () => {
                  setAsking(false);
                  backToButtons();
                })
              }
              onSubmit={(e) => {
                e.preventDefault();
                deprecate.mutate({ id, reason });
              }}
            >
              <input
                className="input"
                autoFocus
                aria-label="Why deprecate"
                placeholder="why it is no longer valid"
                value={reason}
                onChange={(e) => setReason(e.target.value)}
              />
              <button type="submit" className="btn btn-danger" disabled={!reason.trim() || deprecate.isPending}>
                Deprecate
              </button>
            </form>
          ) : (
            <button type="button" className="btn" onClick={() => setAsking(true)}>
              Deprecate…
            </button>
          )
        ) : null}
      </div>
      {deprecate.error ? <ErrorBox error={deprecate.error} doing="deprecate it" /> : null}
      {editing === 'edit' ? (
        <EditEntryForm key={`${entry.id}:${entry.version}`} entry={entry} onDone={closeForm} />
      ) : (
        <p style={{ fontSize: 15, lineHeight: 1.5 }}>
          <MemoryText text={entry.content} />
        </p>
      )}
      {editing === 'link' ? <LinkEntryForm id={entry.id} onDone={closeForm} /> : null}
      <h3>Version history</h3>
      <ol className="steps" data-testid="versions">
        {versions.map((v, i) => (
          <li key={v.version} style={{ gridTemplateColumns: '40px 90px 1fr' }}>
            <b>v{v.version}</b>
            <span>
              {v.operation}
              <div className="cell-sub">{v.createdBy}</div>
            </span>
            <span>
              {i > 0 && versions[i - 1]!.content !== v.content ? (
                <TextDiff before={versions[i - 1]!.content} after={v.content} />
              ) : (
                <MemoryText text={v.content} />
              )}
              <div className="cell-sub">
                {v.status} · {v.scope} · {v.kind} · {fmtDateTime(new Date(v.createdAt).toISOString())}
                {v.eventId ? ` · event ${v.eventId}` : ''}
              </div>
              {v.note ? (
                <div className="cell-sub" data-testid="version-note">
                  Reason: <MemoryText text={v.note} />
                </div>
              ) : null}
            </span>
          </li>
        ))}
      </ol>
      {links.length ? (
        <>
          <h3>Linked entries</h3>
          <ul style={{ paddingLeft: 16, margin: 0 }}>
            {links.map((l) => (
              <li key={l.otherId + l.relation}>
                <span className={`badge ${/conflict|contradict/.test(l.relation) ? 'danger' : 'accent'}`}>
                  {l.relation.replace('_', ' ')}
                </span>{' '}
                <Link href={entryHref(l.otherId)}>
                  <MemoryText text={l.content} />
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h3>Provenance</h3>
      <dl className="kv">
        <dt>source event</dt>
        <dd>{entry.sourceEventId ? <Link href={eventHref(entry.sourceEventId)}>{entry.sourceEventId}</Link> : '—'}</dd>
        {decisions.map((d, i) => (
          <FragmentDecision key={i} d={d} />
        ))}
      </dl>
      <AnnotationsSection
        option={{
          key: 'entry',
          label: `entry: ${entry.content}`,
          group: 'This entry',
          target: { target: 'entry', entry_id: entry.id },
        }}
        filter={{ entryId: entry.id }}
      />
    </div>
  );
}

function FragmentDecision({
  d,
}: {
  d: { disposition: string; reason: string | null; decidedBy: string; decidedAt: Date };
}) {
  return (
    <>
      <dt>{d.disposition}</dt>
      <dd>
        by {d.decidedBy}, {fmtDateTime(new Date(d.decidedAt).toISOString())}
        {d.reason ? ` — ${d.reason}` : ''}
      </dd>
    </>
  );
}
