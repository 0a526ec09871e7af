'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { MemoryText } from '@/components/ui/memory-text';
import { useFocus } from '@/components/ui/use-focus';
import { EmptyState, ErrorBox, SkeletonRows } from '@/components/ui/states';
import { highlight, wouldReopen } from '@/lib/ucs/reopen';
import { fmtInt } from '@/lib/format';

function Marked({ text, marks }: { text: string; marks: string[] }) {
  return (
    <>
      {highlight(text, marks).map((p, i) =>
        p.hit ? (
          <mark key={i} className="hit">
            {p.text}
          </mark>
        ) : (
          <MemoryText key={i} text={p.text} />
        ),
      )}
    </>
  );
}

/** The agent's dead ends, searchable, with a "would this reopen?" box over their reopen conditions. */
export function DeadEnds({ agent }: { agent: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.substrate.deadEnds.queryOptions({ agent }));
  const focus = useFocus(!!q.data);
  const [search, setSearch] = useState('');
  const [situation, setSituation] = useState('');
  const sit = useDeferredValue(situation);
  const all = useMemo(() => q.data ?? [], [q.data]);
  const found = useMemo(() => wouldReopen(sit, all), [sit, all]);
  // Its place in wouldReopen's order: reopen first (by coverage), then related.
  const matches = useMemo(() => new Map(found.map((m, k) => [m.deadEnd.id, { ...m, rank: k }])), [found]);
  const reopening = found.filter((m) => m.kind === 'reopen').length;
  const related = found.length - reopening;
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const rows = all
    .filter(
      (d) =>
        !words.length ||
        words.every((w) =>
          [d.topic, d.whyClosed, d.reopenConditions, ...d.capabilities, ...d.keywords]
            .join(' ')
            .toLowerCase()
            .includes(w),
        ),
    )
    .sort((a, b) => (matches.get(a.id)?.rank ?? Infinity) - (matches.get(b.id)?.rank ?? Infinity));

  return (
    <>
      <div className="crumbs">
        <Link href="/substrate">Substrate</Link> /{' '}
        <Link href={`/substrate/${encodeURIComponent(agent)}`} className="mono">
          {agent}
        </Link>{' '}
        / dead ends
      </div>
      <div className="page-head">
        <div>
          <h1>Dead ends</h1>
          <div className="sub">
            What {agent} learned not to do, why, and what would make it worth trying again · {fmtInt(all.length)}{' '}
            recorded
          </div>
        </div>
        <input
          className="input"
          type="search"
          placeholder="Search topic, reason, capability"
          aria-label="Search dead ends"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          style={{ width: 280 }}
        />
      </div>
      <div className="panel panel-body" style={{ marginBottom: 14 }}>
        <label className="label-sm" htmlFor="situation">
          Would this reopen? Describe a situation: dead ends whose reopen conditions it meets come first, matched words
          marked.
        </label>
        <textarea
          id="situation"
          className="input"
          style={{ width: '100%', height: 56, padding: 8, marginTop: 4 }}
          placeholder="e.g. the foundry_metrics output changed after the upgrade"
          value={situation}
          onChange={(e) => setSituation(e.target.value)}
          aria-label="Would this reopen?"
        />
        {sit.trim() ? (
          <div className="muted" style={{ marginTop: 6 }} data-testid="reopen-summary">
            {reopening
              ? `${reopening} dead end${reopening > 1 ? 's' : ''} could reopen`
              : 'No dead end’s reopen conditions match this.'}
            {related ? ` · ${related} related by a capability or keyword only` : ''}
          </div>
        ) : null}
      </div>
      {q.error ? <ErrorBox error={q.error} /> : null}
      <div className="panel">
        <table className="data" data-testid="dead-ends">
          <thead>
            <tr>
              <th>Topic</th>
              <th>Why closed</th>
              <th>Reopen when</th>
              <th>Capabilities</th>
              <th className="num">Date</th>
            </tr>
          </thead>
          {q.isPending ? (
            <SkeletonRows cols={5} />
          ) : (
            <tbody>
              {rows.map((d) => {
                const m = matches.get(d.id);
                return (
                  <tr
                    key={d.id}
                    data-dead-end={d.id}
                    data-focus-id={d.id}
                    className={[m ? 'row-hit' : '', focus === d.id ? 'focus-target' : ''].join(' ').trim() || undefined}
                  >
                    <td>
                      <div className="cell-title">{d.topic}</div>
                      {d.occurrences > 1 ? <span className="badge">recorded {d.occurrences}×</span> : null}
                      {m?.kind === 'reopen' ? (
                        <span className="badge warn" data-testid="reopen-match">
                          could reopen · {Math.round(m.coverage * 100)}% of its conditions
                        </span>
                      ) : m ? (
                        <span className="badge" data-testid="reopen-match">
                          related · names its {m.via.join(', ')}
                        </span>
                      ) : null}
                    </td>
                    <td>
                      <MemoryText text={d.whyClosed ?? '—'} />
                    </td>
                    <td data-testid="reopen-conditions">
                      <Marked text={d.reopenConditions ?? '—'} marks={m?.matched ?? []} />
                    </td>
                    <td>
                      {d.capabilities.map((c) => (
                        <span key={c} className={m?.matched.includes(c.toLowerCase()) ? 'chip hit' : 'chip'}>
                          {c}
                        </span>
                      ))}
                    </td>
                    <td className="num nowrap">{d.date ?? '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          )}
        </table>
        {q.data && !rows.length ? (
          <EmptyState title={all.length ? 'No dead end matches the search' : 'No dead ends recorded for this agent'} />
        ) : null}
      </div>
    </>
  );
}
