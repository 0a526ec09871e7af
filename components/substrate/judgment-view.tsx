'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { SeriesChart } from '@/components/sessions/series-chart';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { useFocus } from '@/components/ui/use-focus';
import { EmptyState, QueryError } from '@/components/ui/states';
import { perPoint } from '@/lib/charts/prepare-series';
import { fmtInt } from '@/lib/format';
import { SubstrateCrumbs, SubstrateTabs } from './tabs';
import { Breakable } from '@/components/ui/breakable';

const SUCCESS: Record<string, string> = { success: 'ok', partial: 'warn', failure: 'danger', neutral: '' };
const fmt2 = (v: number | null) => (v === null ? '—' : v.toFixed(2));

/** What the agent judged: PP health over time, every action with its reward, methodology learned and judgment nodes. */
/** The newest 30 judgment nodes, newest first, and the one a link points at wherever it is. */
function recentJudgments<T extends { id: string }>(all: T[], focus: string | null): T[] {
  const recent = all.slice(-30).reverse();
  const focused = focus ? all.find((j) => j.id === focus) : undefined;
  return focused && !recent.includes(focused) ? [focused, ...recent] : recent;
}

const ACTIONS_PAGE = 100;

export function JudgmentView({ agent }: { agent: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.substrate.judgment.queryOptions({ agent }));
  const focus = useFocus(!!q.data);
  const [filter, setFilter] = useState('');
  const d = q.data;
  const ppSeries = useMemo(() => {
    const rows = d?.pp ?? [];
    const keys = [...new Set(rows.flatMap((r) => Object.keys(r.pp)))].sort();
    return {
      t: rows.map((r) => r.t),
      health: [{ key: 'health', label: 'health', m4: perPoint(rows.map((r) => r.health)) }],
      parts: keys.slice(0, 4).map((k) => ({ key: k, label: k, m4: perPoint(rows.map((r) => r.pp[k] ?? null)) })),
    };
  }, [d]);
  const actions = useMemo(() => d?.actions ?? [], [d]);
  const rewardSeries = useMemo(
    () => [{ key: 'reward', label: 'reward', m4: perPoint(actions.map((a) => a.reward)) }],
    [actions],
  );
  // Newest first, a page at a time, with how many of how many: the log never stops silently.
  const [limit, setLimit] = useState(ACTIONS_PAGE);
  const matching = actions.filter(
    // What the row shows: an action that moved along no edge reads "jumped (no edge)".
    (a) =>
      !filter ||
      `${a.action} ${a.outcome} ${a.routed ? a.edge : 'jumped (no edge)'}`.toLowerCase().includes(filter.toLowerCase()),
  );
  const shown = matching.slice(-limit).reverse();
  // A click on the reward chart picks that action in the log: the filter cleared, as many pages as reach it shown.
  const [picked, setPicked] = useState<number | null>(null);
  const pick = (i: number) => {
    const a = actions[i];
    if (!a) return;
    setFilter('');
    setLimit(Math.max(ACTIONS_PAGE, actions.length - i));
    setPicked(a.t);
    requestAnimationFrame(() =>
      document.querySelector(`[data-testid=actions] tr[data-t="${a.t}"]`)?.scrollIntoView({ block: 'center' }),
    );
  };
  const routed = actions.filter((a) => a.routed).length;
  const failures = useMemo(
    () => actions.flatMap((a, i): [number, string][] => (a.success === 'failure' ? [[i, 'failure']] : [])),
    [actions],
  );

  if (q.error) return <QueryError query={q} />;
  return (
    <>
      <SubstrateCrumbs agent={agent} page="Judgment" />
      <div className="page-head">
        <div>
          <h1>Judgment</h1>
          <div className="sub">
            {d
              ? `${fmtInt(actions.length)} actions (${fmtInt(routed)} routed along an edge) · ` +
                `${fmtInt(d.methodology.length)} methodology entries · ${fmtInt(d.judgments.length)} judgment nodes`
              : q.error
                ? 'Not loaded'
                : 'Loading…'}
          </div>
        </div>
      </div>
      <SubstrateTabs agent={agent} />
      {d ? (
        <div className="charts-row" style={{ gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' }}>
          <SeriesChart
            title="PP health"
            series={ppSeries.health}
            n={ppSeries.t.length}
            size={1}
            turnAt={(i) => ppSeries.t[i] ?? i}
            unit="t"
            stress={[]}
            index={null}
            format={fmt2}
          />
          <SeriesChart
            title="Reward per action"
            series={rewardSeries}
            n={actions.length}
            size={1}
            turnAt={(i) => actions[i]?.t ?? i}
            unit="t"
            stress={failures}
            stressLabel="failure"
            index={picked === null ? null : actions.findIndex((a) => a.t === picked)}
            format={fmt2}
            onJump={pick}
          />
        </div>
      ) : null}
      <div className="substrate-row" style={{ marginTop: 0 }}>
        <Panel
          as="div"
          testId="actions"
          body={false}
          title="Action log"
          actions={
            <input
              className="input"
              type="search"
              placeholder="action, outcome, edge"
              aria-label="Filter actions"
              value={filter}
              onChange={(e) => (setFilter(e.target.value), setLimit(ACTIONS_PAGE))}
              style={{ width: 240 }}
            />
          }
        >
          <DataTable
            compact
            rows={shown}
            rowKey={(a) => a.t}
            rowProps={(a) => ({ 'data-t': a.t, className: a.t === picked ? 'row-on' : undefined })}
            columns={[
              { id: 't', header: 't', num: true, className: 'mono', cell: (a) => a.t },
              { id: 'action', header: 'Action', className: 'mono', cell: (a) => <Breakable text={a.action} /> },
              {
                id: 'success',
                header: 'Outcome',
                cell: (a) =>
                  a.success ? <span className={`badge ${SUCCESS[a.success] ?? ''}`}>{a.success}</span> : null,
              },
              { id: 'reward', header: 'Reward', num: true, cell: (a) => fmt2(a.reward) },
              {
                id: 'edge',
                header: 'Edge',
                className: 'cell-sub',
                cell: (a) =>
                  a.routed ? <Breakable text={a.edge ?? ''} /> : <span className="badge">jumped (no edge)</span>,
              },
            ]}
          />
          {d && !shown.length ? <EmptyState title="No action matches" /> : null}
          {shown.length ? (
            <div className="table-foot" data-testid="actions-count">
              <span className="muted">
                Showing {fmtInt(shown.length)} of {fmtInt(matching.length)}
                {filter ? ` matching “${filter}”` : ''} actions, newest first
              </span>
              {matching.length > shown.length ? (
                <button className="btn" type="button" onClick={() => setLimit((l) => l + ACTIONS_PAGE)}>
                  Show {fmtInt(Math.min(ACTIONS_PAGE, matching.length - shown.length))} more
                </button>
              ) : null}
            </div>
          ) : null}
        </Panel>
        <div style={{ display: 'grid', gap: 14 }}>
          <Panel as="div" testId="methodology" title="Methodology" body={false}>
            <DataTable
              compact
              headless
              rows={d?.methodology ?? []}
              rowKey={(m) => m.id}
              rowProps={(m) => ({ 'data-focus-id': m.id, className: focus === m.id ? 'focus-target' : undefined })}
              columns={[
                {
                  id: 'summary',
                  header: 'Methodology',
                  cell: (m) => {
                    const snap = (m.data.routing_snapshot ?? null) as {
                      top_paths?: { to: string; score: number }[];
                    } | null;
                    return (
                      <>
                        <MemoryText text={m.summary} />
                        <div className="cell-sub">
                          {m.date} · {m.capabilities.join(', ')}
                          {snap?.top_paths?.length
                            ? ` · routing then: ${snap.top_paths
                                .slice(0, 3)
                                .map((p) => `${p.to} ${p.score.toFixed(2)}`)
                                .join(', ')}`
                            : ''}
                        </div>
                      </>
                    );
                  },
                },
              ]}
            />
          </Panel>
          <Panel as="div" testId="judgments" title="Judgment nodes" body={false}>
            <DataTable
              compact
              headless
              rows={recentJudgments(d?.judgments ?? [], focus)}
              rowKey={(j) => j.id}
              rowProps={(j) => ({ 'data-focus-id': j.id, className: focus === j.id ? 'focus-target' : undefined })}
              columns={[
                {
                  id: 'judgment',
                  header: 'Judgment node',
                  cell: (j) => {
                    const ctx = (j.data.context ?? {}) as { task_description?: string; constraints?: string[] };
                    const neg = (j.data.negative_knowledge ?? []) as string[];
                    return (
                      <>
                        <div>
                          <span className="mono">{j.action}</span>{' '}
                          {j.outcomeSuccess ? (
                            <span className={`badge ${SUCCESS[j.outcomeSuccess] ?? ''}`}>{j.outcomeSuccess}</span>
                          ) : null}{' '}
                          <span className="faint">reward {fmt2(j.reward)}</span>
                        </div>
                        <div className="cell-sub">
                          <MemoryText text={ctx.task_description ?? ''} />
                          {ctx.constraints?.length ? ` · constraints: ${ctx.constraints.join('; ')}` : ''}
                          {neg.length ? ` · ruled out: ${neg.join(', ')}` : ''}
                        </div>
                      </>
                    );
                  },
                },
              ]}
            />
          </Panel>
        </div>
      </div>
    </>
  );
}
