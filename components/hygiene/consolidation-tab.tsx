'use client';

import { DataTable } from '@/components/ui/data-table';
import { Panel } from '@/components/ui/panel';
import { EmptyState } from '@/components/ui/states';
import { fmtInt, plural } from '@/lib/format';
import { pct } from '@/lib/hygiene/lab-view';
import { CONSOLIDATION_LABEL } from './labels';
import { NumberField } from './number-field';
import type { Lab } from './types';
import { Paper } from '@/components/ui/paper';

/**
 * The consolidation policies of "Memory Consolidation Strategies for Long-Running AI Agents" under one
 * budget: what each keeps and loses, how much they agree, and sleep-replay's merge candidates.
 */
export function ConsolidationTab({
  lab,
  budget,
  setBudget,
  sleepK,
  setSleepK,
}: {
  lab: Lab;
  budget: number;
  setBudget: (b: number) => void;
  sleepK: number;
  setSleepK: (k: number) => void;
}) {
  const c = lab.consolidation;
  const byId = new Map(lab.items.map((r) => [r.id, r]));
  if (!c.atoms)
    return (
      <EmptyState title="Nothing to consolidate">
        {lab.similarity.available
          ? 'The store has no active memory items.'
          : `Consolidation needs embeddings: ${lab.similarity.reason}`}
      </EmptyState>
    );
  return (
    <>
      <Panel bodyClassName="toolbar" bodyProps={{ style: { flexWrap: 'wrap', gap: 14 } }}>
        <NumberField
          label="Budget B (atoms kept)"
          value={budget}
          min={1}
          max={100_000}
          onChange={(v) => setBudget(Math.max(1, Math.round(v)))}
        />
        <NumberField
          label="Sleep-replay clusters k"
          value={sleepK}
          min={1}
          max={10_000}
          onChange={(v) => setSleepK(Math.max(1, Math.round(v)))}
        />
        <span className="muted" data-testid="consolidation-intro">
          The agent&apos;s store holds {fmtInt(c.atoms)} items ({fmtInt(c.tokens)} tokens; curated entries are left to
          review). The policies are those of <Paper id="consolidation" at="§2, §3" />; sleep-replay is its{' '}
          <span className="mono">sleep_replay(atoms, summarizer, k)</span> (the paper sets k = 8, here k ={' '}
          {fmtInt(sleepK)}), merging each cluster into one atom that holds its members&apos; statements.
          Surprise-weighted s(e) = 0.55·σ + 0.25·recency + 0.20·usage;{' '}
          {c.sigma === 'supplied' ? (
            <b>σ is the agent&apos;s own −log p(e | context).</b>
          ) : (
            <b data-testid="sigma-note">
              σ is estimated as embedding novelty (1 − cosine to the nearest other item): the agent sent no
              log-probabilities.
            </b>
          )}
        </span>
      </Panel>
      <Panel
        style={{ marginTop: 14 }}
        body={false}
        title={
          <>
            The four policies as the paper compares them (§5.1){' '}
            <span className="muted">
              fact recall: of {fmtInt(c.results[0]?.recall.probes ?? 0)} labelled probes — recorded recalls into turns
              that went well (utility ≥ 0.5) — those whose atom a top-{c.topK} retrieval over what is left still returns
            </span>
          </>
        }
      >
        {c.results[0]?.recall.probes ? (
          <p className="panel-body muted" style={{ margin: 0, fontSize: 12 }} data-testid="recall-baseline">
            Before any consolidation, all {plural(c.atoms, 'atom')}: fact recall{' '}
            <b>{c.baseline.recall.share === null ? '—' : pct(c.baseline.recall.share)}</b> (
            {fmtInt(c.baseline.recall.recalled)}/{fmtInt(c.baseline.recall.probes)}): what a top-{c.topK} retrieval
            finds with nothing removed: a fact it misses was never retrievable, and no policy below is said to lose it
            {c.baseline.recall.lost.length ? ` (missed here: ${lostList(c.baseline.recall)})` : ''}. A smaller memory
            raises recall by itself: the top {c.topK} then cover more of it.
          </p>
        ) : (
          <p className="panel-body muted" style={{ margin: 0 }}>
            No labelled probes: fact recall needs recalls into turns with a known utility.
          </p>
        )}
        <DataTable
          testId="consolidation-compare"
          rows={c.results}
          rowKey={(r) => r.policy}
          rowProps={(r) => ({ 'data-policy': r.policy })}
          columns={[
            { id: 'policy', header: 'Policy', cell: (r) => CONSOLIDATION_LABEL[r.policy] },
            { id: 'pool', header: 'Atoms after', num: true, cell: (r) => fmtInt(r.pool) },
            {
              id: 'compression',
              header: 'Compression',
              headerTitle: 'atoms before ÷ after',
              num: true,
              cell: (r) => (r.compression === null ? '—' : `${r.compression.toFixed(1)}×`),
            },
            {
              id: 'tokens',
              header: 'Token compression',
              headerTitle: 'tokens before ÷ after',
              num: true,
              cell: (r) => (r.tokenCompression === null ? '—' : `${r.tokenCompression.toFixed(1)}×`),
            },
            {
              id: 'recall',
              header: 'Fact recall',
              num: true,
              cellProps: (r) => ({ 'data-testid': `recall-${r.policy}` }),
              cell: (r) => (
                <>
                  {r.recall.share === null ? '—' : pct(r.recall.share)}{' '}
                  <span className="muted">
                    ({fmtInt(r.recall.recalled)}/{fmtInt(r.recall.probes)})
                  </span>
                </>
              ),
            },
            {
              id: 'replay',
              header: 'Replay cost',
              headerTitle: 'tokens the consolidation pass reads (and, merging, writes)',
              num: true,
              cell: (r) => (r.replayTokens ? `${fmtInt(r.replayTokens)} tokens` : 'metadata only'),
            },
            {
              id: 'lost',
              header: 'Facts lost',
              headerTitle:
                'probes the memory before consolidation answered that this pool no longer does, by atom (probes)',
              className: 'cell-sub',
              cellProps: (r) => ({ 'data-testid': `lost-${r.policy}` }),
              cell: (r) => (r.recall.lostProbes ? lostList(r.recall) : 'none'),
            },
          ]}
        />
        {/* Of the result shown (the server keeps B at most the atoms; the B typed may be ahead of it). */}
        {c.budget >= c.atoms ? (
          <p className="panel-body muted" style={{ margin: 0, fontSize: 12 }} data-testid="budget-holds-all">
            The budget holds all {plural(c.atoms, 'atom')} (B ≥ {fmtInt(c.atoms)}): recency, frequency and
            surprise-weighted keep every one, so they cannot differ here
            {c.sleepK < c.atoms
              ? `; sleep-replay still merges them into its ${plural(c.sleepK, 'cluster')} (it runs in idle time, ` +
                'whatever the budget)'
              : ', nor sleep-replay, with a cluster for each'}
            . Lower B to compare them.
          </p>
        ) : null}
        {sleepK > c.sleepK && c.sleepK === c.budget ? (
          <p className="panel-body muted" style={{ margin: 0, fontSize: 12 }} data-testid="sleep-k-capped">
            Sleep-replay merges into {plural(c.sleepK, 'cluster')}, not k = {fmtInt(sleepK)}: no policy may keep more
            than B = {fmtInt(c.budget)} atoms{c.budget === c.atoms ? ' (the whole store)' : ''}.
          </p>
        ) : null}
        {c.results
          .filter((r) => r.pool > 0 && r.pool < c.atoms && r.pool <= 2 * c.topK)
          .map((r) => (
            <p key={r.policy} className="panel-body muted" style={{ margin: 0, fontSize: 12 }}>
              {CONSOLIDATION_LABEL[r.policy]} leaves {plural(r.pool, 'atom')}, so a top-{c.topK} retrieval returns{' '}
              {Math.round((Math.min(c.topK, r.pool) / r.pool) * 100)}% of its memory: its fact recall says which facts
              it kept, hardly whether they can be found — read its token compression and replay cost beside it.
            </p>
          ))}
      </Panel>
      <div className="lab-columns" style={{ marginTop: 14 }} data-testid="consolidation">
        {c.results.map((r) => {
          const only = new Set(r.onlyHere);
          return (
            <Panel
              key={r.policy}
              testId={`keep-${r.policy}`}
              body={false}
              title={
                <>
                  <span>{CONSOLIDATION_LABEL[r.policy]}</span>
                  <span className="muted" title="labelled probes whose atom a top-k retrieval still returns">
                    fact recall {r.recall.share === null ? '—' : pct(r.recall.share)}
                  </span>
                </>
              }
            >
              <div style={{ maxHeight: 320, overflow: 'auto' }} tabIndex={0}>
                <DataTable
                  compact
                  headless
                  rows={r.kept}
                  rowKey={(id) => id}
                  columns={[
                    {
                      id: 'item',
                      header: 'Item',
                      cell: (id) => (
                        <>
                          <span className="mono">{id}</span>{' '}
                          {only.has(id) ? <span className="badge accent">only here</span> : null}
                          <div className="cell-sub clip" style={{ maxWidth: 260 }}>
                            {byId.get(id)?.query}
                          </div>
                        </>
                      ),
                    },
                    { id: 'recalled', header: 'Recalled', num: true, cell: (id) => `${byId.get(id)?.recalled ?? 0}×` },
                  ]}
                />
              </div>
              <div className="panel-body" style={{ borderTop: '1px solid var(--border)', fontSize: 12 }}>
                <b>Loses</b>{' '}
                {r.policy === 'sleep' ? (
                  <span className="muted">
                    no statement: all {fmtInt(c.atoms)} are merged into {plural(r.pool, 'atom')} (below);{' '}
                    {r.recall.probes === r.recall.recalled
                      ? 'every probe still finds its own.'
                      : `${plural(r.recall.probes - r.recall.recalled, 'probe')} no longer find theirs.`}
                  </span>
                ) : (
                  <span className="muted">
                    {fmtInt(r.dropped.length)} items
                    {r.dropped.filter((id) => (byId.get(id)?.recalled ?? 0) > 0).length
                      ? `, among them ${r.dropped
                          .filter((id) => (byId.get(id)?.recalled ?? 0) > 0)
                          .slice(0, 3)
                          .map((id) => `${id} (${byId.get(id)!.recalled}×)`)
                          .join(', ')}`
                      : ', none of them ever recalled'}
                  </span>
                )}
              </div>
            </Panel>
          );
        })}
      </div>
      <div className="grid-2" style={{ marginTop: 14 }}>
        <Panel
          title="Overlap of what they keep"
          bodyProps={{
            style: { overflowX: 'auto' },
            tabIndex: 0,
            role: 'region',
            'aria-label': 'Overlap of what the policies keep',
          }}
        >
          <table className="data compact" data-testid="overlap">
            <thead>
              <tr>
                <th />
                {c.results.map((r) => (
                  <th key={r.policy} className="num">
                    {CONSOLIDATION_LABEL[r.policy]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {c.results.map((r, i) => (
                <tr key={r.policy}>
                  <th>{CONSOLIDATION_LABEL[r.policy]}</th>
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
        </Panel>
        <Panel
          title={
            <>
              Sleep-replay merges <span className="muted">{plural(c.clusters.length, 'cluster')} of 2 or more</span>
            </>
          }
          bodyProps={{ style: { maxHeight: 300, overflow: 'auto' }, tabIndex: 0, 'data-testid': 'clusters' }}
        >
          {c.clusters.slice(0, 30).map((cl) => (
            <div key={cl.keep} className="cluster">
              <span className="mono">{cl.keep}</span>{' '}
              <span className="muted">
                represents {cl.members.length} · cohesion {cl.cohesion.toFixed(2)}
              </span>
              <div className="cell-sub">{cl.members.filter((m) => m !== cl.keep).join(', ')}</div>
            </div>
          ))}
        </Panel>
      </div>
    </>
  );
}

/** The atoms whose facts were lost, most first with their probes: the first four, and how many more. */
function lostList(r: { lost: { item: string; probes: number }[]; lostAtoms: number }) {
  const shown = r.lost.slice(0, 4).map((l) => `${l.item} (${l.probes})`);
  return `${shown.join(', ')}${r.lostAtoms > shown.length ? ` and ${fmtInt(r.lostAtoms - shown.length)} more` : ''}`;
}
