'use client';

import Link from 'next/link';
import { LinkProblems } from '@/components/ui/link-problems';
import { useRouter, useSearchParams } from 'next/navigation';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { Panel } from '@/components/ui/panel';
import { EmptyState, QueryError } from '@/components/ui/states';
import { QUERY_ATTEMPTS } from '@/lib/trpc/query-client';
import { plural } from '@/lib/format';
import { useRole } from '@/components/ui/use-role';
import type { ProposalPolicy } from '@/lib/hygiene/contract';
import { PAPER_DEFAULTS, type DeletionParams } from '@/lib/hygiene/deletion';
import { labSettingsProblems, readLabSettings, writeLabSettings, type LabSettings } from '@/lib/hygiene/lab-url';
import { describeUtilitySources } from '@/lib/hygiene/lab-view';
import { AdditionTab } from './addition-tab';
import { ConsolidationTab } from './consolidation-tab';
import { DeletionTab } from './deletion-tab';
import { ItemHealthTab } from './item-health-tab';

const TABS = [
  { id: 'items', label: 'Item health' },
  { id: 'deletion', label: 'Deletion' },
  { id: 'consolidation', label: 'Consolidation' },
  { id: 'addition', label: 'Addition' },
] as const;
type Tab = (typeof TABS)[number]['id'];
/** Tab ids of bookmarks from before the hygiene unit was renamed "memory item". */
const OLD_TABS: Record<string, Tab> = { records: 'items' };

/** The memory hygiene lab: memory item health, deletion and consolidation policies, the addition report. */
export function HygieneLab() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const params = useSearchParams();
  const agents = useQuery(trpc.hygiene.agents.queryOptions());
  const agent = params.get('agent') ?? agents.data?.[0]?.agent ?? null;
  const askedTab = params.get('tab') ?? '';
  const tab: Tab = TABS.find((t) => t.id === (OLD_TABS[askedTab] ?? askedTab))?.id ?? 'items';
  // `record`: bookmarks from before the rename; the lab writes `item` (and drops `record`).
  const selected = params.get('item') ?? params.get('record');
  /** Changes URL parameters in one navigation (two calls in a row would each start from the old URL). */
  const setParam = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    router.replace(`/hygiene?${next.toString()}`, { scroll: false });
  };
  const selectItem = (id: string | null, changes: Record<string, string | null> = {}) =>
    setParam({ ...changes, item: id, record: null });

  const turnsOfAgent = agents.data?.find((a) => a.agent === agent)?.turns ?? 0;
  // The settings start from the URL and are written back to it, so a reload or a shared link shows the same figures.
  const [settings, setSettings] = useState(() => readLabSettings(params));
  const change = (patch: Partial<LabSettings>) => {
    const next = { ...settings, ...patch };
    setSettings(next);
    router.replace(`/hygiene?${writeLabSettings(new URLSearchParams(params.toString()), next)}`, { scroll: false });
  };
  // Deletion parameters nobody chose: the period of "How Memory Management Impacts LLM Agents: An Empirical Study of
  // Experience-Following Behavior" (200–300 steps) is longer than most recorded histories: start at a quarter of it.
  // Likewise the cap: that paper's C = 100 was its initial memory size; start at a third of the history.
  const del: DeletionParams = {
    ...PAPER_DEFAULTS,
    period: Math.max(1, Math.min(PAPER_DEFAULTS.period, Math.round(turnsOfAgent / 4) || 1)),
    capacity: Math.max(10, Math.min(PAPER_DEFAULTS.capacity, Math.round(turnsOfAgent / 3))),
    ...settings.deletion,
  };
  const { budget, sleepK, misalignment: mis } = settings;
  const lab = useQuery({
    ...trpc.hygiene.lab.queryOptions({
      agent: agent ?? '',
      deletion: del,
      budget,
      sleepK,
      misalignment: mis,
      wrongBelow: 0.5,
    }),
    enabled: !!agent && !!turnsOfAgent,
    placeholderData: keepPreviousData,
  });
  // The last result computed for this agent (kept in render: React's pattern for state that follows a prop).
  const [last, setLast] = useState<{ agent: string | null; data: NonNullable<typeof lab.data> } | null>(null);
  if (lab.data && !lab.isPlaceholderData && lab.data !== last?.data) setLast({ agent, data: lab.data });
  const { reviewer: canPropose } = useRole();
  const [raised, setRaised] = useState<{ item: string; proposalId: string } | null>(null);
  const propose = useMutation(
    trpc.hygiene.propose.mutationOptions({
      onSuccess: (r, v) => setRaised({ item: v.item, proposalId: r.proposalId }),
      // Raised, or found already waiting: every list's button for the item says so, and the sidebar's count.
      onSettled: () =>
        Promise.all([
          qc.invalidateQueries({ queryKey: trpc.hygiene.pending.queryKey() }),
          qc.invalidateQueries({ queryKey: trpc.system.info.queryKey() }),
        ]),
    }),
  );
  const raise = (item: string, policy: ProposalPolicy) => {
    setRaised(null);
    propose.mutate({ agent: agent!, deletion: del, budget, sleepK, misalignment: mis, wrongBelow: 0.5, item, policy });
  };

  if (agents.error) return <QueryError query={agents} />;
  if (agents.data && !agents.data.length)
    return (
      <EmptyState title="No agent timeline yet">
        The lab needs turns that report what they recalled. Send turns with <code>recalled</code>,{' '}
        <code>qualified</code> and <code>utility</code> (see <Link href="/connect">Connect</Link>).
      </EmptyState>
    );
  // A refused or failed recomputation keeps the last result and its inputs on screen, the error above them.
  const d = lab.data ?? (last?.agent === agent ? last.data : undefined);
  const entries = d ? d.items.filter((i) => i.source === 'entry' && i.status === 'active').length : 0;
  // An agent named in the URL (a bookmark, a typo) that has no turns here.
  const unknown = !!agents.data && !!agent && !agents.data.some((a) => a.agent === agent);
  // What the link names that the lab cannot use (an edited or old link): said, not silently replaced by defaults.
  const linkProblems = [
    ...labSettingsProblems(params),
    ...(d && selected && !d.items.some((i) => i.id === selected)
      ? [`item: “${selected}” is not an item of ${agent}’s memory`]
      : []),
  ];
  return (
    <>
      <div className="toolbar" style={{ marginBottom: 10, flexWrap: 'wrap' }}>
        <label className="muted" htmlFor="lab-agent">
          Agent
        </label>
        <select
          id="lab-agent"
          className="select"
          value={unknown ? '' : (agent ?? '')}
          onChange={(e) => selectItem(null, { agent: e.target.value })}
        >
          {unknown ? (
            <option value="" disabled>
              choose an agent
            </option>
          ) : null}
          {agents.data?.map((a) => (
            <option key={a.agent} value={a.agent}>
              {a.agent} · {plural(a.turns, 'turn')} · {plural(a.recalls, 'recall')}
            </option>
          ))}
        </select>
        {d ? (
          <span className="muted" data-testid="lab-summary">
            {plural(d.timeline.turns, 'turn')} in {plural(d.timeline.sessions.length, 'session')} ·{' '}
            {plural(d.deletion.activeItems, 'active item')} in the agent&apos;s store
            {entries ? ` and ${plural(entries, 'active curated entry', 'active curated entries')}` : ''}
            {' · utility from '}
            {describeUtilitySources(d.utilitySources)} · similarities by{' '}
            {d.similarity.available ? (
              <code>{d.similarity.model}</code>
            ) : (
              <b className="danger-text">nothing ({d.similarity.reason})</b>
            )}
          </span>
        ) : null}
        {/* A failed attempt is said while the next is waited for (a server error is tried twice more, ~3 s), not
            hidden behind "computing…" until the error box shows; always in the page, so that it is announced. */}
        <span className={lab.failureCount ? 'warn-text' : 'muted'} data-testid="lab-status" aria-live="polite">
          {!lab.isFetching
            ? ''
            : lab.failureCount
              ? `computing… attempt ${lab.failureCount + 1} of ${QUERY_ATTEMPTS} (${
                  lab.failureReason?.message ?? 'it failed'
                })`
              : 'computing…'}
        </span>
      </div>
      <nav className="section-tabs" aria-label="Hygiene lab">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            className="section-tab"
            aria-current={tab === t.id ? 'page' : undefined}
            onClick={() => setParam({ tab: t.id })}
          >
            {t.label}
          </button>
        ))}
      </nav>
      {propose.error ? (
        <div className="banner danger" role="alert">
          Could not raise the proposal: {propose.error.message}
        </div>
      ) : null}
      {raised ? (
        <div className="banner ok" role="status" data-testid="raised">
          Deprecation of <code>{raised.item}</code> proposed. It waits for a reviewer:{' '}
          <Link href={`/curation?proposal=${raised.proposalId}`}>open it in the inbox</Link>.
        </div>
      ) : null}
      <LinkProblems testId="link-problems" problems={linkProblems} />
      <QueryError query={lab} doing={d ? 'recompute with these settings (the last result is shown)' : undefined} />
      {unknown ? (
        <EmptyState title={`No turns from agent “${agent}” in this project`}>
          Choose one of the agents above.
        </EmptyState>
      ) : !d ? (
        lab.error ? null : (
          <Panel as="div" padded busy>
            <div className="skeleton" style={{ height: 280 }} />
          </Panel>
        )
      ) : tab === 'items' ? (
        <ItemHealthTab
          lab={d}
          selected={selected}
          onSelect={(id) => selectItem(id)}
          mis={mis}
          setMis={(misalignment) => change({ misalignment })}
          raise={canPropose ? raise : null}
          busy={propose.isPending}
        />
      ) : tab === 'deletion' ? (
        <DeletionTab
          lab={d}
          params={del}
          setParams={(deletion) => change({ deletion })}
          onSelect={(id) => selectItem(id, { tab: 'items' })}
          raise={canPropose ? raise : null}
          busy={propose.isPending}
        />
      ) : tab === 'consolidation' ? (
        <ConsolidationTab
          lab={d}
          budget={budget}
          setBudget={(b) => change({ budget: b })}
          sleepK={sleepK}
          setSleepK={(k) => change({ sleepK: k })}
        />
      ) : (
        <AdditionTab lab={d} />
      )}
    </>
  );
}
