import { describe, expect, it } from 'vitest';
import { normalizeEnvelope } from '@/lib/ingest/normalize';
import { messagesText, otlpToEnvelopes } from './otlp';

const s = (key: string, v: string) => ({ key, value: { stringValue: v } });
const i = (key: string, v: number) => ({ key, value: { intValue: String(v) } });
const d = (key: string, v: number) => ({ key, value: { doubleValue: v } });
const arr = (key: string, vs: string[]) => ({
  key,
  value: { arrayValue: { values: vs.map((x) => ({ stringValue: x })) } },
});

const body = (spans: unknown[], resource = [s('service.name', 'triage-bot')]) => ({
  resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ scope: { name: 't' }, spans }] }],
});

describe('OTLP/HTTP JSON to envelopes', () => {
  it('turns a span with mnemoscope.turn into a valid turn, with GenAI messages, usage and span events', () => {
    const r = otlpToEnvelopes(
      body([
        {
          traceId: '5b8efff798038103d269b633813fc60c',
          spanId: 'eee19b7ec3c1b174',
          name: 'invoke_agent triage',
          startTimeUnixNano: '1763715600000000000',
          attributes: [
            s('gen_ai.operation.name', 'invoke_agent'),
            s('gen_ai.conversation.id', 'conv-7'),
            i('mnemoscope.turn', 3),
            s('mnemoscope.title', 'Checkout 504s'),
            s(
              'gen_ai.input.messages',
              JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Why are checkouts failing?' }] }]),
            ),
            s(
              'gen_ai.output.messages',
              JSON.stringify([
                {
                  role: 'assistant',
                  parts: [
                    { type: 'text', content: 'The CA bundle is stale.' },
                    { type: 'tool_call', name: 'x' },
                  ],
                },
              ]),
            ),
            s('mnemoscope.ccs', '{"goal_orientation": ["restore(checkout)"]}'),
            arr('mnemoscope.recalled', ['rb1', 'pm2']),
            s('mnemoscope.qualified', '["rb1"]'),
            d('mnemoscope.hallucination', 0.1),
            i('gen_ai.usage.input_tokens', 812),
            { key: 'mnemoscope.success', value: { boolValue: true } },
          ],
          events: [
            {
              name: 'mnemoscope.artifact',
              attributes: [s('id', 'rb1'), s('content', 'Restart after CA rotation.'), s('kind', 'runbook')],
            },
            {
              name: 'mnemoscope.memory_event',
              attributes: [s('event', JSON.stringify({ event_id: 'memevt_otel_00000001', content: 'x' }))],
            },
            { name: 'exception', attributes: [] },
          ],
        },
      ]),
    );
    expect(r).toMatchObject({ spans: 1, skipped: 0, errors: [] });
    expect(r.envelopes.map((e) => e.type)).toEqual(['artifact', 'memory_event', 'session', 'turn']);
    const turn = r.envelopes.at(-1)!;
    expect(turn.data).toMatchObject({
      session_id: 'conv-7',
      agent: 'triage-bot',
      turn: 3,
      input: 'Why are checkouts failing?',
      output: 'The CA bundle is stale.',
      ccs: { goal_orientation: ['restore(checkout)'] },
      recalled: ['rb1', 'pm2'],
      qualified: ['rb1'],
      hallucination: 0.1,
      success: true,
      footprint: { input_tokens: 812 },
      timestamp: '2025-11-21T09:00:00.000Z',
      otel: { trace_id: '5b8efff798038103d269b633813fc60c', span_id: 'eee19b7ec3c1b174' },
    });
    expect(turn.source).toBe('resourceSpans[0].scopeSpans[0].spans[0]');
    // What the mapping makes passes the same validation as any ingest.
    expect(normalizeEnvelope({ type: turn.type, data: turn.data }).ok).toBe(true);
    expect(r.envelopes[0]!.data).toMatchObject({
      id: 'rb1',
      session_id: 'conv-7',
      agent: 'triage-bot',
      kind: 'runbook',
    });
    expect(r.envelopes[1]!.data).toEqual({ event_id: 'memevt_otel_00000001', content: 'x' });
  });

  it('skips GenAI spans without Mnemoscope attributes, and names what is wrong with the rest', () => {
    const r = otlpToEnvelopes(
      body([
        { traceId: 't1', spanId: 'a', name: 'chat gpt', attributes: [s('gen_ai.operation.name', 'chat')] },
        { traceId: 't1', spanId: 'b', name: 'turn', attributes: [s('mnemoscope.turn', 'two')] },
        {
          traceId: 't2',
          spanId: 'c',
          name: 'turn',
          attributes: [i('mnemoscope.turn', 1), s('mnemoscope.ccs', 'goal_orientation: x(y)')],
        },
        { spanId: 'd', name: 'turn', attributes: [i('mnemoscope.turn', 1)] },
        {
          traceId: 't3',
          spanId: 'e',
          events: [{ name: 'mnemoscope.memory_event', attributes: [s('event', '{not json')] }],
        },
      ]),
    );
    expect(r.spans).toBe(5);
    expect(r.skipped).toBe(1);
    expect(r.errors).toEqual([
      { source: 'resourceSpans[0].scopeSpans[0].spans[1]', message: 'mnemoscope.turn must be an integer, got "two"' },
      {
        source: 'resourceSpans[0].scopeSpans[0].spans[3]',
        message: 'no session: set mnemoscope.session_id (or gen_ai.conversation.id)',
      },
      {
        source: 'resourceSpans[0].scopeSpans[0].spans[4].events[0]',
        message: 'attribute "event" must be the memory event as JSON',
      },
    ]);
    // The trace id is the session when nothing else names one; a text CCS stays text.
    expect(r.envelopes).toHaveLength(1);
    expect(r.envelopes[0]!.data).toMatchObject({
      session_id: 't2',
      turn: 1,
      ccs: 'goal_orientation: x(y)',
      input: '',
      output: '',
    });
  });

  it('refuses a body that is not an export request', () => {
    expect(() => otlpToEnvelopes({ spans: [] })).toThrow(/expected \{"resourceSpans": \[...\]\}/);
    expect(() => otlpToEnvelopes(null)).toThrow(/not an OTLP/);
  });

  it('reads message text in the forms instrumentations use', () => {
    expect(messagesText('[{"role":"user","content":"hi"},{"role":"user","content":"there"}]')).toBe('hi\nthere');
    expect(messagesText('plain prompt')).toBe('plain prompt');
    expect(messagesText([{ role: 'assistant', parts: [{ type: 'text', content: 'ok' }] }])).toBe('ok');
    expect(messagesText(null)).toBeNull();
  });
});
