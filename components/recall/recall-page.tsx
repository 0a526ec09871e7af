'use client';

import Link from 'next/link';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { RecallHit, SearchMode } from '@/lib/recall/engine';
import {
  itemPlace,
  KIND_LABEL,
  RECALL_KINDS,
  type RecallFilters,
  type RecallItem,
  type RecallKind,
} from '@/lib/recall/items';
import { readRecallView, RECALL_VIEW, writeRecallView } from '@/lib/recall/url';
import { fmtInt, plural } from '@/lib/format';
import { sameness, type Sameness } from '@/lib/curation/sameness';
import { Combobox } from '@/components/ui/combobox';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { EmptyState, ErrorBox } from '@/components/ui/states';
import { RecallStatusBar } from './status-bar';
import { useRecallStatus } from './client';
import { useDuplicates, useFacets, useMoreLikeThis, useRecallSearch, useRecallStarted } from './use-recall';

const MODES: { id: SearchMode; label: string; title: string }[] = [
  { id: 'hybrid', label: 'Hybrid', title: 'Keyword (BM25) and meaning (cosine), fused by reciprocal rank' },
  { id: 'keyword', label: 'Keyword', title: 'BM25 only: exact words and identifiers' },
  { id: 'vector', label: 'Meaning', title: 'Cosine similarity of embeddings only' },
];

/** How many results a search lists, and similar items "more like this". */
const SHOWN = { search: 50, like: 30 };
/** Each ranked list's depth while the results are paged: one for every page, so that Show more never reorders. */
const PAGED_DEPTH = 1000;

/** A change of the search this long after the last is a new entry in the history; sooner, it rewrites that one. */
const NEW_ENTRY_AFTER_MS = 1000;

/** The Recall page. Its search is kept in the address's fragment (`lib/recall/url.ts`). */
export function RecallPage() {
  useRecallStarted();
  const [tab, setTab] = useState(RECALL_VIEW.tab);
  const [query, setQuery] = useState(RECALL_VIEW.q);
  const [mode, setMode] = useState<SearchMode>(RECALL_VIEW.mode);
  const [kinds, setKinds] = useState<RecallKind[]>(RECALL_VIEW.kinds);
  const [agent, setAgent] = useState(RECALL_VIEW.agent);
  const [session, setSession] = useState(RECALL_VIEW.session);
  const [scope, setScope] = useState(RECALL_VIEW.scope);
  const [from, setFrom] = useState(RECALL_VIEW.from);
  const [to, setTo] = useState(RECALL_VIEW.to);
  // "More like this": the item's id (in the address too); its similar items are shown instead of the results.
  const [likeId, setLikeId] = useState(RECALL_VIEW.like);
  // When the address was last written: a burst of typing and clicks is one entry in the history, so that Back returns
  // to the search before it rather than to each letter. Written with a null state, as Next.js asks (it adds its own
  // state to the entry and learns the address; given its state, it takes the call for its own and does not).
  const wroteAt = useRef(-Infinity);
  const rewrite = useRef(false);
  // The fragment as last read or written here. Another differs: the address changed (a link, Back, a `goto`) and its
  // `hashchange` has not been heard yet, so the search shown is not the address's and must not be written over it.
  const known = useRef<string | null>(null);
  // The address's search is read once mounted (the server never sees the fragment), and again when it changes: how
  // many times it was read, and the count the state rendered was read at (0: not yet). A render begun before the
  // latest read holds the search before it: its write must wait for the render that holds the read (under load, the
  // render of a sidebar link's empty search committed after Back was read, and wrote '/recall' over Back's search).
  const reads = useRef(0);
  const [readAt, setReadAt] = useState(0);
  const applyAddress = useRef(() => {});
  useEffect(() => {
    const apply = () => {
      known.current = window.location.hash;
      setReadAt(++reads.current);
      const v = readRecallView(new URLSearchParams(window.location.hash.slice(1)));
      setTab(v.tab);
      setQuery(v.q);
      setMode(v.mode);
      setKinds(v.kinds);
      setAgent(v.agent);
      setSession(v.session);
      setScope(v.scope);
      setFrom(v.from);
      setTo(v.to);
      setLikeId(v.like);
      // The address read is written back in its own form (`%20` as `+`, defaults left out) in place, not as a new
      // entry: else Back to a link's address would push it again and never leave. A change after that is a new entry.
      rewrite.current = true;
    };
    applyAddress.current = apply;
    apply();
    window.addEventListener('hashchange', apply);
    // An address changed by pushState or replaceState (another script's, a link's) fires no hashchange; where the
    // browser has the Navigation API, it says so (the guard in the write below covers the rest).
    const nav = (window as unknown as { navigation?: EventTarget }).navigation;
    const moved = () => {
      if (window.location.hash !== known.current) apply();
    };
    nav?.addEventListener('currententrychange', moved);
    return () => {
      window.removeEventListener('hashchange', apply);
      nav?.removeEventListener('currententrychange', moved);
    };
  }, []);
  const facets = useFacets();
  const filters: RecallFilters = useMemo(
    () => ({
      kinds,
      agent: agent || null,
      session: session || null,
      scope: scope || null,
      from: from ? new Date(from).toISOString() : null,
      to: to ? new Date(`${to}T23:59:59.999Z`).toISOString() : null,
    }),
    [kinds, agent, session, scope, from, to],
  );
  const deferred = useDeferredValue(query.trim());
  // The search lives in the address: a reload or a shared link shows it again, and Back the one before. Written once
  // the words are searched (not with the filters of one search and the words of the one before).
  const settled = deferred === query.trim();
  useEffect(() => {
    if (!readAt || !settled || readAt !== reads.current) return;
    if (window.location.hash !== known.current) return applyAddress.current();
    const hash = writeRecallView({ tab, q: deferred, mode, kinds, agent, session, scope, from, to, like: likeId });
    const wanted = hash ? `#${hash}` : '';
    const url = `${window.location.pathname}${window.location.search}${wanted}`;
    known.current = wanted;
    if (rewrite.current) {
      rewrite.current = false;
      wroteAt.current = -Infinity;
      if (wanted !== window.location.hash) window.history.replaceState(null, '', url);
      return;
    }
    if (wanted === window.location.hash) return;
    const now = performance.now();
    if (now - wroteAt.current > NEW_ENTRY_AFTER_MS) window.history.pushState(null, '', url);
    else window.history.replaceState(null, '', url);
    wroteAt.current = now;
  }, [readAt, settled, tab, deferred, mode, kinds, agent, session, scope, from, to, likeId]);
  // Results come 50 at a time (similar items 30): "Show more" lists the next ones, until other words, filters or item.
  const asked = JSON.stringify([deferred, mode, filters, likeId]);
  const [pages, setPages] = useState({ asked, n: 1 });
  // Another search starts at its first page (and a search come back to later too).
  if (pages.asked !== asked) setPages({ asked, n: 1 });
  const page = pages.asked === asked ? pages.n : 1;
  // One more than is shown is asked for: the page then knows that more match, and says it shows the best only.
  const search = useRecallSearch(
    deferred,
    { mode, filters, limit: SHOWN.search * page + 1, depth: Math.max(PAGED_DEPTH, SHOWN.search * page + 1) },
    tab === 'search' && !likeId,
  );
  const more = useMoreLikeThis(tab === 'search' && likeId ? likeId : null, {
    filters,
    limit: SHOWN.like * page + 1,
  });
  // The item asked about, once the worker has found it (null too when memory does not hold it).
  const like = likeId ? (more.data?.item ?? null) : null;
  const toggleKind = (k: RecallKind) => setKinds((ks) => (ks.includes(k) ? ks.filter((x) => x !== k) : [...ks, k]));
  const active = likeId ? more : search;
  // While the next page is searched, the rows shown are still the page before's (its "more match" and button stay).
  const shownPage = active.isPlaceholderData && page > 1 && pages.asked === asked ? page - 1 : page;
  const shown = (likeId ? SHOWN.like : SHOWN.search) * shownPage;
  const found = active.data?.hits ?? [];
  const moreMatch = found.length > shown;
  const hits = moreMatch ? found.slice(0, shown) : found;
  // The answer shown is to words or filters before, while these are searched.
  const updating = active.isPlaceholderData || (!likeId && deferred !== query.trim());
  // Show more pressed with the focus on it: the first new result of that search takes the focus once listed.
  const nextFocus = useRef<{ asked: string; row: number } | null>(null);
  useEffect(() => {
    const next = nextFocus.current;
    if (!next || updating || (next.asked === asked && hits.length <= next.row)) return;
    nextFocus.current = null;
    if (next.asked !== asked) return;
    document.querySelectorAll<HTMLElement>('[data-testid=recall-results] [data-testid=hit-link]')[next.row]?.focus();
  }, [hits, updating, asked]);
  const empty = useRecallStatus((st) => st.corpus === 'ready' && st.items === 0);
  // All of memory is in the index (a large project's first load comes in pages): only then is an item known missing.
  const corpusReady = useRecallStatus((st) => st.corpus === 'ready');
  // Memory not loaded yet: an empty answer says nothing of it.
  const loadingMemory = useRecallStatus((st) => st.corpus === 'idle' || (st.corpus === 'loading' && !st.items));
  // Meaning search over part of memory (the status bar counts how far it has got): an answer can change once the model
  // has every item. Fixed words, so that the page and a screen reader are not told of every batch embedded.
  const partial = useRecallStatus((st) =>
    st.model === 'loading' || st.model === 'idle'
      ? 'Meaning search starts once the model has loaded: until then, this is by keyword only.'
      : st.model === 'ready' && st.toEmbed > 0 && st.embedded < st.toEmbed
        ? 'Meaning search has not reached every item yet (see the bar above): the results refresh once it has.'
        : null,
  );
  const partialNote = !likeId && mode !== 'keyword' && partial ? partial : null;
  // What the results panel shows instead of results, if anything.
  const instead = empty ? (
    <EmptyState title="No memory to search yet">
      Turns, memory events, artifacts and substrate knowledge appear here as agents send them to{' '}
      <code>POST /api/v1/ingest</code> (or import files in Settings).
    </EmptyState>
  ) : !likeId && !deferred ? (
    <EmptyState title="Search memory by meaning or by exact words">
      Try “the web server keeps returning bad gateway”, an error code, or a tool name. <kbd>Ctrl</kbd> <kbd>K</kbd>{' '}
      searches from any page.
    </EmptyState>
  ) : loadingMemory ? (
    <EmptyState title="Loading memory…">The words are searched once this project&apos;s memory has loaded.</EmptyState>
  ) : likeId && more.data && !more.data.item && !more.isPlaceholderData && corpusReady ? (
    <EmptyState title="That item is not in this project's memory">
      The link asks for items like <code>{likeId}</code>, which memory does not hold: deleted since, or from another
      project. Go back to the results, or search.
    </EmptyState>
  ) : active.data && !hits.length && !active.isPlaceholderData ? (
    <EmptyState title={likeId ? 'Nothing similar enough' : `Nothing matches “${deferred}”`}>
      {partialNote ? <span data-testid="recall-partial">{partialNote} </span> : null}
      Loosen the filters, or try other words.
    </EmptyState>
  ) : null;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Recall</h1>
          <div className="sub">
            Search everything the agents remember by meaning and by exact words. Embeddings are computed in this
            browser; memory text never leaves the machine.
          </div>
        </div>
        <div className="seg" role="group" aria-label="View">
          <button type="button" aria-pressed={tab === 'search'} onClick={() => setTab('search')}>
            Search
          </button>
          <button type="button" aria-pressed={tab === 'duplicates'} onClick={() => setTab('duplicates')}>
            Duplicates
          </button>
        </div>
      </div>
      <RecallStatusBar />
      <div className="recall-filters" aria-label="Filters">
        {tab === 'search' ? (
          <>
            <input
              className="input"
              type="search"
              autoFocus
              placeholder="e.g. the web server keeps returning bad gateway · keepalive_timeout"
              aria-label="Search memory"
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setLikeId('');
              }}
              style={{ width: 440 }}
            />
            <div className="seg" role="group" aria-label="Ranking">
              {MODES.map((m) => (
                <button
                  key={m.id}
                  type="button"
                  aria-pressed={mode === m.id}
                  title={m.title}
                  onClick={() => setMode(m.id)}
                >
                  {m.label}
                </button>
              ))}
            </div>
          </>
        ) : null}
        <select className="select" aria-label="Agent" value={agent} onChange={(e) => setAgent(e.target.value)}>
          <option value="">all agents</option>
          {facets.data?.agents.map((a) => (
            <option key={a}>{a}</option>
          ))}
          <Unknown value={agent} known={facets.data?.agents} />
        </select>
        <SessionFilter sessions={facets.data?.sessions ?? []} value={session} onChange={setSession} />
        <select className="select" aria-label="Scope" value={scope} onChange={(e) => setScope(e.target.value)}>
          <option value="">all scopes</option>
          {facets.data?.scopes.map((a) => (
            <option key={a}>{a}</option>
          ))}
          <Unknown value={scope} known={facets.data?.scopes} />
        </select>
        <label className="muted" style={{ fontSize: 12 }}>
          from{' '}
          <input
            className="input"
            type="date"
            aria-label="From date"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
        </label>
        <label className="muted" style={{ fontSize: 12 }}>
          to{' '}
          <input
            className="input"
            type="date"
            aria-label="To date"
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
        </label>
      </div>
      <div className="recall-filters" role="group" aria-label="Kinds">
        {RECALL_KINDS.map((k) => (
          <button
            key={k}
            type="button"
            className="kind-toggle"
            aria-pressed={kinds.includes(k)}
            onClick={() => toggleKind(k)}
          >
            {KIND_LABEL[k]} <span className="muted">{fmtInt(facets.data?.kinds[k] ?? 0)}</span>
          </button>
        ))}
      </div>
      {tab === 'duplicates' ? (
        <DuplicatesView filters={filters} />
      ) : (
        <>
          {likeId ? (
            <div className="toolbar" style={{ marginBottom: 8 }} data-testid="more-like">
              <span>
                More like{' '}
                {like ? (
                  <>
                    <span className="badge accent">{KIND_LABEL[like.kind]}</span>{' '}
                    <MemoryText className="mono" text={like.text.slice(0, 90)} />
                  </>
                ) : (
                  <code>{likeId}</code>
                )}
              </span>
              <button type="button" className="btn" onClick={() => setLikeId('')}>
                Back to results
              </button>
            </div>
          ) : null}
          {active.error ? <ErrorBox error={active.error} /> : null}
          <Panel
            as="div"
            body={false}
            title={
              instead ? undefined : (
                <span className={updating ? 'muted' : undefined} data-testid="recall-count">
                  {moreMatch
                    ? likeId
                      ? `The ${shown} most similar items`
                      : `The top ${shown} results`
                    : likeId
                      ? plural(hits.length, 'similar item')
                      : plural(hits.length, 'result')}
                  {moreMatch ? (
                    <span className="faint" style={{ fontWeight: 400 }} data-testid="more-match">
                      {' '}
                      · more match: show more below, or add words or filters to narrow
                    </span>
                  ) : null}
                  {updating ? ' (the answer before)' : ''}
                </span>
              )
            }
            actions={
              instead ? undefined : (
                <span className="muted" style={{ fontWeight: 400, fontSize: 12 }} data-testid="recall-timing">
                  {active.data && !updating
                    ? `${active.data.ms.toFixed(1)} ms in the worker` +
                      ('mode' in active.data ? ` · ${active.data.mode}` : '')
                    : 'searching…'}
                </span>
              )
            }
          >
            {!instead &&
            !likeId &&
            mode === 'hybrid' &&
            !active.isPlaceholderData &&
            hits.length &&
            hits.every((h) => h.keywordRank === null) ? (
              // Nothing shares a word with the query: what is listed is only the nearest by meaning, however weak.
              <div className="banner warn" role="status" data-testid="meaning-only" style={{ margin: 10 }}>
                No result shares a word with “{deferred}”: these are only the nearest by meaning (cosine at most{' '}
                {Math.max(...hits.map((h) => h.cosine ?? 0)).toFixed(2)}), which a static model gives any text.
                {partialNote ? ` ${partialNote}` : null}
              </div>
            ) : null}
            {instead ?? <HitTable hits={hits} onMore={(item) => setLikeId(item.id)} updating={updating} />}
            {!instead && moreMatch ? (
              <div className="table-foot">
                <span className="muted">Showing the best {fmtInt(hits.length)}</span>
                <button
                  type="button"
                  className="btn"
                  disabled={updating}
                  onClick={(e) => {
                    // Pressed by keyboard or clicked: focus goes on to the first new result once it is listed.
                    if (e.currentTarget === document.activeElement) nextFocus.current = { asked, row: hits.length };
                    setPages({ asked, n: page + 1 });
                  }}
                  data-testid="recall-show-more"
                >
                  {updating ? 'Searching…' : `Show ${likeId ? SHOWN.like : SHOWN.search} more`}
                </button>
              </div>
            ) : null}
          </Panel>
        </>
      )}
    </>
  );
}

function HitTable({
  hits,
  onMore,
  updating,
}: {
  hits: RecallHit[];
  onMore: (item: RecallItem) => void;
  updating: boolean;
}) {
  return (
    <DataTable
      testId="recall-results"
      headless
      updating={updating}
      rows={hits}
      rowKey={(h) => h.item.id}
      rowProps={(h) => ({ 'data-kind': h.item.kind })}
      columns={[
        {
          id: 'kind',
          header: 'Kind',
          className: 'nowrap',
          width: 1,
          cell: (h) => (
            <>
              <span className="badge accent">{KIND_LABEL[h.item.kind]}</span>
              {h.item.label ? (
                <div className="cell-sub">
                  <MemoryText text={h.item.label.slice(0, 28)} />
                </div>
              ) : null}
            </>
          ),
        },
        {
          id: 'text',
          header: 'Memory',
          cell: (h) => (
            <>
              <Link href={h.item.href} className="hit-link" data-testid="hit-link">
                <MemoryText className="clip" text={h.item.text} />
              </Link>
              <div className="cell-sub">{itemPlace(h.item)}</div>
            </>
          ),
        },
        {
          id: 'why',
          header: 'Why',
          className: 'hit-why',
          width: 1,
          cell: (h) => (
            <>
              {h.keywordRank ? (
                <div>
                  <b>keyword</b> #{h.keywordRank}
                </div>
              ) : null}
              {h.vectorRank ? (
                <div>
                  <b>meaning</b> #{h.vectorRank}
                </div>
              ) : null}
              {h.cosine !== null ? <div>cos {h.cosine.toFixed(2)}</div> : null}
            </>
          ),
        },
        {
          id: 'more',
          header: '',
          width: 1,
          cell: (h) => (
            <button
              type="button"
              className="btn"
              onClick={() => onMore(h.item)}
              title="Find items with the same meaning"
            >
              More like this
            </button>
          ),
        },
      ]}
    />
  );
}

const SHOWN_CLUSTERS = 200;
const SHOWN_ITEMS = 8;

/** How an item reads against its cluster's first, by the curator's rules: the same fact, maybe, or another one. */
function SameAsFirst({ v }: { v: Sameness }) {
  const words = (list: string[]) => list.slice(0, 4).join(' ') || '—';
  const tone = v.verdict === 'same' ? 'ok' : v.verdict === 'near' ? 'warn' : 'danger';
  const label = v.verdict === 'same' ? 'same fact' : v.verdict === 'near' ? 'maybe the same' : 'another fact';
  return (
    <span className="nowrap" data-verdict={v.verdict} title={v.because}>
      <span className={`badge ${tone}`}>{label}</span>
      {v.verdict === 'same' ? null : (
        <span className="cell-sub mono">
          {' '}
          {words(v.onlyB)} ≠ {words(v.onlyA)}
        </span>
      )}
    </span>
  );
}

function DuplicatesView({ filters }: { filters: RecallFilters }) {
  const [threshold, setThreshold] = useState(0.92);
  const deferred = useDeferredValue(threshold);
  const dups = useDuplicates(deferred, filters, true);
  const clusters = useMemo(() => dups.data?.clusters ?? [], [dups.data]);
  // A cosine says the wording is alike, not that the facts are: each item shown is read against the first by the
  // curator's own rules (lib/curation/sameness.ts, without the server's WordNet), the words that differ marked.
  const verdicts = useMemo(
    () =>
      clusters
        .slice(0, SHOWN_CLUSTERS)
        .map((c) => c.items.slice(1, SHOWN_ITEMS).map((it) => sameness(c.items[0]!.text, it.text))),
    [clusters],
  );
  const differing = verdicts.flat().filter((v) => v.verdict === 'distinct').length;
  return (
    <Panel
      as="div"
      body={false}
      title={
        dups.data
          ? `${fmtInt(clusters.length)} clusters of alike wording · ` +
            `${fmtInt(clusters.reduce((s, c) => s + c.items.length, 0))} items` +
            (differing ? ` · ${fmtInt(differing)} shown state a different fact than their cluster's first` : '')
          : 'finding duplicates…'
      }
      actions={
        <label className="muted" style={{ fontWeight: 400, fontSize: 12 }}>
          cosine ≥ {threshold.toFixed(2)}{' '}
          <input
            type="range"
            min={0.8}
            max={0.99}
            step={0.01}
            value={threshold}
            aria-label="Similarity threshold"
            onChange={(e) => setThreshold(Number(e.target.value))}
          />
        </label>
      }
    >
      {dups.error ? <ErrorBox error={dups.error} /> : null}
      {dups.data && !clusters.length ? (
        <EmptyState title="No near-duplicates at this threshold">Lower the threshold or widen the filters.</EmptyState>
      ) : null}
      <div data-testid="duplicate-clusters">
        {clusters.slice(0, SHOWN_CLUSTERS).map((c, ci) => (
          <div className="cluster" key={c.items[0]!.id}>
            <div className="cell-sub">
              {c.items.length} items · each at cos ≥ {threshold.toFixed(2)} to the first · the farthest: cos{' '}
              {c.minCosine.toFixed(3)}
            </div>
            {c.items.slice(0, SHOWN_ITEMS).map((it, i) => (
              <div key={it.id} style={{ display: 'flex', gap: 8, alignItems: 'baseline' }}>
                <span className="badge">{KIND_LABEL[it.kind]}</span>
                <Link href={it.href}>
                  <MemoryText className="clip" text={it.text.slice(0, 200)} />
                </Link>
                <span className="cell-sub">{it.session ?? it.agent ?? it.scope ?? ''}</span>
                {i ? <SameAsFirst v={verdicts[ci]![i - 1]!} /> : null}
              </div>
            ))}
            {c.items.length > SHOWN_ITEMS ? (
              <div className="cell-sub">and {c.items.length - SHOWN_ITEMS} more</div>
            ) : null}
          </div>
        ))}
      </div>
    </Panel>
  );
}

/** At most this many sessions are listed at once; typing narrows them. */
const SESSION_OPTIONS = 50;

/**
 * The session filter: a combobox over every session in the index, narrowed by the words typed (a project may hold
 * thousands). Clearing the text shows all sessions again; leaving it half-typed keeps the session picked before.
 */
function SessionFilter({
  sessions,
  value,
  onChange,
}: {
  sessions: readonly string[];
  value: string;
  onChange: (session: string) => void;
}) {
  const [text, setText] = useState(value);
  const needle = text.trim().toLowerCase();
  const options = useMemo(() => {
    const found =
      needle && needle !== value.toLowerCase() ? sessions.filter((s) => s.toLowerCase().includes(needle)) : sessions;
    return found.slice(0, SESSION_OPTIONS);
  }, [sessions, needle, value]);
  return (
    <Combobox
      label="Session"
      listLabel="Sessions"
      text={text}
      onText={(t) => {
        setText(t);
        if (!t.trim()) onChange('');
      }}
      options={options}
      optionKey={(s) => s}
      renderOption={(s) => <span className="mono clip">{s}</span>}
      onPick={(s) => {
        setText(s);
        onChange(s);
      }}
      onBlur={() => {
        const exact = sessions.find((s) => s.toLowerCase() === needle);
        if (exact && exact !== value) onChange(exact);
        setText(exact ?? value);
      }}
      placeholder={sessions.length > 1 ? `all ${fmtInt(sessions.length)} sessions` : 'all sessions'}
      inputStyle={{ width: 200 }}
    />
  );
}

/**
 * A filter a link names that nothing stored has ("agent=nobody"): shown as the select's value, so that the empty
 * answer it gives can be seen and undone, not a filter hidden behind "all agents".
 */
function Unknown({ value, known }: { value: string; known: readonly string[] | undefined }) {
  if (!value || !known || known.includes(value)) return null;
  return <option value={value}>{`${value} (nothing stored)`}</option>;
}
