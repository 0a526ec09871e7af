'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/provider';
import { MemoryText } from '@/components/ui/memory-text';
import { printedPathParts, type PrintedPath } from '@/lib/ucs/substrate-sim';
import { PartsLegend, TermsBar, termsDomain } from './terms-bar';

/** What the bridge advised when consulted: per stored sample, its suggested paths with the terms of each score. */
export function ConsultSamples({ agent }: { agent: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.substrate.consultSamples.queryOptions({ agent }));
  const samples = q.data ?? [];
  if (!samples.length) return null;
  return (
    <div className="panel" style={{ marginTop: 14 }} data-testid="consult-samples">
      <div className="panel-head">
        <span>Stored consult outputs ({samples.length})</span>
        <PartsLegend />
      </div>
      <div className="panel-body" style={{ display: 'grid', gap: 12 }}>
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
              <table className="data compact">
                <tbody>
                  {rows.map(({ x, parts }) => (
                    <tr key={x.to}>
                      <td className="mono" style={{ width: 200 }}>
                        {x.to}
                      </td>
                      <td className="num mono" style={{ width: 70 }}>
                        {x.score.toFixed(3)}
                      </td>
                      <td>
                        <TermsBar parts={parts} domain={domain} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          );
        })}
      </div>
    </div>
  );
}
