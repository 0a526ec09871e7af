'use client';

import { EmptyState } from '@/components/ui/states';
import { fmtInt } from '@/lib/format';
import { pct } from '@/lib/hygiene/lab-view';
import { CONSOLIDATION_LABEL } from './labels';
import { NumberField } from './number-field';
import type { Lab } from './types';

/**
 * The consolidation policies of "Memory Consolidation Strategies for Long-Running AI Agents" under one
 * budget: what each keeps and loses, how much they agree, and sleep-replay's merge candidates.
 */
export function ConsolidationTab({
  lab,
  budget,
  setBudget,
}: {
  lab: Lab;
  budget: number;
  setBudget: (b: number) => void;
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
      <section className="panel">
        <div className="panel-body toolbar" style={{ flexWrap: 'wrap', gap: 14 }}>
          <NumberField
            label="Budget B (atoms kept)"
            value={budget}
            min={1}
            onChange={(v) => setBudget(Math.max(1, Math.round(v)))}
          />
          <span className="muted">
            of {fmtInt(c.atoms)} memory items: {(c.atoms / c.budget).toFixed(1)}× compression. Surprise-weighted s(e) =
            0.55·σ + 0.25·recency + 0.20·usage;{' '}
            {c.sigma === 'supplied' ? (
              <b>σ is the agent&apos;s own −log p(e | context).</b>
            ) : (
              <b data-testid="sigma-note">
                σ is estimated as embedding novelty (1 − cosine to the nearest other item): the agent sent no
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
                <span>{CONSOLIDATION_LABEL[r.policy]}</span>
                <span
                  className="muted"
                  title="share of all recorded recalls that land on a kept (or, for sleep-replay, merged) item"
                >
                  keeps {pct(r.retainedUsage)} of recalls
                </span>
              </div>
              <div style={{ maxHeight: 320, overflow: 'auto' }} tabIndex={0}>
                <table className="data compact">
                  <tbody>
                    {r.kept.map((id) => (
                      <tr key={id}>
                        <td>
                          <span className="mono">{id}</span>{' '}
                          {only.has(id) ? <span className="badge accent">only here</span> : null}
                          <div className="cell-sub clip" style={{ maxWidth: 260 }}>
                            {byId.get(id)?.query}
                          </div>
                        </td>
                        <td className="num">{byId.get(id)?.recalled ?? 0}×</td>
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
          </div>
        </section>
        <section className="panel">
          <div className="panel-head">
            Sleep-replay merge candidates <span className="muted">{c.clusters.length} clusters of 2 or more</span>
          </div>
          <div className="panel-body" style={{ maxHeight: 300, overflow: 'auto' }} tabIndex={0} data-testid="clusters">
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
