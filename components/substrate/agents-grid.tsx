'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/components/trpc/provider';
import { EmptyState, ErrorBox } from '@/components/ui/states';
import { fmtInt } from '@/lib/format';

export function AgentsGrid() {
  const trpc = useTRPC();
  const q = useQuery(trpc.substrate.agents.queryOptions());
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Substrate</h1>
          <div className="sub">
            Unified Cognitive Substrate: the learned field over each agent&apos;s capability graph, and the judgment
            behind it
          </div>
        </div>
      </div>
      {q.error ? <ErrorBox error={q.error} /> : null}
      {q.isPending ? (
        <div className="panel panel-body">
          <div className="skeleton" />
        </div>
      ) : null}
      {q.data && !q.data.length ? (
        <div className="panel">
          <EmptyState title="No substrate data yet">
            Import a UCS workspace: <code>npx mnemoscope import path/to/workspace</code>.
          </EmptyState>
        </div>
      ) : null}
      <div className="grid-2">
        {(q.data ?? []).map((a) => (
          <div className="panel" key={a.agentId} data-testid="ucs-agent">
            <div className="panel-head">
              <Link href={`/substrate/${encodeURIComponent(a.agentId)}`} className="mono">
                {a.agentId} →
              </Link>
              <span className="badge">
                {a.thetaBins}×{a.phiBins} torus
              </span>
            </div>
            <div className="panel-body stats">
              <div className="stat">
                <div className="label">Snapshots</div>
                <div className="value">{fmtInt(a.snapshots)}</div>
              </div>
              <div className="stat">
                <div className="label">Steps t</div>
                <div className="value">
                  {fmtInt(a.firstT)}–{fmtInt(a.lastT)}
                </div>
              </div>
              <div className="stat">
                <div className="label">Artifacts</div>
                <div className="value">{fmtInt(a.artifacts)}</div>
              </div>
              <div className="stat">
                <div className="label">Annotated</div>
                <div className="value">{fmtInt(a.annotated)}</div>
              </div>
              <div className="stat">
                <div className="label">Dead ends</div>
                <div className="value">
                  <Link href={`/substrate/${encodeURIComponent(a.agentId)}/dead-ends`}>{fmtInt(a.deadEnds)}</Link>
                </div>
              </div>
              <div className="stat">
                <div className="label">Methodology</div>
                <div className="value">{fmtInt(a.methodology)}</div>
              </div>
              <div className="stat">
                <div className="label">Judgments</div>
                <div className="value">{fmtInt(a.judgments)}</div>
              </div>
              <div className="stat">
                <div className="label">Actions</div>
                <div className="value">{fmtInt(a.actions)}</div>
              </div>
            </div>
          </div>
        ))}
      </div>
    </>
  );
}
