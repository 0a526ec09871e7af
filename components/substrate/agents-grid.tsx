'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/components/trpc/provider';
import { Panel } from '@/components/ui/panel';
import { EmptyState, QueryError } from '@/components/ui/states';
import { fmtInt, plural } from '@/lib/format';

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
      <QueryError query={q} />
      {q.isPending ? (
        <Panel as="div" padded>
          <div className="skeleton" />
        </Panel>
      ) : null}
      {q.data && !q.data.length ? (
        <Panel as="div" body={false}>
          <EmptyState title="No substrate data yet">
            Import a UCS workspace: pick its folder in <Link href="/settings">Settings → Import files</Link>, or{' '}
            <code>npx mnemoscope import path/to/workspace</code>.
          </EmptyState>
        </Panel>
      ) : null}
      <div className="grid-2">
        {(q.data ?? []).map((a) => (
          <Panel
            as="div"
            key={a.agentId}
            testId="ucs-agent"
            bodyClassName="stats"
            title={
              <>
                <Link href={`/substrate/${encodeURIComponent(a.agentId)}`} className="mono">
                  {a.agentId} →
                </Link>
                {a.snapshots ? (
                  <span className="badge">
                    {a.thetaBins}×{a.phiBins} torus
                  </span>
                ) : (
                  <span className="badge warn" data-testid="no-field">
                    no field state
                  </span>
                )}
              </>
            }
          >
            <div className="stat">
              <div className="label">Snapshots</div>
              <div className="value">{fmtInt(a.snapshots)}</div>
            </div>
            <div className="stat">
              <div className="label">Steps t</div>
              <div className="value">{a.snapshots ? `${fmtInt(a.firstT)}–${fmtInt(a.lastT)}` : '—'}</div>
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
                <Link
                  href={`/substrate/${encodeURIComponent(a.agentId)}/dead-ends`}
                  aria-label={`${plural(a.deadEnds, 'dead end')} of ${a.agentId}`}
                >
                  {fmtInt(a.deadEnds)}
                </Link>
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
          </Panel>
        ))}
      </div>
    </>
  );
}
