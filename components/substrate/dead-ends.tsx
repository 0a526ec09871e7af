'use client';

import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import type { RouterOutputs } from '@/components/trpc/outputs';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';
import { ClockReading } from '@/components/ui/clock-reading';
import { Panel } from '@/components/ui/panel';
import { Breakable } from '@/components/ui/breakable';
import { useFocus } from '@/components/ui/use-focus';
import { EmptyState, QueryError } from '@/components/ui/states';
import { highlight, referenceReopen, wouldReopen } from '@/lib/ucs/reopen';
import { REFERENCE_RULES } from '@/lib/ucs/reference';
import { ROUTING_DEFAULTS } from '@/lib/ucs/routing';
import { fmtInt } from '@/lib/format';
import { SubstrateCrumbs, SubstrateTabs } from './tabs';

function Marked({ text, marks }: { text: string; marks: string[] }) {
  return (
    <>
      {highlight(text, marks).map((p, i) =>
        p.hit ? (
          <mark key={i} className="hit">
            <MemoryText text={p.text} />
          </mark>
        ) : (
          <MemoryText key={i} text={p.text} />
        ),
      )}
    </>
  );
}

/**
 * The agent's dead ends, searchable, with a "would this reopen?" box: the reference bridge's verdict on the situation
 * (what its consult would return and penalise) and, apart, Mnemoscope's ranked relevance over the reopen conditions.
 */
export function DeadEnds({ agent }: { agent: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.substrate.deadEnds.queryOptions({ agent }));
  const index = useQuery(trpc.substrate.bridgeIndex.queryOptions({ agent }));
  const focus = useFocus(!!q.data);
  const [search, setSearch] = useState('');
  const [situation, setSituation] = useState('');
  const sit = useDeferredValue(situation);
  const all = useMemo(() => q.data ?? [], [q.data]);
  const found = useMemo(() => wouldReopen(sit, all), [sit, all]);
  // The index lists a dead end recorded again once more; the list shows it once, the reference verdict each time.
  const records = all.reduce((n, d) => n + Math.max(1, d.occurrences), 0);
  const repeated = all.filter((d) => d.occurrences > 1).length;
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
      <SubstrateCrumbs agent={agent} page="Dead ends" />
      <div className="page-head">
        <div>
          <h1>Dead ends</h1>
          <div className="sub">
            What {agent} learned not to do, why, and what would make it worth trying again ·{' '}
            <span data-testid="dead-end-count">
              {fmtInt(all.length)} recorded
              {records > all.length
                ? `, ${fmtInt(repeated)} of them more than once: ${fmtInt(records)} records, each of which the ` +
                  'bridge’s consult counts'
                : null}
            </span>
          </div>
        </div>
      </div>
      <SubstrateTabs agent={agent} />
      <Panel as="div" padded style={{ marginBottom: 14 }}>
        <label className="label-sm" htmlFor="situation">
          Would this reopen? Describe a situation: the bridge’s own verdict below, and Mnemoscope’s ranked relevance
          (its reopen conditions met first, matched words marked) in the list.
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
            <b>Mnemoscope’s relevance:</b>{' '}
            {reopening
              ? `${reopening} dead end${reopening > 1 ? 's' : ''} could reopen`
              : 'No dead end’s reopen conditions match this.'}
            {related ? ` · ${related} related by a capability or keyword only` : ''}
          </div>
        ) : null}
      </Panel>
      {sit.trim() ? <ReferenceVerdict situation={sit} index={index.data} /> : null}
      <QueryError query={q} />
      <QueryError query={index} />
      <Panel
        as="div"
        heading
        body={false}
        title={
          <span>
            Mnemoscope’s ranked relevance <span className="faint">(not the bridge’s)</span>
          </span>
        }
        // The list's own search, over it: in the page's head it wrapped under a long subtitle and moved the tabs
        // down on this tab only.
        actions={
          <input
            className="input"
            type="search"
            placeholder="Search topic, reason, capability"
            aria-label="Search dead ends"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            style={{ width: 280 }}
          />
        }
      >
        <DataTable
          testId="dead-ends"
          loading={q.isPending}
          rows={rows}
          rowKey={(d) => d.id}
          rowProps={(d) => ({
            'data-dead-end': d.id,
            'data-focus-id': d.id,
            className:
              [matches.has(d.id) ? 'row-hit' : '', focus === d.id ? 'focus-target' : ''].join(' ').trim() || undefined,
          })}
          columns={[
            {
              id: 'topic',
              header: 'Topic',
              cell: (d) => {
                const m = matches.get(d.id);
                return (
                  <>
                    <div className="cell-title">
                      <MemoryText text={d.topic} />
                    </div>
                    {d.occurrences > 1 ? <span className="badge">recorded {d.occurrences}×</span> : null}
                    {m?.kind === 'reopen' ? (
                      <span
                        className="badge warn"
                        data-testid="reopen-match"
                        title="Words every dead end's reopen conditions share are not counted: they tell none apart"
                      >
                        could reopen · {Math.round(m.coverage * 100)}% of its conditions’ own words
                      </span>
                    ) : m ? (
                      <span className="badge" data-testid="reopen-match">
                        related · names its {m.via.join(', ')}
                      </span>
                    ) : null}
                  </>
                );
              },
            },
            { id: 'why', header: 'Why closed', cell: (d) => <MemoryText text={d.whyClosed ?? '—'} /> },
            {
              id: 'reopen',
              header: 'Reopen when',
              cellProps: () => ({ 'data-testid': 'reopen-conditions' }),
              cell: (d) => <Marked text={d.reopenConditions ?? '—'} marks={matches.get(d.id)?.matched ?? []} />,
            },
            {
              id: 'capabilities',
              header: 'Capabilities',
              cell: (d) =>
                d.capabilities.map((c) => (
                  <span
                    key={c}
                    className={`chip chip-words${matches.get(d.id)?.matched.includes(c.toLowerCase()) ? ' hit' : ''}`}
                  >
                    <Breakable text={c} />
                  </span>
                )),
            },
            { id: 'date', header: 'Date', num: true, className: 'nowrap', cell: (d) => d.date ?? '—' },
          ]}
        />
        {q.data && !rows.length ? (
          <EmptyState title={all.length ? 'No dead end matches the search' : 'No dead ends recorded for this agent'} />
        ) : null}
      </Panel>
    </>
  );
}

type IndexView = RouterOutputs['substrate']['bridgeIndex'];
const f2 = (v: number) => v.toFixed(2);

/**
 * What the reference bridge's consult does with the situation (lib/ucs/reopen.ts `referenceReopen`): which dead
 * ends match and why, reopen flags, score and decay, the top 3 it returns and the penalty those put on routing.
 */
function ReferenceVerdict({ situation, index }: { situation: string; index: IndexView | undefined }) {
  // Ages are whole days: one clock reading per visit.
  const [now] = useState(() => Date.now());
  const v = useMemo(
    () =>
      index
        ? referenceReopen(situation, index.deadEnds, {
            now,
            methodology: index.methodology,
            nodes: index.nodes ?? undefined,
          })
        : null,
    [situation, index, now],
  );
  if (!index || !v) return <Panel as="div" padded className="skeleton" style={{ height: 120, marginBottom: 14 }} />;
  const penalties = Object.entries(v.routingPenalty).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const reopened = v.returned.filter((m) => m.reopenTriggered).length;
  return (
    <Panel
      as="div"
      style={{ marginBottom: 14 }}
      testId="reference-verdict"
      heading
      title="The reference bridge’s verdict"
      note={
        <>
          ranked by score, as consult ranks them · # is the place in{' '}
          {index.from === 'index' ? 'the stored index' : 'the dead-end rows (no index stored)'} · ages at{' '}
          <ClockReading at={now} />
        </>
      }
    >
      <p style={{ marginTop: 0 }} data-testid="verdict-summary">
        {v.matches.length
          ? `Consult would return ${v.returned.length} of ${v.matches.length} matching dead ends` +
            (reopened ? `, ${reopened} flagged as reopened` : ', none flagged as reopened') +
            '.'
          : 'Consult would return no dead end for this.'}{' '}
        <span className="muted">
          Words: {v.words.length ? v.words.join(', ') : 'none'} · resolved capabilities:{' '}
          {v.resolvedCapabilities.length ? v.resolvedCapabilities.join(', ') : 'none'}.
        </span>
      </p>
      {v.matches.length ? (
        <DataTable
          compact
          rows={v.matches}
          rowKey={(m) => m.position}
          rowProps={(m) => ({ 'data-verdict': m.deadEnd.id, className: m.returned ? undefined : 'dim' })}
          columns={[
            { id: 'position', header: '#', num: true, className: 'faint', cell: (m) => m.position + 1 },
            { id: 'topic', header: 'Dead end', cell: (m) => <MemoryText text={m.deadEnd.topic ?? m.deadEnd.id} /> },
            {
              id: 'keywords',
              header: 'Keywords shared (2 each)',
              className: 'mono',
              cell: (m) => m.keywordHits.join(', ') || '—',
            },
            {
              id: 'capabilities',
              header: 'Capabilities in context (3 each)',
              className: 'mono',
              cell: (m) => m.capabilityHits.join(', ') || '—',
            },
            {
              id: 'reopen',
              header: 'Reopen words',
              cell: (m) =>
                m.reopenTriggered ? (
                  // The words as text beside the flag: a list of them wraps instead of widening the table.
                  <span data-testid="reopen-flag">
                    <span className="badge warn">reopen:</span> {m.reopenMatched.join(', ')}
                  </span>
                ) : (
                  '—'
                ),
            },
            { id: 'base', header: 'Base', num: true, className: 'mono', cell: (m) => f2(m.baseScore) },
            {
              id: 'age',
              header: 'Age · decay',
              num: true,
              className: 'mono nowrap',
              cell: (m) => (m.ageDays === null ? 'no date · 1' : `${m.ageDays} d · ${m.decay.toFixed(3)}`),
            },
            { id: 'score', header: 'Score', num: true, className: 'mono', cell: (m) => m.score.toFixed(3) },
            {
              id: 'returned',
              header: 'Returned',
              cell: (m) =>
                m.returned ? <span className="badge accent">top {REFERENCE_RULES.maxDeadEndHits}</span> : '—',
            },
          ]}
        />
      ) : null}
      <p className="muted" style={{ marginBottom: 0 }} data-testid="verdict-penalty">
        {penalties.length ? (
          <>
            Penalty on routing towards:{' '}
            {penalties.map(([c, p]) => (
              <span key={c} className="chip mono">
                {c} −{p.toFixed(2)}
              </span>
            ))}
            <span className="faint">
              {' '}
              (ε {ROUTING_DEFAULTS.epsilon} for each returned dead end naming the capability, directly or through a
              keyword)
            </span>
          </>
        ) : (
          'No penalty on routing.'
        )}
      </p>
    </Panel>
  );
}
