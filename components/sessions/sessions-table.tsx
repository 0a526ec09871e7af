'use client';

import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import Link from 'next/link';
import { useDeferredValue, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { Panel } from '@/components/ui/panel';
import { Sparkline } from '@/components/ui/sparkline';
import { ListFoot } from '@/components/ui/list-foot';
import { MemoryText } from '@/components/ui/memory-text';
import { LinkProblems } from '@/components/ui/link-problems';
import { useAddressSync } from '@/components/ui/use-address-sync';
import { EmptyState, QueryError, SkeletonRows, updatingProps } from '@/components/ui/states';
import { SESSION_SORTS, SESSIONS_PAGE, type SessionSort } from '@/lib/sessions/list';
import type { RouterOutputs } from '@/components/trpc/outputs';

import { fmtCost, fmtDateTime, fmtInt, fmtLatency, fmtRate, fmtSpan, fmtTokens } from '@/lib/format';

type Traced = RouterOutputs['sessions']['page']['total']['traced'];
/** Why a traced agent's sort sorts nothing yet: no turn sent that figure (a traced turn may send only some). */
const NOT_SENT: Record<keyof Traced, string> = {
  tokens: 'no turn sent tokens',
  cost: 'no turn sent a cost',
  latency: 'no turn sent its latency',
};

export function SessionsTable({
  initialSearch = '',
  initialSort = 'recent',
  sortProblem,
}: {
  initialSearch?: string;
  initialSort?: SessionSort;
  /** A sort the address named that is none, said until another is chosen. */
  sortProblem?: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [search, setSearch] = useState(initialSearch);
  const [sort, setSort] = useState<SessionSort>(initialSort);
  // Searched, sorted and paged by the server (`sessions.page`): a page of 100 at a time, never a silent cap.
  const query = useDeferredValue(search.trim());
  const q = useInfiniteQuery({
    ...trpc.sessions.page.infiniteQueryOptions(
      { search: query, sort, limit: SESSIONS_PAGE },
      { getNextPageParam: (last) => last.next },
    ),
    placeholderData: keepPreviousData,
  });
  const pages = q.data?.pages ?? [];
  const rows = pages.flatMap((p) => p.items);
  // A traced agent's tokens, cost and latency (whole OTLP traces): columns only when a listed session has them.
  const work = {
    tokens: rows.some((r) => r.tokens != null),
    cost: rows.some((r) => r.cost != null),
    latency: rows.some((r) => r.meanLatency != null),
  };
  const first = pages[0];
  // The search and sort live in the address (`?q=…&sort=…`): a link opens the same list, Back returns to it.
  useAddressSync({ q: query || null, sort: sort !== 'recent' ? sort : null }, '');
  // A new search or sort while the rows of the last one stay on screen: they are dimmed and the wait is said.
  const updating = q.isPlaceholderData || search.trim() !== query;

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Sessions</h1>
          <div className="sub">
            {first
              ? `${fmtInt(first.total.sessions)} sessions · ${fmtInt(first.total.turns)} turns`
              : q.error
                ? 'Not loaded'
                : 'Loading…'}
          </div>
        </div>
        <div className="toolbar">
          {/* Not a live region: the list's foot says "Loading the sessions…" as a status already. */}
          <span className="faint" data-testid="sessions-updating">
            {updating ? (search.trim() !== (first?.search ?? '') ? 'Searching…' : 'Sorting…') : null}
          </span>
          <input
            className="input"
            type="search"
            placeholder="Search title, id, agent, domain"
            aria-label="Search sessions"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            style={{ width: 260 }}
          />
          <select
            className="select"
            aria-label="Sort sessions"
            value={sort}
            onChange={(e) => setSort(e.target.value as SessionSort)}
          >
            {Object.entries(SESSION_SORTS).map(([k, label]) => {
              // A traced agent's figures sort nothing until some turn has sent them: offered, but said so.
              const untraced = first && k in first.total.traced && !first.total.traced[k as keyof Traced];
              return (
                <option key={k} value={k} disabled={!!untraced && k !== sort}>
                  {untraced ? `${label} (${NOT_SENT[k as keyof Traced]})` : label}
                </option>
              );
            })}
          </select>
        </div>
      </div>
      <LinkProblems testId="sort-problem" problems={sortProblem && sort === initialSort ? [sortProblem] : []} />
      <QueryError query={q} />
      <Panel as="div" body={false}>
        <table className="data" data-testid="sessions-table">
          <thead>
            <tr>
              <th style={{ minWidth: 150 }}>Session</th>
              <th>Agent</th>
              <th className="sessions-domain">Domain</th>
              <th className="num">Turns</th>
              <th>Time span (UTC)</th>
              <th>
                Footprint{' '}
                <span className="legend">
                  <span>
                    <i style={{ background: 'var(--series-1)' }} />
                    CCS
                  </span>
                  <span>
                    <i style={{ background: 'var(--series-2)' }} />
                    transcript
                  </span>
                </span>
              </th>
              <th
                className="num"
                title="Mean CCS footprint M̄ in tokens over the session's turns, and the last turn's M_T"
              >
                CCS M̄
              </th>
              <th className="num" title="Mean hallucination rate H_t">
                H̄
              </th>
              <th
                className="num"
                title="Mean drift rate D̄ over every turn but the first (drift is undefined at the first turn)"
              >
                D̄
              </th>
              {work.tokens || work.cost || work.latency ? (
                <th
                  className="num"
                  title="A traced agent's work: tokens in and out and cost summed, a turn's mean latency"
                >
                  Work
                </th>
              ) : null}
            </tr>
          </thead>
          {q.isPending || (q.isPlaceholderData && !rows.length) ? (
            <SkeletonRows cols={9} cellClass={(c) => (c === 2 ? 'sessions-domain' : undefined)} />
          ) : (
            <tbody {...updatingProps(updating)}>
              {rows.map((s) => {
                const lastCcs = s.footprint.ccs.findLast((v) => v !== null) ?? null;
                return (
                  <tr
                    key={s.id}
                    className="clickable"
                    onClick={() => router.push(`/sessions/${encodeURIComponent(s.id)}`)}
                  >
                    <td>
                      <Link
                        href={`/sessions/${encodeURIComponent(s.id)}`}
                        className="cell-title"
                        onClick={(e) => e.stopPropagation()}
                      >
                        <MemoryText text={s.title ?? s.id} />
                      </Link>
                      <div className="cell-sub mono">{s.id}</div>
                    </td>
                    <td className="mono">
                      {s.agentId}
                      {s.domain ? (
                        <div className="sessions-domain-inline">
                          <span className="sr-only">Domain: </span>
                          <span className="badge" title={s.domain}>
                            {s.domain.replace(/_/g, ' ')}
                          </span>
                        </div>
                      ) : null}
                    </td>
                    <td className="sessions-domain">
                      {s.domain ? (
                        <span className="badge" title={s.domain}>
                          {s.domain.replace(/_/g, ' ')}
                        </span>
                      ) : (
                        <span className="faint">—</span>
                      )}
                    </td>
                    <td className="num">{fmtInt(s.turnCount)}</td>
                    <td className="nowrap">
                      {/* UTC is in the column's head. */}
                      {s.firstAt || !s.createdAt ? (
                        <>
                          {fmtDateTime(s.firstAt).replace(/ UTC$/, '')}
                          <div className="cell-sub">{fmtSpan(s.firstAt, s.lastAt, s.turnCount)}</div>
                        </>
                      ) : (
                        // Its turns carry no time: the list places it by when it was stored, and says so.
                        <span data-testid="stored-at">
                          <span className="faint">no turn times</span>
                          <div className="cell-sub">stored {fmtDateTime(s.createdAt).replace(/ UTC$/, '')}</div>
                        </span>
                      )}
                    </td>
                    <td>
                      <Sparkline
                        label={`Footprint per turn of ${s.id}: CCS vs transcript replay`}
                        series={[
                          { key: 'ccs', values: s.footprint.ccs },
                          { key: 'transcript', values: s.footprint.transcript },
                        ]}
                      />
                    </td>
                    <td className="num" data-testid="session-mean-ccs">
                      {fmtTokens(s.meanCcs ?? null)}
                      {lastCcs !== null ? <div className="cell-sub">last {fmtTokens(lastCcs)}</div> : null}
                    </td>
                    <td className="num">{fmtRate(s.meanHallucination)}</td>
                    <td className="num">{fmtRate(s.meanDrift)}</td>
                    {work.tokens || work.cost || work.latency ? (
                      <td className="num" data-testid="session-work">
                        {s.tokens != null || s.cost != null || s.meanLatency != null ? (
                          <>
                            {s.tokens != null ? fmtTokens(s.tokens) : ''}
                            <div className="cell-sub">
                              {[
                                s.cost != null ? fmtCost(s.cost) : null,
                                s.meanLatency != null ? `${fmtLatency(s.meanLatency)}/turn` : null,
                              ]
                                .filter(Boolean)
                                .join(' · ')}
                            </div>
                          </>
                        ) : (
                          '—'
                        )}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          )}
        </table>
        <ListFoot
          testId="sessions-count"
          shown={rows.length}
          matching={first?.matching ?? 0}
          noun="sessions"
          filter={first?.search}
          page={SESSIONS_PAGE}
          query={q}
        />
        {first && !first.total.sessions ? (
          <EmptyState title="No sessions yet">
            Send turns to <code>POST /api/v1/ingest</code>, or import files in{' '}
            <Link href="/settings">Settings → Import files</Link> or with{' '}
            <code>npx mnemoscope import &lt;path&gt;</code>.
          </EmptyState>
        ) : null}
        {first && first.total.sessions > 0 && !first.matching && !q.isPlaceholderData ? (
          <EmptyState title={`No session matches “${query}”`} />
        ) : null}
      </Panel>
    </>
  );
}
