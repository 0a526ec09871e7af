'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { ErrorBox } from '@/components/ui/states';
import { nodePositions } from '@/lib/ucs/field';
import { scoreOutgoing, ROUTING_DEFAULTS, type EdgeParams } from '@/lib/ucs/routing';
import { fmtRate } from '@/lib/format';

export const PARTS = [
  ['utility', 'α·u', 'var(--series-1)'],
  ['novelty', 'γ·n', 'var(--series-3)'],
  ['weight', 'w', 'var(--series-2)'],
  ['bias', 'b', 'var(--series-4)'],
  ['context', 'δ·E_ctx', 'var(--ok)'],
  ['cost', '−β·c', 'var(--danger)'],
  ['penalty', '−ε·penalty', 'var(--warn)'],
] as const;

/** A score's terms as one stacked bar (negative terms paler), widths relative to `scale`. */
export function TermsBar({ parts, scale }: { parts: Record<(typeof PARTS)[number][0], number>; scale: number }) {
  return (
    <div className="stack" title={PARTS.map(([k, label]) => `${label} ${parts[k].toFixed(3)}`).join(' · ')}>
      {PARTS.map(([k, , c]) =>
        parts[k] ? (
          <span
            key={k}
            style={{ width: `${(100 * Math.abs(parts[k])) / scale}%`, background: c, opacity: parts[k] < 0 ? 0.55 : 1 }}
          />
        ) : null,
      )}
    </div>
  );
}

export function PartsLegend() {
  return (
    <span className="legend">
      {PARTS.map(([k, label, c]) => (
        <span key={k}>
          <i style={{ background: c, height: 8 }} />
          {label}
        </span>
      ))}
    </span>
  );
}

/**
 * Why the router prefers what it prefers: every outgoing edge of the cursor, its score split into its terms, and its
 * softmax probability.
 */
export function RoutingPanel({ agent, t }: { agent: string; t: number }) {
  const trpc = useTRPC();
  const q = useQuery({ ...trpc.substrate.routing.queryOptions({ agent, t }), placeholderData: keepPreviousData });
  const d = q.data;
  const scored = useMemo(() => {
    if (!d) return [];
    const cursor = (d.cursor as { node?: string } | null)?.node;
    const edges = ((d.graph as { edges?: EdgeParams[] } | null)?.edges ?? []) as EdgeParams[];
    const nodes = ((d.graph as { nodes?: string[] } | null)?.nodes ?? []) as string[];
    const ctx: Record<string, number> = {};
    if (d.contextEnergy)
      for (const p of nodePositions(nodes, d.schedule, d.thetaBins, d.phiBins))
        ctx[p.name] = d.contextEnergy[p.theta * d.phiBins + p.phi] ?? 0;
    const bias = ((d.policy as { edge_bias?: Record<string, number> } | null)?.edge_bias ?? {}) as Record<
      string,
      number
    >;
    return cursor ? scoreOutgoing(edges, cursor, { bias, contextEnergy: ctx }) : [];
  }, [d]);
  const scale = Math.max(1e-9, ...scored.map((s) => Object.values(s.parts).reduce((a, v) => a + Math.abs(v), 0)));
  const cursor = (d?.cursor as { node?: string } | null)?.node;

  return (
    <div className="panel" style={{ marginTop: 14 }} data-testid="routing">
      <div className="panel-head">
        <span>
          Routing from <span className="mono">{cursor ?? '—'}</span> at step {t}
        </span>
        <PartsLegend />
      </div>
      <div className="panel-body">
        {q.error ? <ErrorBox error={q.error} /> : null}
        <div className="muted" style={{ marginBottom: 8 }}>
          s = {ROUTING_DEFAULTS.alpha}·u − {ROUTING_DEFAULTS.beta}·c + {ROUTING_DEFAULTS.gamma}·n + w + b +{' '}
          {ROUTING_DEFAULTS.delta}·E_ctx − {ROUTING_DEFAULTS.epsilon}·penalty; P = softmax(s /{' '}
          {ROUTING_DEFAULTS.temperature})
        </div>
        <table className="data compact">
          <thead>
            <tr>
              <th>To</th>
              <th className="num">Score</th>
              <th className="num">P</th>
              <th style={{ width: '55%' }}>Terms</th>
            </tr>
          </thead>
          <tbody>
            {scored.map((s) => (
              <tr key={s.edgeIndex} data-to={s.to}>
                <td className="mono">{s.to}</td>
                <td className="num mono">{s.score.toFixed(3)}</td>
                <td className="num">{fmtRate(s.probability)}</td>
                <td>
                  <TermsBar parts={s.parts} scale={scale} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {d && !scored.length ? <div className="faint">The cursor has no outgoing edges in this snapshot.</div> : null}
      </div>
    </div>
  );
}
