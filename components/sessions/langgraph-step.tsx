'use client';

import type { LangGraphMessage, LangGraphTurn } from '@/lib/import/langgraph';
import { preview } from '@/lib/json-state/diff';
import { MemoryText } from '@/components/ui/memory-text';

/** Messages by type, an AI message's tool calls and a tool message's tool named: `1 ai → disk_usage`. */
function messagesLine(list: LangGraphMessage[]): string {
  if (!list.length) return 'none';
  return list
    .map((m) => {
      const calls = (m.tool_calls ?? []).map((c) => c.name).join(', ');
      return `${m.type}${m.type === 'tool' && m.name ? ` ${m.name}` : ''}${calls ? ` → ${calls}` : ''}`;
    })
    .join(' · ');
}

/**
 * A LangGraph turn's super-step: the node(s) that ran, the messages in and out, what runs next, and the next step's
 * tasks that wait on an interrupt or failed.
 */
export function LangGraphStep({ lg }: { lg: LangGraphTurn }) {
  const waiting = lg.tasks.filter((t) => t.interrupts.length || t.error);
  return (
    <div className="lg-step" data-testid="langgraph-step">
      <div className="label-sm">LangGraph super-step {lg.step}</div>
      <div className="lg-line">
        <span className="muted">ran</span>{' '}
        {lg.nodes.length ? (
          lg.nodes.map((n) => (
            <span key={n} className="badge accent mono" data-node={n}>
              {n}
            </span>
          ))
        ) : (
          <span className="faint">{lg.source === 'update' ? 'a state update' : 'no node it names'}</span>
        )}
        {lg.next.length ? (
          <>
            <span className="muted"> · next</span>{' '}
            {lg.next.map((n) => (
              <span key={n} className="badge mono" data-next={n}>
                {n}
              </span>
            ))}
          </>
        ) : (
          <span className="muted"> · the run ended here</span>
        )}
        {lg.checkpoint_id ? (
          <span className="faint mono" title={`checkpoint ${lg.checkpoint_id}`}>
            {' '}
            · checkpoint …{lg.checkpoint_id.slice(-8)}
          </span>
        ) : null}
      </div>
      <div className="lg-line faint" data-testid="langgraph-messages">
        in: {messagesLine(lg.messages_in)} · out: {messagesLine(lg.messages_out)}
      </div>
      {waiting.map((t) => (
        <div key={t.id || t.name} className="lg-line" data-testid="langgraph-task">
          {t.interrupts.length ? <span className="badge warn">interrupt</span> : null}
          {t.error ? <span className="badge danger">error</span> : null} <b className="mono">{t.name}</b>{' '}
          {t.interrupts.map((i, k) => (
            <span key={k} className="mono">
              <MemoryText
                text={
                  preview(i && typeof i === 'object' && 'value' in i ? (i as { value: unknown }).value : i, 200).text
                }
              />{' '}
            </span>
          ))}
          {t.error ? (
            <span className="danger-text">
              <MemoryText text={t.error} />
            </span>
          ) : null}
        </div>
      ))}
    </div>
  );
}
