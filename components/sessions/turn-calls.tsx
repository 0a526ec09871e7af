'use client';

import type { TurnCall, TurnUsage } from '@/lib/otel/otlp';
import { fmtCost, fmtInt, fmtLatency } from '@/lib/format';
import { usageNumber as num } from '@/lib/ccs/digest';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';

const KIND_TONE: Record<string, string> = { llm: 'accent', tool: 'warn', retriever: 'ok' };

const count = (v: unknown) => (num(v) ? v : 0);
const fig = (v: unknown) => (num(v) ? v : null);

/**
 * A turn's totals (calls by kind, tokens, cost, latency, failures), each only when it is a number and not negative:
 * `usage` is an extra field any agent may send, in any shape.
 */
export function usageParts(usage: Partial<TurnUsage>): string[] {
  return [
    count(usage.llm_calls) || count(usage.tool_calls)
      ? `${count(usage.llm_calls)} LLM · ${count(usage.tool_calls)} tool`
      : null,
    num(usage.input_tokens) ? `${fmtInt(usage.input_tokens)} tokens in` : null,
    num(usage.output_tokens) ? `${fmtInt(usage.output_tokens)} out` : null,
    num(usage.cost) ? fmtCost(usage.cost) : null,
    num(usage.latency_ms) ? fmtLatency(usage.latency_ms) : null,
    count(usage.errors) ? `${count(usage.errors)} failed` : null,
  ].filter((p): p is string => p !== null);
}

export function UsageLine({ usage }: { usage: Partial<TurnUsage> }) {
  return (
    <span className="faint" data-testid="turn-usage">
      {usageParts(usage).join(' · ')}
    </span>
  );
}

/**
 * What a traced agent did in the turn, as a waterfall: each LLM, tool and retriever call at its start and for its
 * duration, with model or tool, tokens, cost and errors; the turn's totals above. From whole OTLP traces.
 */
export function TurnCalls({ calls, usage }: { calls: TurnCall[]; usage: TurnUsage | null }) {
  // `calls` may come from an agent as it wrote them: only numbers not below 0 place a bar or print a figure.
  const end = Math.max(
    1,
    ...calls.map((c) => (fig(c.start_ms) ?? 0) + (fig(c.duration_ms) ?? 0)),
    fig(usage?.latency_ms) ?? 0,
  );
  return (
    <div data-testid="turn-calls">
      <div className="label-sm" style={{ marginTop: 12 }}>
        The turn&apos;s calls {usage ? <UsageLine usage={usage} /> : null}
      </div>
      <DataTable
        className="compact waterfall"
        headless
        rows={calls}
        rowKey={(_, k) => k}
        rowProps={(c) => ({ 'data-call-kind': c.kind, className: c.error ? 'call-error' : undefined })}
        columns={[
          {
            id: 'kind',
            header: 'Kind',
            cell: (c) => <span className={`badge ${c.error ? 'danger' : (KIND_TONE[c.kind] ?? '')}`}>{c.kind}</span>,
          },
          {
            id: 'call',
            header: 'Call',
            title: (c) => c.name,
            cell: (c) => (
              <>
                <div className="mono clip">{c.tool ?? c.model ?? c.name}</div>
                {c.error ? (
                  <div className="danger-text" style={{ whiteSpace: 'normal' }}>
                    <MemoryText text={c.error} />
                  </div>
                ) : c.arguments || c.result ? (
                  <div className="cell-sub clip" title={c.result ? `→ ${c.result}` : undefined}>
                    {c.arguments ? <MemoryText text={c.arguments} /> : null}
                    {c.result ? (
                      <>
                        {' → '}
                        <MemoryText text={c.result} />
                      </>
                    ) : null}
                  </div>
                ) : null}
              </>
            ),
          },
          {
            id: 'time',
            header: 'Time',
            width: '48%',
            cell: (c) => (
              <>
                <div className="wf-track" aria-hidden="true">
                  <div
                    className={`wf-bar wf-${c.kind}`}
                    style={{
                      left: `${(100 * (fig(c.start_ms) ?? 0)) / end}%`,
                      width: `${Math.max(0.8, (100 * (fig(c.duration_ms) ?? 0)) / end)}%`,
                    }}
                  />
                </div>
                <div className="cell-sub nowrap">
                  {fig(c.duration_ms) !== null
                    ? fmtLatency(fig(c.duration_ms)!)
                    : c.from_messages
                      ? 'not traced (asked for by the model)'
                      : '—'}
                  {fig(c.input_tokens) !== null || fig(c.output_tokens) !== null
                    ? ` · ${fmtInt(fig(c.input_tokens) ?? 0)}→${fmtInt(fig(c.output_tokens) ?? 0)} tok`
                    : ''}
                  {fig(c.cost) !== null ? ` · ${fmtCost(fig(c.cost)!)}` : ''}
                </div>
              </>
            ),
          },
        ]}
      />
    </div>
  );
}
