'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/provider';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { printedPathParts, type PrintedPath } from '@/lib/ucs/substrate-sim';
import { PartsLegend, TermsBar, termsDomain } from './terms-bar';

/** What the bridge advised when consulted: per stored sample, its suggested paths with the terms of each score. */
export function ConsultSamples({ agent }: { agent: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.substrate.consultSamples.queryOptions({ agent }));
  const samples = q.data ?? [];
  if (!samples.length) return null;
  return (
    <Panel
      as="div"
      style={{ marginTop: 14 }}
      testId="consult-samples"
      title={`Stored consult outputs (${samples.length})`}
      actions={<PartsLegend />}
      bodyProps={{ style: { display: 'grid', gap: 12 } }}
    >
      {samples.map((s, k) => {
        const c = (s.consult ?? {}) as {
          cursor?: string;
          resolved_capabilities?: string[];
          suggested_paths?: PrintedPath[];
        };
        const paths = c.suggested_paths ?? [];
        // The printed penalty and context boost already carry ε and δ: the bars add up to the printed score.
        const rows = paths.map((x) => ({ x, parts: printedPathParts(x) }));
        const domain = termsDomain(rows.map((r) => r.parts));
        return (
          <div key={k}>
            <div>
              <MemoryText text={String(s.context ?? '')} />{' '}
              <span className="faint">
                · from {c.cursor} · resolved {(c.resolved_capabilities ?? []).join(', ') || 'nothing'}
              </span>
            </div>
            <DataTable
              compact
              headless
              rows={rows}
              rowKey={(r) => r.x.to}
              columns={[
                { id: 'to', header: 'To', className: 'mono', width: 200, cell: (r) => r.x.to },
                {
                  id: 'score',
                  header: 'Score',
                  num: true,
                  className: 'mono',
                  width: 70,
                  cell: (r) => r.x.score.toFixed(3),
                },
                { id: 'terms', header: 'Terms', cell: (r) => <TermsBar parts={r.parts} domain={domain} /> },
              ]}
            />
          </div>
        );
      })}
    </Panel>
  );
}
