import { describe, expect, it } from 'vitest';
import { callsUnder, withLateCalls, type StoredTurn } from './late-calls';
import type { PendingSpan, TurnCall } from './otlp';

const s = (key: string, v: string) => ({ key, value: { stringValue: v } });
const i = (key: string, v: number) => ({ key, value: { intValue: String(v) } });
const T0 = 1763715600000; // the turn's start, ms
const at = (ms: number) => String(BigInt(T0 + ms) * 1_000_000n);
const span = (id: string, parent: string, from: number, to: number, attributes: unknown[]): PendingSpan => ({
  traceId: 'tr',
  spanId: id,
  span: {
    traceId: 'tr',
    spanId: id,
    parentSpanId: parent,
    name: id,
    startTimeUnixNano: at(from),
    endTimeUnixNano: at(to),
    attributes,
  },
  resource: [s('service.name', 'bot')],
});
const chat = (id: string, parent: string, from: number, tokens: number, extra: unknown[] = []) =>
  span(id, parent, from, from + 500, [
    s('gen_ai.operation.name', 'chat'),
    i('gen_ai.usage.input_tokens', tokens),
    s('gen_ai.input.messages', JSON.stringify([{ role: 'user', content: `asked by ${id}` }])),
    s('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', content: `answered by ${id}` }])),
    ...extra,
  ]);
const turn = { traceId: 'tr', spanId: 'root', startMs: T0 };
const stored = (calls: TurnCall[], more: Partial<StoredTurn> = {}): StoredTurn => ({
  input: '',
  output: '',
  recalled: [],
  footprint: null,
  extra: { otel: { trace_id: 'tr', span_id: 'root' }, ...(calls.length ? { calls } : {}) },
  ...more,
});

describe('calls that arrive after their turn', () => {
  it('are read as the turn would have read them: times from its start, the spans below them included', () => {
    const late = callsUnder(turn, [
      chat('c1', 'root', 1200, 40),
      span('t1', 'c1', 1300, 1400, [s('gen_ai.operation.name', 'execute_tool'), s('gen_ai.tool.name', 'grep')]),
    ]);
    expect(late!.calls.map((c) => [c.kind, c.name, c.start_ms, c.duration_ms])).toEqual([
      ['llm', 'c1', 1200, 500],
      ['tool', 't1', 1300, 100],
    ]);
    expect(late).toMatchObject({ input: 'asked by c1', output: 'answered by c1' });
  });

  it('are nothing when none of them is below the turn', () => {
    expect(callsUnder(turn, [chat('c1', 'elsewhere', 0, 1)])).toBeNull();
    expect(callsUnder(turn, [])).toBeNull();
  });

  it('join the stored calls in start order and count the totals again', () => {
    const first: TurnCall = { kind: 'llm', name: 'c0', start_ms: 100, duration_ms: 50, input_tokens: 10 };
    const late = callsUnder(turn, [chat('c1', 'root', 50, 40), chat('c2', 'root', 900, 5)])!;
    const { turn: next, fields } = withLateCalls(
      stored([first], {
        input: 'own question',
        footprint: { input_tokens: 10 },
        extra: {
          calls: [first],
          usage: { input_tokens: 10, llm_calls: 1, tool_calls: 0, errors: 0, latency_ms: 2000 },
        },
      }),
      late,
    );
    expect(next.extra.calls!.map((c) => c.name)).toEqual(['c1', 'c0', 'c2']);
    expect(next.extra.usage).toEqual({ input_tokens: 55, latency_ms: 2000, llm_calls: 3, tool_calls: 0, errors: 0 });
    expect(next.footprint).toEqual({ input_tokens: 55 });
    // The turn's own input stays; its output was empty and is now the last late call's.
    expect([next.input, next.output]).toEqual(['own question', 'answered by c2']);
    expect(fields).toEqual(['output', 'footprint', 'extra']);
  });

  it('are not added twice: spans the turn holds already change nothing', () => {
    const late = callsUnder(turn, [chat('c1', 'root', 50, 40)])!;
    expect(late.calls[0]!.span_id).toBe('c1');
    const once = withLateCalls(stored([]), late).turn;
    expect(withLateCalls(once, late)).toEqual({ turn: once, fields: [] });
  });

  it("keep a total the turn's own span carried, and a recall the agent declared", () => {
    const late = callsUnder(turn, [chat('c1', 'root', 50, 40, [s('retrieval.documents.0.document.id', 'doc-9')])])!;
    const own = withLateCalls(stored([], { footprint: { input_tokens: 999 }, recalled: ['declared'] }), late).turn;
    expect(own.footprint).toEqual({ input_tokens: 999 });
    expect(own.extra.usage).toMatchObject({ input_tokens: 999, llm_calls: 1 });
    expect(own.recalled).toEqual(['declared']);
  });

  it('add the documents they retrieved to a recall read from the calls', () => {
    const docs = (id: string) => [s('retrieval.documents.0.document.id', id)];
    const before: TurnCall = { kind: 'retriever', name: 'r0', start_ms: 0, duration_ms: 1, documents: ['doc-1'] };
    const late = callsUnder(turn, [
      span('r1', 'root', 10, 20, [s('openinference.span.kind', 'RETRIEVER'), ...docs('doc-2')]),
    ])!;
    expect(late.documents).toEqual(['doc-2']);
    expect(withLateCalls(stored([before], { recalled: ['doc-1'] }), late).turn.recalled).toEqual(['doc-1', 'doc-2']);
  });
});
