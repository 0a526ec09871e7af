'use client';

import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/routers/app';
import { useTRPC } from '@/components/trpc/provider';
import { MemoryText } from '@/components/ui/memory-text';
import { EmptyState, ErrorBox } from '@/components/ui/states';
import { fmtInt } from '@/lib/format';
import { PAPER_DEFAULTS, type DeletionParams } from '@/lib/hygiene/deletion';
import { DEFAULT_MISALIGNMENT } from '@/lib/hygiene/records';
import type { ProposalPolicy } from '@/lib/hygiene/contract';
import { LineChart, Scatter, type ScatterPoint } from './charts';

type Lab = inferRouterOutputs<AppRouter>['hygiene']['lab'];
type Rec = Lab['records'][number];
type ProposePolicy = ProposalPolicy;

const TABS = [
  { id: 'records', label: 'Record health' },
  { id: 'deletion', label: 'Deletion' },
  { id: 'consolidation', label: 'Consolidation' },
  { id: 'addition', label: 'Addition' },
] as const;
type Tab = (typeof TABS)[number]['id'];

const POLICY_LABEL = {
  periodic: 'Periodic',
  history: 'History-based',
  combined: 'Combined',
  capacity: 'Capacity cap',
} as const;
const POLICY_COLOR = {
  none: 'var(--faint)',
  periodic: 'var(--series-1)',
  history: 'var(--series-2)',
  combined: 'var(--series-3)',
  capacity: 'var(--danger)',
} as const;
const CONS_LABEL = {
  recency: 'Recency-only',
  frequency: 'Frequency-only',
  surprise: 'Surprise-weighted',
  sleep: 'Sleep-replay',
} as const;

const f2 = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(2));
const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(0)}%`);

/** The memory hygiene lab: record health, deletion and consolidation policies, the addition report. */
export function HygieneLab() {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const agents = useQuery(trpc.hygiene.agents.queryOptions());
  const info = useQuery(trpc.system.info.queryOptions());
  const agent = params.get('agent') ?? agents.data?.[0]?.agent ?? null;
  const tab = (TABS.find((t) => t.id === params.get('tab'))?.id ?? 'records') as Tab;
  const selected = params.get('record');
  /** Changes URL parameters in one navigation (two calls in a row would each start from the old URL). */
  const setParam = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    router.replace(`/hygiene?${next.toString()}`, { scroll: false });
  };

  const turnsOfAgent = agents.data?.find((a) => a.agent === agent)?.turns ?? 0;
  // The paper's period (200–300 steps) is longer than most recorded histories: start at a quarter of it.
  const [deletion, setDeletion] = useState<DeletionParams | null>(null);
  // Likewise the cap: the paper's C = 100 was its initial memory size; start at a third of the history.
  const del: DeletionParams = deletion ?? {
    ...PAPER_DEFAULTS,
    period: Math.max(1, Math.min(PAPER_DEFAULTS.period, Math.round(turnsOfAgent / 4) || 1)),
    capacity: Math.max(10, Math.min(PAPER_DEFAULTS.capacity, Math.round(turnsOfAgent / 3))),
  };
  const [budget, setBudget] = useState(16);
  const [mis, setMis] = useState(DEFAULT_MISALIGNMENT);
  const lab = useQuery({
    ...trpc.hygiene.lab.queryOptions({ agent: agent ?? '', deletion: del, budget, misalignment: mis, wrongBelow: 0.5 }),
    enabled: !!agent && !!turnsOfAgent,
    placeholderData: keepPreviousData,
  });
  const canPropose = info.data ? info.data.auth.role === 'admin' || info.data.auth.role === 'reviewer' : false;
  const [raised, setRaised] = useState<{ record: string; proposalId: string } | null>(null);
  const propose = useMutation(
    trpc.hygiene.propose.mutationOptions({
      onSuccess: (r, v) => setRaised({ record: v.record, proposalId: r.proposalId }),
    }),
  );
  const raise = (record: string, policy: ProposePolicy) => {
    setRaised(null);
    propose.mutate({ agent: agent!, deletion: del, budget, misalignment: mis, wrongBelow: 0.5, record, policy });
  };

  if (agents.error) return <ErrorBox error={agents.error} />;
  if (agents.data && !agents.data.length)
    return (
      <EmptyState title="No agent timeline yet">
        The lab needs turns that report what they recalled. Send turns with <code>recalled</code>,{' '}
        <code>qualified</code> and <code>utility</code> (see <Link href="/connect">Connect</Link>).
      </EmptyState>
    );
  const d = lab.data;
  // An agent named in the URL (a bookmark, a typo) that has no turns here.
  const unknown = !!agents.data && !!agent && !agents.data.some((a) => a.agent === agent);
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
          onChange={(e) => setParam({ agent: e.target.value, record: null })}
        >
          {unknown ? (
            <option value="" disabled>
              choose an agent
            </option>
          ) : null}
          {agents.data?.map((a) => (
            <option key={a.agent} value={a.agent}>
              {a.agent} · {fmtInt(a.turns)} turns · {fmtInt(a.recalls)} recalls
            </option>
          ))}
        </select>
        {d ? (
          <span className="muted" data-testid="lab-summary">
            {fmtInt(d.timeline.turns)} turns in {d.timeline.sessions.length} session
            {d.timeline.sessions.length === 1 ? '' : 's'} · {fmtInt(d.deletion.activeRecords)} active records in the
            store · utility from {describeSources(d.utilitySources)} · similarities by{' '}
            {d.similarity.available ? (
              <code>{d.similarity.model}</code>
            ) : (
              <b className="danger-text">nothing ({d.similarity.reason})</b>
            )}
          </span>
        ) : null}
        {lab.isFetching ? <span className="muted">computing…</span> : null}
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
          Deprecation of <code>{raised.record}</code> proposed. It waits for a reviewer:{' '}
          <Link href={`/curation?proposal=${raised.proposalId}`}>open it in the inbox</Link>.
        </div>
      ) : null}
      {lab.error ? <ErrorBox error={lab.error} /> : null}
      {unknown ? (
        <EmptyState title={`No turns from agent “${agent}” in this project`}>
          Choose one of the agents above.
        </EmptyState>
      ) : !d ? (
        lab.error ? null : (
          <div className="panel panel-body" aria-busy="true">
            <div className="skeleton" style={{ height: 280 }} />
          </div>
        )
      ) : tab === 'records' ? (
        <RecordsTab
          lab={d}
          selected={selected}
          onSelect={(id) => setParam({ record: id })}
          mis={mis}
          setMis={setMis}
          raise={canPropose ? raise : null}
          busy={propose.isPending}
        />
      ) : tab === 'deletion' ? (
        <DeletionTab
          lab={d}
          params={del}
          setParams={setDeletion}
          onSelect={(id) => setParam({ tab: 'records', record: id })}
          raise={canPropose ? raise : null}
          busy={propose.isPending}
        />
      ) : tab === 'consolidation' ? (
        <ConsolidationTab lab={d} budget={budget} setBudget={setBudget} />
      ) : (
        <AdditionTab lab={d} />
      )}
    </>
  );
}

function describeSources(s: Lab['utilitySources']) {
  const parts = Object.entries(s)
    .filter(([k, n]) => n && k !== 'none')
    .map(
      ([k, n]) =>
        `${k === 'utility' ? 'reported utility' : k === 'success' ? 'reported success' : k === 'judge' ? 'judge scores' : '1 − H_t'} (${fmtInt(n)})`,
    );
  return (parts.join(', ') || 'nothing') + (s.none ? `; ${fmtInt(s.none)} turns without` : '');
}

function ProposeButton({
  record,
  policy,
  raise,
  busy,
  label = 'Propose deprecation',
}: {
  record: string;
  policy: ProposePolicy;
  raise: ((r: string, p: ProposePolicy) => void) | null;
  busy: boolean;
  label?: string;
}) {
  if (!raise) return null;
  return (
    <button
      type="button"
      className="btn btn-small"
      disabled={busy}
      onClick={() => raise(record, policy)}
      data-testid={`propose-${policy}-${record}`}
    >
      {label}
    </button>
  );
}

// ———————————————————————————————————————————————————————— record health

function RecordsTab({
  lab,
  selected,
  onSelect,
  mis,
  setMis,
  raise,
  busy,
}: {
  lab: Lab;
  selected: string | null;
  onSelect: (id: string | null) => void;
  mis: typeof DEFAULT_MISALIGNMENT;
  setMis: (m: typeof DEFAULT_MISALIGNMENT) => void;
  raise: ((r: string, p: ProposePolicy) => void) | null;
  busy: boolean;
}) {
  const [filter, setFilter] = useState<'all' | 'misaligned' | 'chains' | 'recalled' | 'never' | 'entries'>('all');
  const [q, setQ] = useState('');
  const inChains = useMemo(() => new Set(lab.chains.flatMap((c) => c.map((l) => l.record))), [lab.chains]);
  const chains = useMemo(() => groupChains(lab.chains), [lab.chains]);
  const points: ScatterPoint[] = useMemo(
    () =>
      lab.records.flatMap((r) =>
        r.retrievals
          .filter((x) => x.inputSim !== null && x.outputSim !== null)
          .map((x) => ({
            key: `${r.id}@${x.step}`,
            record: r.id,
            x: x.inputSim!,
            y: x.outputSim!,
            utility: x.utility,
            flagged: r.misaligned,
            label: `${r.id} recalled into ${x.session} turn ${x.turn}: input ${f2(x.inputSim)}, output ${f2(x.outputSim)}, utility ${f2(x.utility)}`,
          })),
      ),
    [lab.records],
  );
  const misaligned = lab.records.filter((r) => r.misaligned);
  const rows = lab.records
    .filter((r) =>
      filter === 'misaligned'
        ? r.misaligned
        : filter === 'chains'
          ? inChains.has(r.id)
          : filter === 'recalled'
            ? r.recalled > 0
            : filter === 'never'
              ? r.recalled === 0
              : filter === 'entries'
                ? r.source === 'entry'
                : true,
    )
    .filter(
      (r) => !q || r.id.toLowerCase().includes(q.toLowerCase()) || r.content.toLowerCase().includes(q.toLowerCase()),
    )
    .sort(
      (a, b) => Number(b.misaligned) - Number(a.misaligned) || b.recalled - a.recalled || a.addedStep - b.addedStep,
    );
  const sel = lab.records.find((r) => r.id === selected) ?? null;
  const turnHref = (s: string, t: number) => `/sessions/${encodeURIComponent(s)}?turn=${t}`;
  return (
    <>
      <div className="grid-2" style={{ gridTemplateColumns: 'minmax(420px, 3fr) minmax(340px, 2fr)' }}>
        <section className="panel">
          <div className="panel-head">
            Experience following <span className="muted">{fmtInt(points.length)} retrievals</span>
          </div>
          <div className="panel-body">
            <Scatter
              points={points}
              inputMin={mis.inputMin}
              outputMax={mis.outputMax}
              selected={selected}
              onSelect={onSelect}
            />
            <div className="toolbar" style={{ flexWrap: 'wrap', fontSize: 12 }}>
              <span className="muted">Misaligned when input ≥</span>
              <input
                className="input"
                style={{ width: 64 }}
                type="number"
                step={0.05}
                min={0}
                max={1}
                aria-label="Input similarity at least"
                value={mis.inputMin}
                onChange={(e) => setMis({ ...mis, inputMin: Number(e.target.value) })}
              />
              <span className="muted">and output ≤</span>
              <input
                className="input"
                style={{ width: 64 }}
                type="number"
                step={0.05}
                min={0}
                max={1}
                aria-label="Output similarity at most"
                value={mis.outputMax}
                onChange={(e) => setMis({ ...mis, outputMax: Number(e.target.value) })}
              />
              <span className="muted">in ≥ {mis.minHits} retrievals and half of them.</span>
            </div>
          </div>
        </section>
        <section className="panel" data-testid="flagged">
          <div className="panel-head">Flagged</div>
          <div className="panel-body" style={{ display: 'grid', gap: 12 }}>
            <div>
              <h3 style={{ margin: '0 0 6px', fontSize: 13 }}>Misaligned experience replay ({misaligned.length})</h3>
              {misaligned.length ? (
                misaligned.map((r) => (
                  <div
                    key={r.id}
                    className="toolbar"
                    style={{ justifyContent: 'space-between', marginBottom: 4 }}
                    data-testid="misaligned-record"
                  >
                    <button type="button" className="link-btn mono" onClick={() => onSelect(r.id)}>
                      {r.id}
                    </button>
                    <span className="muted">
                      {r.recalled}× · in {f2(r.meanInputSim)} · out {f2(r.meanOutputSim)} · utility {f2(r.meanUtility)}
                    </span>
                  </div>
                ))
              ) : (
                <p className="muted" style={{ margin: 0 }}>
                  No record is recalled on similar inputs without being followed.
                </p>
              )}
            </div>
            <div>
              <h3 style={{ margin: '0 0 2px', fontSize: 13 }}>Error propagation ({chains.length})</h3>
              {chains.length ? (
                <div className="cell-sub" style={{ marginBottom: 4 }}>
                  record → the wrong turn it was recalled into → the record that turn stored → …
                </div>
              ) : null}
              {chains.length ? (
                chains.map((c, i) => (
                  <div key={i} className="chain" data-testid="chain">
                    {c.links.map((l, j) => (
                      <span key={j} className="chain-step">
                        <button type="button" className="chip chip-link mono" onClick={() => onSelect(l.record)}>
                          {l.record}
                        </button>
                        <span className="chain-arrow">→</span>
                        {l.turns.map((t) => (
                          <Link
                            key={`${t.session}/${t.turn}`}
                            className="chip chip-bad"
                            href={turnHref(t.session, t.turn)}
                            title="the turn it was recalled into went wrong"
                          >
                            {t.session} #{t.turn} · u {f2(t.utility)}
                          </Link>
                        ))}
                        {j < c.links.length - 1 ? <span className="chain-arrow">→</span> : null}
                      </span>
                    ))}
                  </div>
                ))
              ) : (
                <p className="muted" style={{ margin: 0 }}>
                  No wrong turn&apos;s output was stored and recalled into another wrong turn.
                </p>
              )}
            </div>
          </div>
        </section>
      </div>

      <div
        className="grid-2"
        style={{ marginTop: 14, gridTemplateColumns: sel ? 'minmax(480px, 3fr) minmax(340px, 2fr)' : '1fr' }}
      >
        <section className="panel">
          <div className="panel-head">
            <span>Records ({fmtInt(rows.length)})</span>
            <span className="toolbar">
              <input
                className="input"
                placeholder="Filter by id or text"
                aria-label="Filter records"
                value={q}
                onChange={(e) => setQ(e.target.value)}
              />
              <select
                className="select"
                aria-label="Show"
                value={filter}
                onChange={(e) => setFilter(e.target.value as typeof filter)}
              >
                <option value="all">all</option>
                <option value="misaligned">misaligned</option>
                <option value="chains">in error chains</option>
                <option value="recalled">recalled</option>
                <option value="never">never recalled</option>
                <option value="entries">durable entries</option>
              </select>
            </span>
          </div>
          <div style={{ maxHeight: 480, overflow: 'auto' }}>
            <table className="data compact" data-testid="records-table">
              <thead>
                <tr>
                  <th>Record</th>
                  <th className="num">Added</th>
                  <th className="num">Recalled</th>
                  <th className="num">Let in</th>
                  <th className="num">Utility</th>
                  <th className="num">In sim</th>
                  <th className="num">Out sim</th>
                  <th>Recalls over time</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr
                    key={r.id}
                    className={`clickable${r.id === selected ? ' row-on' : ''}`}
                    onClick={() => onSelect(r.id)}
                  >
                    <td>
                      <span className="mono">{r.id}</span>{' '}
                      {r.misaligned ? <span className="badge danger">misaligned</span> : null}{' '}
                      {inChains.has(r.id) ? <span className="badge warn">error chain</span> : null}{' '}
                      {r.status !== 'active' ? <span className="badge">{r.status}</span> : null}{' '}
                      {r.source === 'entry' ? <span className="badge accent">entry</span> : null}
                      <div className="cell-sub clip" style={{ maxWidth: 420 }}>
                        <MemoryText text={r.content} />
                      </div>
                    </td>
                    <td className="num">{r.addedStep}</td>
                    <td className="num">{r.recalled}</td>
                    <td className="num">{r.qualified}</td>
                    <td className="num">{f2(r.meanUtility)}</td>
                    <td className="num">{f2(r.meanInputSim)}</td>
                    <td className="num">{f2(r.meanOutputSim)}</td>
                    <td>
                      <RecallStrip
                        steps={r.retrievals.map((x) => ({ step: x.step, bad: x.utility !== null && x.utility < 0.5 }))}
                        total={lab.timeline.turns}
                        added={r.addedStep}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
        {sel ? (
          <RecordDetail
            r={sel}
            lab={lab}
            inChain={inChains.has(sel.id)}
            onClose={() => onSelect(null)}
            raise={raise}
            busy={busy}
            turnHref={turnHref}
          />
        ) : null}
      </div>
    </>
  );
}

type Link0 = Lab['chains'][number][number];
/** Chains that differ only in the last wrong turn become one, with those turns side by side. */
function groupChains(chains: Lab['chains']) {
  const out = new Map<string, { links: { record: string; turns: Link0['turn'][] }[] }>();
  for (const c of chains) {
    const sig = c
      .slice(0, -1)
      .map((l) => `${l.record}>${l.turn.step}`)
      .concat(c.at(-1)!.record)
      .join('|');
    const g = out.get(sig) ?? { links: c.map((l) => ({ record: l.record, turns: [] as Link0['turn'][] })) };
    c.forEach((l, i) => {
      if (!g.links[i]!.turns.some((t) => t.step === l.turn.step)) g.links[i]!.turns.push(l.turn);
    });
    out.set(sig, g);
  }
  return [...out.values()];
}

/** When a record was recalled, across the timeline (red: into a turn that went wrong). */
function RecallStrip({
  steps,
  total,
  added,
}: {
  steps: { step: number; bad: boolean }[];
  total: number;
  added: number;
}) {
  const w = 140;
  const x = (s: number) => (total ? (s / total) * (w - 2) + 1 : 0);
  return (
    <svg width={w} height={14} aria-label={`${steps.length} recalls`}>
      <line x1={x(added)} x2={w - 1} y1={7} y2={7} stroke="var(--border-strong)" />
      {steps.map((s, i) => (
        <rect key={i} x={x(s.step) - 1} y={2} width={2} height={10} fill={s.bad ? 'var(--danger)' : 'var(--ok)'} />
      ))}
    </svg>
  );
}

function RecordDetail({
  r,
  lab,
  inChain,
  onClose,
  raise,
  busy,
  turnHref,
}: {
  r: Rec;
  lab: Lab;
  inChain: boolean;
  onClose: () => void;
  raise: ((r: string, p: ProposePolicy) => void) | null;
  busy: boolean;
  turnHref: (s: string, t: number) => string;
}) {
  const removedBy = (Object.keys(lab.deletion.now) as (keyof Lab['deletion']['now'])[]).filter((p) =>
    lab.deletion.now[p].some((v) => v.id === r.id),
  );
  return (
    <section className="panel" data-testid="record-detail">
      <div className="panel-head">
        <span className="mono">{r.id}</span>
        <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="panel-body detail">
        <dl className="kv">
          <dt>Kind</dt>
          <dd>
            {r.source === 'entry' ? 'durable memory entry' : 'record of the external store'} · {r.kind ?? '—'} ·{' '}
            {r.status}
          </dd>
          <dt>Added</dt>
          <dd>
            step {r.addedStep}
            {r.fromTurn ? (
              <>
                {' '}
                from{' '}
                <Link href={turnHref(r.fromTurn.session, r.fromTurn.turn)}>
                  {r.fromTurn.session} #{r.fromTurn.turn}
                </Link>
              </>
            ) : null}
            {r.addition ? ` · ${r.addition.decision} by ${r.addition.evaluator ?? 'an evaluator'}` : ''}
          </dd>
          <dt>Query</dt>
          <dd>
            <MemoryText text={r.query} />
          </dd>
          <dt>Execution</dt>
          <dd className="mono" style={{ whiteSpace: 'pre-wrap' }}>
            <MemoryText text={r.execution} />
          </dd>
          <dt>Recalled</dt>
          <dd>
            {r.recalled}× (let in {r.qualified}×) · mean utility {f2(r.meanUtility)} · input {f2(r.meanInputSim)} ·
            output {f2(r.meanOutputSim)}
          </dd>
          <dt>Policies</dt>
          <dd>
            {removedBy.length
              ? `removed now by ${removedBy.map((p) => POLICY_LABEL[p]).join(', ')}`
              : 'kept by every deletion policy'}
          </dd>
        </dl>
        {raise && r.status === 'active' ? (
          <div className="toolbar" style={{ flexWrap: 'wrap' }}>
            {r.misaligned ? (
              <ProposeButton
                record={r.id}
                policy="misaligned"
                raise={raise}
                busy={busy}
                label="Propose deprecation (misaligned)"
              />
            ) : null}
            {inChain ? (
              <ProposeButton
                record={r.id}
                policy="chain"
                raise={raise}
                busy={busy}
                label="Propose deprecation (error chain)"
              />
            ) : null}
            {removedBy.map((p) => (
              <ProposeButton
                key={p}
                record={r.id}
                policy={p}
                raise={raise}
                busy={busy}
                label={`Propose deprecation (${POLICY_LABEL[p].toLowerCase()})`}
              />
            ))}
            {!r.misaligned && !inChain && !removedBy.length ? (
              <ProposeButton record={r.id} policy="manual" raise={raise} busy={busy} />
            ) : null}
          </div>
        ) : null}
        <h3>Retrievals</h3>
        {r.retrievals.length ? (
          <table className="data compact">
            <thead>
              <tr>
                <th>Turn</th>
                <th className="num">Step</th>
                <th className="num">In</th>
                <th className="num">Out</th>
                <th className="num">Utility</th>
                <th className="num">H_t</th>
                <th className="num">D_t</th>
              </tr>
            </thead>
            <tbody>
              {r.retrievals.map((x) => (
                <tr key={x.step}>
                  <td>
                    <Link href={turnHref(x.session, x.turn)}>
                      {x.session} #{x.turn}
                    </Link>
                    {x.qualified ? '' : <span className="muted"> (not let in)</span>}
                  </td>
                  <td className="num">{x.step}</td>
                  <td className="num">{f2(x.inputSim)}</td>
                  <td className="num">{f2(x.outputSim)}</td>
                  <td
                    className="num"
                    style={{ color: x.utility !== null && x.utility < 0.5 ? 'var(--danger)' : undefined }}
                  >
                    {f2(x.utility)}
                  </td>
                  <td className="num">{f2(x.hallucination)}</td>
                  <td className="num">{f2(x.drift)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">Never recalled.</p>
        )}
      </div>
    </section>
  );
}

// ———————————————————————————————————————————————————————— deletion

function NumberField({
  label,
  value,
  onChange,
  step = 1,
  min = 0,
  max,
}: {
  label: string;
  value: number;
  onChange: (v: number) => void;
  step?: number;
  min?: number;
  max?: number;
}) {
  return (
    <label className="toolbar" style={{ gap: 6 }}>
      <span className="muted">{label}</span>
      <input
        className="input"
        style={{ width: 80 }}
        type="number"
        step={step}
        min={min}
        max={max}
        aria-label={label}
        value={value}
        onChange={(e) => e.target.value !== '' && onChange(Number(e.target.value))}
      />
    </label>
  );
}

function DeletionTab({
  lab,
  params: p,
  setParams,
  onSelect,
  raise,
  busy,
}: {
  lab: Lab;
  params: DeletionParams;
  setParams: (p: DeletionParams) => void;
  onSelect: (id: string) => void;
  raise: ((r: string, p: ProposePolicy) => void) | null;
  busy: boolean;
}) {
  const s = lab.deletion.sizes;
  const series = (['none', 'periodic', 'history', 'combined', 'capacity'] as const).map((k) => ({
    key: k,
    label: k === 'none' ? 'no deletion' : POLICY_LABEL[k],
    color: POLICY_COLOR[k],
    dashed: k === 'none',
    values: s.map((pt) => ({ x: pt.step, y: pt[k] })),
  }));
  return (
    <>
      <section className="panel">
        <div className="panel-head">Parameters</div>
        <div className="panel-body">
          <div className="toolbar" style={{ flexWrap: 'wrap', gap: 14 }}>
            <NumberField
              label="Period P (steps)"
              value={p.period}
              min={1}
              onChange={(v) => setParams({ ...p, period: Math.max(1, Math.round(v)) })}
            />
            <NumberField
              label="α (max recalls in P)"
              value={p.alpha}
              onChange={(v) => setParams({ ...p, alpha: Math.max(0, Math.round(v)) })}
            />
            <NumberField
              label="n (recalls before judged)"
              value={p.n}
              onChange={(v) => setParams({ ...p, n: Math.max(0, Math.round(v)) })}
            />
            <NumberField
              label="β (mean utility ≤)"
              value={p.beta}
              step={0.05}
              max={1}
              onChange={(v) => setParams({ ...p, beta: Math.min(1, Math.max(0, v)) })}
            />
            <NumberField
              label="Capacity C"
              value={p.capacity}
              min={1}
              onChange={(v) => setParams({ ...p, capacity: Math.max(1, Math.round(v)) })}
            />
            <button type="button" className="btn btn-small" onClick={() => setParams({ ...PAPER_DEFAULTS })}>
              Paper&apos;s values
            </button>
          </div>
          <p className="muted" style={{ marginBottom: 0, fontSize: 12 }}>
            The paper uses P = 200–300 steps, α = 0–1, n = 5, β = 0.3–0.7 and C = 100. Periodic: retrieved ≤ α times in
            the last P steps (records younger than P are not judged). History-based: retrieved more than n times with
            mean utility ≤ β. Combined: both deletions run (the paper&apos;s Table 2; its printed φ<sub>period</sub>·φ
            <sub>history</sub> would be the intersection). Capacity: periodic, then the least useful until C fit.
          </p>
        </div>
      </section>
      <section className="panel" style={{ marginTop: 14 }}>
        <div className="panel-head">
          Memory size over the recorded history{' '}
          <span className="muted">recalls replayed as recorded; a removed record&apos;s later recalls are dropped</span>
        </div>
        <div className="panel-body">
          <LineChart
            series={series}
            xLabel="step (turns of this agent, in time order)"
            yLabel="records in memory"
            testId="size-chart"
          />
        </div>
      </section>
      <div className="lab-columns" style={{ marginTop: 14 }} data-testid="deletion-now">
        {(['periodic', 'history', 'combined', 'capacity'] as const).map((k) => {
          const list = lab.deletion.now[k];
          return (
            <section className="panel" key={k} data-testid={`remove-${k}`}>
              <div className="panel-head">
                <span>{POLICY_LABEL[k]}</span>
                <span className="muted">
                  removes <b>{fmtInt(list.length)}</b> of {fmtInt(lab.deletion.activeRecords)} today
                </span>
              </div>
              <div style={{ maxHeight: 360, overflow: 'auto' }}>
                {list.length ? (
                  <table className="data compact">
                    <tbody>
                      {list.map((v) => (
                        <tr key={v.id}>
                          <td>
                            <button type="button" className="link-btn mono" onClick={() => onSelect(v.id)}>
                              {v.id}
                            </button>
                            <div className="cell-sub">{v.reason}</div>
                          </td>
                          <td className="right">
                            <ProposeButton record={v.id} policy={k} raise={raise} busy={busy} label="Propose" />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : (
                  <p className="muted panel-body" style={{ margin: 0 }}>
                    Nothing to remove with these parameters.
                  </p>
                )}
              </div>
            </section>
          );
        })}
      </div>
    </>
  );
}

// ———————————————————————————————————————————————————————— consolidation

function ConsolidationTab({ lab, budget, setBudget }: { lab: Lab; budget: number; setBudget: (b: number) => void }) {
  const c = lab.consolidation;
  const rec = new Map(lab.records.map((r) => [r.id, r]));
  if (!c.atoms)
    return (
      <EmptyState title="Nothing to consolidate">
        {lab.similarity.available
          ? 'The store has no active records.'
          : `Consolidation needs embeddings: ${lab.similarity.reason}`}
      </EmptyState>
    );
  return (
    <>
      <section className="panel">
        <div className="panel-body toolbar" style={{ flexWrap: 'wrap', gap: 14 }}>
          <NumberField
            label="Budget B (atoms kept)"
            value={budget}
            min={1}
            onChange={(v) => setBudget(Math.max(1, Math.round(v)))}
          />
          <span className="muted">
            of {fmtInt(c.atoms)} records: {(c.atoms / c.budget).toFixed(1)}× compression. Surprise-weighted s(e) =
            0.55·σ + 0.25·recency + 0.20·usage;{' '}
            {c.sigma === 'supplied' ? (
              <b>σ is the agent&apos;s own −log p(e | context).</b>
            ) : (
              <b data-testid="sigma-note">
                σ is estimated as embedding novelty (1 − cosine to the nearest other record): the agent sent no
                log-probabilities.
              </b>
            )}
          </span>
        </div>
      </section>
      <div className="lab-columns" style={{ marginTop: 14 }} data-testid="consolidation">
        {c.results.map((r) => {
          const only = new Set(r.onlyHere);
          return (
            <section className="panel" key={r.policy} data-testid={`keep-${r.policy}`}>
              <div className="panel-head">
                <span>{CONS_LABEL[r.policy]}</span>
                <span
                  className="muted"
                  title="share of all recorded recalls that land on a kept (or, for sleep-replay, merged) record"
                >
                  keeps {pct(r.retainedUsage)} of recalls
                </span>
              </div>
              <div style={{ maxHeight: 320, overflow: 'auto' }}>
                <table className="data compact">
                  <tbody>
                    {r.kept.map((id) => (
                      <tr key={id}>
                        <td>
                          <span className="mono">{id}</span>{' '}
                          {only.has(id) ? <span className="badge accent">only here</span> : null}
                          <div className="cell-sub clip" style={{ maxWidth: 260 }}>
                            {rec.get(id)?.query}
                          </div>
                        </td>
                        <td className="num">{rec.get(id)?.recalled ?? 0}×</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div className="panel-body" style={{ borderTop: '1px solid var(--border)', fontSize: 12 }}>
                <b>Loses</b>{' '}
                {r.policy === 'sleep' ? (
                  <span className="muted">
                    nothing outright: the other {fmtInt(c.atoms - r.kept.length)} are merged into the kept ones (below).
                  </span>
                ) : (
                  <span className="muted">
                    {fmtInt(r.dropped.length)} records
                    {r.dropped.filter((id) => (rec.get(id)?.recalled ?? 0) > 0).length
                      ? `, among them ${r.dropped
                          .filter((id) => (rec.get(id)?.recalled ?? 0) > 0)
                          .slice(0, 3)
                          .map((id) => `${id} (${rec.get(id)!.recalled}×)`)
                          .join(', ')}`
                      : ', none of them ever recalled'}
                  </span>
                )}
              </div>
            </section>
          );
        })}
      </div>
      <div className="grid-2" style={{ marginTop: 14 }}>
        <section className="panel">
          <div className="panel-head">Overlap of what they keep</div>
          <div className="panel-body">
            <table className="data compact" data-testid="overlap">
              <thead>
                <tr>
                  <th />
                  {c.results.map((r) => (
                    <th key={r.policy} className="num">
                      {CONS_LABEL[r.policy]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {c.results.map((r, i) => (
                  <tr key={r.policy}>
                    <th>{CONS_LABEL[r.policy]}</th>
                    {c.overlap[i]!.map((n, j) => (
                      <td
                        key={j}
                        className="num"
                        style={{ background: i === j ? 'var(--panel-2)' : `rgb(79 70 229 / ${(n / c.budget) * 0.35})` }}
                      >
                        {n}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
        <section className="panel">
          <div className="panel-head">
            Sleep-replay merge candidates <span className="muted">{c.clusters.length} clusters of 2 or more</span>
          </div>
          <div className="panel-body" style={{ maxHeight: 300, overflow: 'auto' }} data-testid="clusters">
            {c.clusters.slice(0, 30).map((cl) => (
              <div key={cl.keep} className="cluster">
                <span className="mono">{cl.keep}</span>{' '}
                <span className="muted">
                  absorbs {cl.members.length - 1} · cohesion {cl.cohesion.toFixed(2)}
                </span>
                <div className="cell-sub">{cl.members.filter((m) => m !== cl.keep).join(', ')}</div>
              </div>
            ))}
          </div>
        </section>
      </div>
    </>
  );
}

// ———————————————————————————————————————————————————————— addition

function AdditionTab({ lab }: { lab: Lab }) {
  const a = lab.addition;
  if (!a.reported)
    return (
      <EmptyState title="No addition decisions reported">
        Send <code>{'"addition": {"decision": "added" | "skipped", "evaluator": "…"}'}</code> on each turn to compare
        add-all with the evaluator&apos;s selection.
      </EmptyState>
    );
  const t = a.total;
  return (
    <>
      <div className="stats" data-testid="addition-stats">
        <div className="stat">
          <div className="label">Executions (add-all)</div>
          <div className="value">{fmtInt(t.executions)}</div>
        </div>
        <div className="stat">
          <div className="label">Added by the evaluator</div>
          <div className="value">{fmtInt(t.added)}</div>
        </div>
        <div className="stat">
          <div className="label">Skipped</div>
          <div className="value">{fmtInt(t.skipped)}</div>
        </div>
        <div className="stat">
          <div className="label">Utility: all / added / skipped</div>
          <div className="value">
            {f2(t.meanUtilityAll)} / {f2(t.meanUtilityAdded)} / {f2(t.meanUtilitySkipped)}
          </div>
        </div>
        <div className="stat">
          <div className="label">Wrong executions stored</div>
          <div className="value">{fmtInt(t.errorsAdded)}</div>
        </div>
      </div>
      <section className="panel" style={{ marginTop: 14 }}>
        <div className="panel-head">
          Quality of what was added, over time <span className="muted">evaluators: {t.evaluators.join(', ')}</span>
        </div>
        <div className="panel-body">
          <LineChart
            testId="addition-chart"
            yMax={1}
            xLabel="step (end of window)"
            yLabel="mean utility"
            series={[
              {
                key: 'all',
                label: 'all executions (add-all)',
                color: 'var(--faint)',
                dashed: true,
                values: a.windows
                  .filter((w) => w.meanUtilityAll !== null)
                  .map((w) => ({ x: w.to, y: w.meanUtilityAll! })),
              },
              {
                key: 'added',
                label: 'added',
                color: 'var(--series-1)',
                values: a.windows
                  .filter((w) => w.meanUtilityAdded !== null)
                  .map((w) => ({ x: w.to, y: w.meanUtilityAdded! })),
              },
            ]}
          />
          <table className="data compact">
            <thead>
              <tr>
                <th>Steps</th>
                <th>Evaluator</th>
                <th className="num">Executions</th>
                <th className="num">Added</th>
                <th className="num">Skipped</th>
                <th className="num">Utility added</th>
                <th className="num">Utility all</th>
                <th className="num">Wrong stored</th>
              </tr>
            </thead>
            <tbody>
              {a.windows.map((w) => (
                <tr key={w.from}>
                  <td>
                    {w.from}–{w.to}
                  </td>
                  <td>{w.evaluators.join(', ')}</td>
                  <td className="num">{w.executions}</td>
                  <td className="num">{w.added}</td>
                  <td className="num">{w.skipped}</td>
                  <td className="num">{f2(w.meanUtilityAdded)}</td>
                  <td className="num">{f2(w.meanUtilityAll)}</td>
                  <td className="num" style={{ color: w.errorsAdded ? 'var(--danger)' : undefined }}>
                    {w.errorsAdded}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
