'use client';

import { entryHref } from '@/lib/pages';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState, type RefObject } from 'react';
import { CURATION_PAGE } from '@/lib/curation/event';
import { RETRIEVAL_KEEP_DAYS } from '@/lib/curation/retrievals';
import { readerToParams, readerWords } from '@/lib/curation/read-as';
import { fmtDateTime, fmtInt } from '@/lib/format';
import { useTRPC } from '@/components/trpc/provider';
import type { RouterOutputs } from '@/components/trpc/outputs';
import { Combobox } from '@/components/ui/combobox';
import { ListFoot } from '@/components/ui/list-foot';
import { Actor } from '@/components/ui/actor';
import { useRole } from '@/components/ui/use-role';
import { useKeepInSight } from '@/components/ui/use-focus';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { EmptyState, QueryError, SkeletonRows, updatingProps } from '@/components/ui/states';

type Detail = RouterOutputs['curation']['retrieval'];
type Item = Detail['items'][number];

const SOURCE: Record<Item['source'], string> = { memory_entry: 'entry', artifact: 'artifact' };

/**
 * Curation → Retrievals: every `search_memory` call of an agent, newest first, and for the one selected its results
 * to label relevant or not, plus the entries it missed. The labels are M6 (retrieval F1) on Health. Keyboard first:
 * j/k move between searches, ↑/↓ between results, y relevant, n not relevant.
 */
export function Retrievals() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const params = useSearchParams();
  const [unlabelled, setUnlabelled] = useState(false);
  // Keyset paged by the server, 100 at a time, with how many match: agents keep searching while a reviewer reads.
  const list = useInfiniteQuery({
    ...trpc.curation.retrievals.infiniteQueryOptions(
      { unlabelled, limit: CURATION_PAGE },
      { getNextPageParam: (last) => last.next },
    ),
    placeholderData: keepPreviousData,
  });
  const first = list.data?.pages[0];
  const total = first?.total ?? 0;
  const rows = useMemo(() => {
    const seen = new Set<string>();
    return (list.data?.pages.flatMap((p) => p.items) ?? []).filter((r) => !seen.has(r.id) && !!seen.add(r.id));
  }, [list.data]);
  const stale = list.isPlaceholderData;
  const wanted = params.get('retrieval');
  const found = wanted ? rows.findIndex((r) => r.id === wanted) : -1;
  const at = found >= 0 ? found : 0;
  // Where the shown search was: once labelled, it leaves the "unlabelled" list, and the next is the one in its place.
  const [lastAt, setLastAt] = useState(0);
  const gone = !!wanted && found < 0 && !stale && rows.length > 0;
  // A link to a search that is not among the rows loaded still opens it.
  const currentId = wanted ?? (stale ? undefined : rows[0]?.id);
  const detail = useQuery({
    ...trpc.curation.retrieval.queryOptions({ id: currentId ?? '00000000-0000-0000-0000-000000000000' }),
    // A link to a search that is gone (deleted after 90 days, another project's) is answered at once: "not found"
    // is not retried (lib/trpc/query-client.ts).
    enabled: !!currentId,
  });
  const { reviewer: canLabel } = useRole();
  const [banner, setBanner] = useState<{ tone: 'ok' | 'danger'; text: string } | null>(null);
  // The result row under the keyboard, per search: another search starts at its first row.
  const [cursor, setCursor] = useState<{ id: string | undefined; row: number }>({ id: undefined, row: 0 });
  const items = detail.data?.items ?? [];
  const row = cursor.id === currentId ? Math.min(cursor.row, Math.max(0, items.length - 1)) : 0;
  const rowRefs = useRef<(HTMLLIElement | null)[]>([]);

  const judge = useMutation(
    trpc.curation.judge.mutationOptions({
      onSuccess: (r) =>
        setBanner({
          tone: 'ok',
          text: r.returned
            ? `Marked ${r.relevant ? 'relevant' : 'not relevant'}.`
            : r.relevant
              ? 'Added as an item the search missed.'
              : 'Marked not relevant: no longer counted as missed.',
        }),
      onError: (e) => setBanner({ tone: 'danger', text: e.message }),
      onSettled: (_r, _e, v) =>
        Promise.all([
          qc.invalidateQueries({ queryKey: trpc.curation.retrieval.queryKey({ id: v.retrievalId }) }),
          qc.invalidateQueries({ queryKey: trpc.curation.retrievals.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.curation.health.queryKey() }),
        ]),
    }),
  );
  const label = (item: Item, relevant: boolean) =>
    currentId && judge.mutate({ retrievalId: currentId, source: item.source, itemId: item.id, relevant });

  const pick = (i: number) => {
    // What the banner says was about the search shown: moving on puts it away.
    setBanner(null);
    setLastAt(i);
    const id = rows[i]?.id;
    if (id) router.replace(`/curation/retrievals?retrieval=${id}`, { scroll: false });
  };
  const moveTo = (i: number) => {
    setCursor({ id: currentId, row: i });
    rowRefs.current[i]?.focus();
  };

  // The search shown stays in sight in its list.
  useKeepInSight('retrieval', currentId);

  // The window listener calls the latest handler (it reads this render's state).
  const onKeyRef = useRef<(e: KeyboardEvent) => void>(() => {});
  useEffect(() => {
    onKeyRef.current = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t.closest('input, textarea, select, [contenteditable]') || e.ctrlKey || e.metaKey || e.altKey) return;
      if (document.querySelector('[role=dialog]')) return;
      const next = gone ? lastAt : at + 1;
      // Arrows, Home and End are the results list's, and the page's (scrolling) wherever else the focus is. With the
      // focus on no control (the body, or the main region a navigation put it in), they are the list's.
      const inList = t === document.body || t.id === 'main' || !!t.closest('.judge-list');
      if (e.key === 'j' && rows.length && !stale) {
        if (next >= rows.length && list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
        pick(Math.min(next, rows.length - 1));
      } else if (e.key === 'k' && rows.length && !stale) pick(Math.max((gone ? lastAt : at) - 1, 0));
      else if (!items.length || detail.isPlaceholderData) return;
      else if (['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key) && !inList) return;
      else if (e.key === 'ArrowDown') moveTo(Math.min(row + 1, items.length - 1));
      else if (e.key === 'ArrowUp') moveTo(Math.max(row - 1, 0));
      else if (e.key === 'Home') moveTo(0);
      else if (e.key === 'End') moveTo(items.length - 1);
      else if ((e.key === 'y' || e.key === 'n') && canLabel) {
        label(items[row]!, e.key === 'y');
        // On to the next result, as a reviewer labels them in order.
        if (row + 1 < items.length) moveTo(row + 1);
      } else return;
      e.preventDefault();
    };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => onKeyRef.current(e);
    window.addEventListener('keydown', onKey);
    document.documentElement.dataset.retrievalKeys = '1';
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <>
      <p className="muted" style={{ marginTop: 0 }}>
        Every <code>search_memory</code> call of an agent (MCP), with what it returned. Mark each result relevant or
        not, and add the entries it should have found: the labels give retrieval precision, recall and F1 (M6) on{' '}
        <Link href="/curation/health">Health</Link>. Queries are stored with secrets redacted; searches older than{' '}
        {RETRIEVAL_KEEP_DAYS} days are deleted.
      </p>
      <div className="toolbar" style={{ flexWrap: 'wrap', marginBottom: 10 }}>
        <div className="seg" role="group" aria-label="Which searches">
          {[false, true].map((u) => (
            <button key={String(u)} type="button" aria-pressed={unlabelled === u} onClick={() => setUnlabelled(u)}>
              {u ? 'unlabelled' : 'all'}{' '}
              <span className="muted">{fmtInt(u ? total - (first?.labelled ?? 0) : total)}</span>
            </button>
          ))}
        </div>
      </div>
      <div className="hint-bar hint-bar-inline" data-testid="hint-bar">
        <span>
          <kbd>j</kbd>/<kbd>k</kbd> move between searches
        </span>
        <span>
          <kbd>↑</kbd>/<kbd>↓</kbd> move between results
        </span>
        <span>
          <kbd>y</kbd> relevant · <kbd>n</kbd> not relevant
        </span>
      </div>
      {banner ? (
        <div className={`banner ${banner.tone}`} role="status" data-testid="retrieval-banner">
          {banner.text}
        </div>
      ) : null}
      <QueryError query={list} />
      <div className="inbox">
        <Panel as="div" className="inbox-list" testId="retrievals-list" body={false}>
          {list.isPending || (stale && !rows.length) ? (
            <table className="data">
              <SkeletonRows cols={2} />
            </table>
          ) : !rows.length ? (
            <EmptyState title={unlabelled ? 'Every search is labelled' : 'No searches logged yet'}>
              Agents search durable memory with the MCP tool <code>search_memory</code>; each call appears here.{' '}
              <Link className="u-link" href="/connect">
                Connect
              </Link>{' '}
              shows how to give an agent the tool.
            </EmptyState>
          ) : (
            <div role="list" aria-label="Logged searches" {...updatingProps(stale)}>
              {rows.map((r, i) => (
                <div
                  key={r.id}
                  className="inbox-row"
                  role="listitem"
                  style={{ gridTemplateColumns: '1fr' }}
                  data-current={r.id === currentId ? 'true' : undefined}
                  data-retrieval={r.id}
                >
                  <button
                    type="button"
                    className="row-pick"
                    onClick={() => pick(i)}
                    aria-current={r.id === currentId ? 'true' : undefined}
                    aria-keyshortcuts="j k"
                  >
                    <MemoryText className="clip" text={r.query} />
                    <span className="meta">
                      <span className="nowrap">{fmtDateTime(r.at)}</span>
                      <Actor actor={r.actor} />
                      <span className="badge">{r.mode}</span>
                      {r.reader ? (
                        <span className="badge badge-clip" title={`searched as ${readerWords(r.reader)}`}>
                          as {readerWords(r.reader)}
                        </span>
                      ) : null}
                      <span>
                        {fmtInt(r.returned)} result{r.returned === 1 ? '' : 's'} (limit {fmtInt(r.limit)})
                      </span>
                      {r.judged || r.missed ? (
                        <span className="badge accent">
                          {fmtInt(r.judged)} labelled{r.missed ? ` · ${fmtInt(r.missed)} missed` : ''}
                        </span>
                      ) : (
                        <span className="badge">unlabelled</span>
                      )}
                    </span>
                  </button>
                </div>
              ))}
            </div>
          )}
          <ListFoot
            testId="retrievals-count"
            shown={rows.length}
            matching={first?.matching ?? 0}
            noun="searches"
            page={CURATION_PAGE}
            query={list}
          />
        </Panel>
        <Panel as="div" className="detail" testId="retrieval-detail" body={false}>
          {detail.error ? (
            <QueryError query={detail} />
          ) : currentId && detail.data ? (
            <RetrievalDetail
              data={detail.data}
              row={row}
              canLabel={canLabel}
              rowRefs={rowRefs}
              onFocusRow={(i) => setCursor({ id: currentId, row: i })}
              onLabel={label}
              onMissed={(entryId) =>
                currentId &&
                judge.mutate({ retrievalId: currentId, source: 'memory_entry', itemId: entryId, relevant: true })
              }
            />
          ) : currentId ? (
            <div className="panel-body muted">Loading the search…</div>
          ) : !list.isPending && !stale && !rows.length ? (
            <EmptyState title="Nothing to label here">
              When a search is listed, its results are labelled here: relevant (y) or not (n), and the entries it
              missed.
            </EmptyState>
          ) : (
            <EmptyState title="Select a search">Use j and k to move through the list.</EmptyState>
          )}
        </Panel>
      </div>
    </>
  );
}

function RetrievalDetail({
  data,
  row,
  canLabel,
  rowRefs,
  onFocusRow,
  onLabel,
  onMissed,
}: {
  data: Detail;
  row: number;
  canLabel: boolean;
  rowRefs: RefObject<(HTMLLIElement | null)[]>;
  onFocusRow: (i: number) => void;
  onLabel: (item: Item, relevant: boolean) => void;
  onMissed: (entryId: string) => void;
}) {
  const r = data.retrieval;
  const returned = data.items.filter((i) => i.returned);
  const secrets = r.redactions.reduce((n, x) => n + x.count, 0);
  return (
    <div className="panel-body">
      <h3 style={{ marginTop: 0 }}>Query</h3>
      <div data-testid="retrieval-query">
        <MemoryText className="pre" text={r.query} />
      </div>
      <div className="cell-sub">
        {fmtDateTime(r.at)} · <Actor actor={r.actor} /> · {r.mode} · limit {fmtInt(r.limit)}
        {secrets ? ` · ${fmtInt(secrets)} secret${secrets === 1 ? '' : 's'} redacted` : ''}
      </div>
      {r.reader ? (
        <div className="cell-sub" data-testid="retrieval-reader">
          Searched as {readerWords(r.reader)}: it could return only what that reader reads, so only such an entry is a
          miss.{' '}
          <Link className="u-link" href={`/curation/read-as?${readerToParams(r.reader).toString()}`}>
            Read as this reader
          </Link>
        </div>
      ) : null}
      {canLabel ? (
        <MissedEntryPicker
          listed={new Set(data.items.filter((i) => i.source === 'memory_entry').map((i) => i.id))}
          onPick={onMissed}
        />
      ) : null}
      <h3>Results {canLabel ? '' : '(reviewers label them)'}</h3>
      {!returned.length ? <p className="muted">The search returned nothing.</p> : null}
      <ol className="judge-list" aria-label="Results and missed items">
        {data.items.map((item, i) => (
          <li
            key={`${item.source}:${item.id}`}
            ref={(el) => {
              rowRefs.current[i] = el;
            }}
            className="judge-row"
            tabIndex={i === row ? 0 : -1}
            aria-current={i === row ? 'true' : undefined}
            aria-keyshortcuts={canLabel ? 'y n ArrowUp ArrowDown Home End' : 'ArrowUp ArrowDown Home End'}
            onFocus={() => onFocusRow(i)}
            data-testid="retrieval-item"
            data-item={item.id}
            data-label={item.relevant === null ? 'unlabelled' : item.relevant ? 'relevant' : 'not-relevant'}
          >
            <span className="judge-rank">{item.rank === null ? 'missed' : `#${item.rank}`}</span>
            <div style={{ minWidth: 0 }}>
              {item.content === null ? (
                <span className="muted">No longer stored.</span>
              ) : (
                <MemoryText className="pre" text={item.content} />
              )}
              <div className="cell-sub">
                <span className="badge">{SOURCE[item.source]}</span>{' '}
                {item.scope ? <span className="badge">{item.scope}</span> : null}{' '}
                {item.kind ? <span className="badge">{item.kind}</span> : null}{' '}
                {item.status && item.status !== 'active' ? (
                  <span className="badge warn">{item.status.replace('_', ' ')}</span>
                ) : null}{' '}
                {item.source === 'memory_entry' ? (
                  <Link href={entryHref(item.id)}>open</Link>
                ) : (
                  <span className="mono">{item.id}</span>
                )}
                {item.judgedBy ? ` · labelled by ${item.judgedBy}` : ''}
              </div>
            </div>
            <div className="seg" role="group" aria-label={`Label result ${item.rank ?? 'missed'}`}>
              <button
                type="button"
                aria-pressed={item.relevant === true}
                disabled={!canLabel}
                onClick={() => onLabel(item, true)}
              >
                relevant
              </button>
              <button
                type="button"
                aria-pressed={item.relevant === false}
                disabled={!canLabel}
                onClick={() => onLabel(item, false)}
              >
                not relevant
              </button>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** A combobox over the project's memory entries, searched by the words typed. */
function MissedEntryPicker({ listed, onPick }: { listed: ReadonlySet<string>; onPick: (entryId: string) => void }) {
  const trpc = useTRPC();
  const id = useId();
  const [text, setText] = useState('');
  const deferred = useDeferredValue(text.trim());
  const found = useQuery({
    ...trpc.curation.entries.queryOptions({ query: deferred, scope: null, status: null, limit: 8 }),
    enabled: deferred.length > 0,
    placeholderData: keepPreviousData,
  });
  const options = deferred ? (found.data?.items ?? []).filter((e) => !listed.has(e.id)) : [];
  return (
    <div>
      <label htmlFor={id} className="cell-sub" style={{ display: 'block', margin: '12px 0 4px' }}>
        Add an entry the search missed
      </label>
      <Combobox
        id={id}
        listLabel="Memory entries"
        text={text}
        onText={setText}
        options={options}
        optionKey={(o) => o.id}
        onPick={(o) => {
          onPick(o.id);
          setText('');
        }}
        placeholder="words in the entry"
        inputStyle={{ width: '100%' }}
        renderOption={(o) => (
          <>
            <MemoryText className="clip" text={o.content} />
            <span className="cell-sub">
              {o.scope} · {o.kind}
              {o.status !== 'active' ? ` · ${o.status.replace('_', ' ')}` : ''}
            </span>
          </>
        )}
      />
      {deferred && found.data && !found.isPlaceholderData && !options.length ? (
        <div className="cell-sub">No other entry holds “{deferred}”.</div>
      ) : null}
    </div>
  );
}
