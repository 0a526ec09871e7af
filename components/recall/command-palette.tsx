'use client';

import * as Dialog from '@radix-ui/react-dialog';
import { useRouter } from 'next/navigation';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { matchPages, type AppPage } from '@/lib/pages';
import { groupHits, type GroupedRow } from '@/lib/recall/group';
import { itemPlace, KIND_LABEL, type RecallKind } from '@/lib/recall/items';
import { RECALL_VIEW, writeRecallView } from '@/lib/recall/url';
import { MemoryText } from '@/components/ui/memory-text';
import { useReturnFocus } from '@/components/ui/return-focus';
import { recallFresh } from './client';
import { RecallStatusBar } from './status-bar';
import { useRecallSearch } from './use-recall';

/**
 * Ctrl/Cmd-K from any page: search all memory and jump to the exact turn, entry, session or dead end, or go to a page
 * by its name. A Radix dialog: focus moves into the search box, stays in the palette, and goes back where it was when
 * it closes.
 */
export function CommandPalette() {
  const leavingRef = useRef(false);
  const focus = useReturnFocus(leavingRef);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        recallFresh();
        setOpen((o) => !o);
      }
    };
    window.addEventListener('keydown', onKey);
    document.documentElement.dataset.palette = '1';
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="palette-backdrop">
          <Dialog.Content className="palette" aria-describedby={undefined} {...focus}>
            <Dialog.Title className="sr-only">Search memory or go to a page</Dialog.Title>
            <Palette onClose={() => setOpen(false)} onLeave={() => (leavingRef.current = true)} />
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Hits fetched for the palette's twelve rows (`groupHits`). */
const FETCHED = 48;
/** Pages offered above the memory a query finds (with no query, every page). */
const PAGES_SHOWN = 3;

type Row = GroupedRow | { type: 'page'; page: AppPage };

function Palette({ onClose, onLeave }: { onClose: () => void; onLeave: () => void }) {
  const router = useRouter();
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState(0);
  const deferred = useDeferredValue(query.trim());
  // More than are shown, so that a source with many alike hits gives way to the others (`groupHits`).
  const search = useRecallSearch(deferred, { limit: FETCHED });
  // The answer may stop before a source's last hit: its count is then at least that.
  const cut = (search.data?.hits.length ?? 0) >= FETCHED;
  const rows = useMemo<Row[]>(
    () => [
      ...matchPages(deferred, deferred ? PAGES_SHOWN : undefined).map((page) => ({ type: 'page' as const, page })),
      ...(deferred ? groupHits(search.data?.hits ?? []) : []),
    ],
    [deferred, search.data],
  );
  const hits = rows.filter((r) => r.type !== 'page').length;
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    listRef.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  // The Recall page with this search in its address.
  const onRecallPage = deferred ? `/recall#${writeRecallView({ ...RECALL_VIEW, q: deferred })}` : '/recall';
  const hrefOf = (row: Row) =>
    row.type === 'page'
      ? row.page.href
      : row.type === 'hit'
        ? row.hit.item.href
        : `/recall#${writeRecallView({
            ...RECALL_VIEW,
            q: deferred,
            kinds: [row.kind],
            agent: row.agent ?? '',
            session: row.session ?? '',
          })}`;
  const go = (href: string) => {
    const samePage = href.startsWith('/recall') && window.location.pathname === '/recall';
    // To another page: what had the focus goes with the one it was on (another turn or entry of this one keeps it),
    // and the app shell puts it in the new page once it is drawn.
    const leaves = new URL(href, window.location.href).pathname !== window.location.pathname;
    if (leaves) onLeave();
    onClose();
    if (samePage) {
      // On the Recall page already, only the fragment changes, which the page hears as a hashchange. A new search:
      // Back returns to the one before (the search shown again is no new entry; the page reads it again all the same,
      // leaving "more like this").
      const { pathname, search, hash } = window.location;
      if (`${pathname}${search}${hash}` !== href) window.history.pushState(null, '', href);
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    } else router.push(href);
  };
  return (
    <>
      <input
        role="combobox"
        aria-expanded={rows.length > 0}
        aria-controls="palette-results"
        aria-autocomplete="list"
        aria-activedescendant={rows[selected] ? `palette-hit-${selected}` : undefined}
        aria-label="Search all memory or go to a page"
        placeholder="Search all memory by meaning or exact words, or go to a page…"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setSelected(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setSelected((s) => Math.min(s + 1, rows.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setSelected((s) => Math.max(s - 1, 0));
          } else if (e.key === 'Enter' && rows[selected]) go(hrefOf(rows[selected]));
        }}
      />
      {rows.length ? (
        <ul id="palette-results" role="listbox" ref={listRef} data-testid="palette-results">
          {rows.map((row, i) => {
            const common = {
              id: `palette-hit-${i}`,
              role: 'option',
              'aria-selected': i === selected,
              onMouseEnter: () => setSelected(i),
              onClick: () => go(hrefOf(row)),
              'data-href': hrefOf(row),
            } as const;
            if (row.type === 'page')
              return (
                <li key={`page:${row.page.href}`} {...common} data-page={row.page.href}>
                  <span className="badge">page</span>
                  <div className="palette-hit">
                    <div className="clip">{row.page.label}</div>
                    <div className="cell-sub clip">{row.page.about}</div>
                  </div>
                  <span />
                </li>
              );
            if (row.type === 'more')
              return (
                <li key={`more:${row.kind}:${row.agent}:${row.session}`} {...common} data-more={row.count}>
                  <span className="badge" aria-hidden="true">
                    +{row.count}
                  </span>
                  <div className="palette-hit muted clip" data-testid="palette-more">
                    {cut ? 'at least ' : ''}
                    {row.count === 1 ? 'one more' : `${row.count} more`} {kindsLabel(row.kind, row.count)} from{' '}
                    {[row.agent, row.session].filter(Boolean).join(' · ') || 'the same place'}, on the Recall page
                  </div>
                  <span />
                </li>
              );
            const h = row.hit;
            return (
              <li key={h.item.id} {...common} data-kind={h.item.kind}>
                <span className="badge accent">{KIND_LABEL[h.item.kind]}</span>
                <div className="palette-hit">
                  <MemoryText className="clip" text={h.item.text} />
                  <div className="cell-sub clip" data-testid="palette-place">
                    {itemPlace(h.item)}
                  </div>
                </div>
                <span
                  className="hit-why"
                  title="Ranked by the two lists fused: its rank by keyword, its cosine by meaning"
                  data-testid="palette-why"
                >
                  {[
                    h.keywordRank ? `keyword #${h.keywordRank}` : null,
                    h.cosine !== null ? `cos ${h.cosine.toFixed(2)}` : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
      {deferred && search.data && !hits ? (
        <div className="muted" style={{ padding: '14px 16px' }}>
          {rows.length ? 'No memory' : 'Nothing'} matches “{deferred}”.
        </div>
      ) : null}
      <RecallStatusBar compact />
      <div className="palette-foot">
        <span>
          <kbd>↑</kbd> <kbd>↓</kbd> move · <kbd>Enter</kbd> open · <kbd>Esc</kbd> close
        </span>
        <a
          href={onRecallPage}
          onClick={(e) => {
            e.preventDefault();
            go(onRecallPage);
          }}
        >
          {deferred ? 'All results, filters and “more like this”' : 'Filters, “more like this” and duplicates'} on the
          Recall page →
        </a>
      </div>
    </>
  );
}

/** A kind's label for a count: "judgment", "2 … judgments", "memory entries". */
function kindsLabel(kind: RecallKind, n: number): string {
  const one = KIND_LABEL[kind];
  return n === 1 ? one : one.endsWith('y') ? `${one.slice(0, -1)}ies` : `${one}s`;
}
