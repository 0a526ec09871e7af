import { describe, expect, it } from 'vitest';
import { normalizeEnvelope } from '@/lib/ingest/normalize';
import openinference from './fixtures/openinference-weather.json';
import openllmetry from './fixtures/openllmetry-travel.json';
import { otlpToEnvelopes, spanPath, type TurnCall, type TurnUsage } from './otlp';

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
    // What the event leaves out: its agent is the span's, its time the span event's (else the span's start), and
    // the turn it was emitted at the one of its span.
    expect(r.envelopes[1]!.data).toEqual({
      event_id: 'memevt_otel_00000001',
      content: 'x',
      source_agent: 'triage-bot',
      timestamp: '2025-11-21T09:00:00.000Z',
      session_id: 'conv-7',
      turn: 3,
    });
  });

  it('makes a bare GenAI span a turn of its own, and names what is wrong with the rest', () => {
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
    expect(r.skipped).toBe(0);
    expect(r.errors).toEqual([
      { source: 'resourceSpans[0].scopeSpans[0].spans[1]', message: 'mnemoscope.turn must be an integer, got "two"' },
      {
        source: 'resourceSpans[0].scopeSpans[0].spans[3]',
        message:
          'no session: set mnemoscope.session_id (or gen_ai.conversation.id), or send the span with its traceId ' +
          '(a trace is a session when nothing else names one)',
      },
      {
        source: 'resourceSpans[0].scopeSpans[0].spans[4].events[0]',
        message: 'attribute "event" must be the memory event as JSON',
      },
    ]);
    // The trace id is the session when nothing else names one; a text CCS stays text. The bare chat span is a turn
    // without a number (the server numbers it).
    expect(r.envelopes).toHaveLength(2);
    expect(r.envelopes[0]!.data).toMatchObject({ session_id: 't1', otel: { span_id: 'a' } });
    expect(r.envelopes[0]!.data.turn).toBeUndefined();
    expect(r.envelopes[1]!.data).toMatchObject({
      session_id: 't2',
      turn: 1,
      ccs: 'goal_orientation: x(y)',
      input: '',
      output: '',
    });
  });

  it('refuses a turn the server would number when its span has no id, as each retry would be another turn', () => {
    const chat = [s('gen_ai.operation.name', 'chat')];
    const r = otlpToEnvelopes(
      body([
        {
          traceId: 'zz',
          spanId: '',
          name: 'invoke_agent x',
          attributes: chat,
          events: [{ name: 'mnemoscope.memory_event', attributes: [s('event_id', 'memevt_zz_1'), s('content', 'x')] }],
        },
        { traceId: 'zz', spanId: '0000000000000000', name: 'chat', attributes: chat },
        { traceId: 'zz', name: 'turn', attributes: [i('mnemoscope.turn', 4)] },
        { traceId: 'zz', spanId: 'eee19b7ec3c1b174', name: 'chat', attributes: chat },
      ]),
    );
    expect(r.errors).toEqual([
      {
        source: 'resourceSpans[0].scopeSpans[0].spans[0].spanId',
        message: "a turn's span needs its id (none sent): a retried export is known by it, else set mnemoscope.turn",
      },
      {
        source: 'resourceSpans[0].scopeSpans[0].spans[1].spanId',
        message:
          "a turn's span needs its id (all zeros is no id): a retried export is known by it, else set mnemoscope.turn",
      },
    ]);
    // A numbered turn is known by its number; a span with its id is known by it. What the refused span carried (a
    // memory event) is refused with it, not stored without its turn.
    expect(r.envelopes.some((e) => e.type === 'memory_event')).toBe(false);
    expect(r.envelopes.map((e) => [e.data.turn, (e.data.otel as { span_id: string | null }).span_id])).toEqual([
      [4, null],
      [undefined, 'eee19b7ec3c1b174'],
    ]);
  });

  it('takes a memory event as JSON in "event" or as attributes, and names what was wrong as it was sent', () => {
    const r = otlpToEnvelopes(
      body([
        {
          traceId: 't1',
          spanId: 'a',
          name: 'turn',
          attributes: [
            i('mnemoscope.turn', 1),
            s('mnemoscope.session_id', 's1'),
            s('mnemoscope.ccs', '{}'),
            s('mnemoscope.hallucination', 'high'),
            s('mnemoscope.success', 'true'),
          ],
          events: [
            {
              name: 'mnemoscope.memory_event',
              timeUnixNano: '1763715605000000000',
              attributes: [s('event_id', 'memevt_flat_00000001'), s('kind', 'observation'), s('content', 'x')],
            },
            { name: 'mnemoscope.memory_event', attributes: [s('event', JSON.stringify({ content: 'y' }))] },
            { name: 'mnemoscope.memory_event', attributes: [] },
            { name: 'mnemoscope.memory_event', attributes: [s('event', '[1]')] },
          ],
        },
      ]),
    );
    const source = 'resourceSpans[0].scopeSpans[0].spans[0]';
    expect(r.errors).toEqual([
      {
        source: `${source}.events[2]`,
        message:
          'no attributes: send the memory event as JSON in the attribute "event", or its fields (event_id, kind, ' +
          'content, …) as attributes',
      },
      {
        source: `${source}.events[3]`,
        message: 'attribute "event" must be the memory event as a JSON object, got [1]',
      },
    ]);
    const [flat, json, turn] = r.envelopes;
    expect(flat!.data).toEqual({
      event_id: 'memevt_flat_00000001',
      kind: 'observation',
      content: 'x',
      source_agent: 'triage-bot',
      timestamp: '2025-11-21T09:00:05.000Z',
      session_id: 's1',
      turn: 1,
    });
    expect(spanPath(flat!, 'data.session_id')).toBe('data.session_id');
    expect(spanPath(flat!, 'data.kind')).toBe('attribute kind');
    expect(spanPath(json!, 'data.kind')).toBe('attribute event: kind');
    // Not a number: the turn is stored without it, and the answer says so (it was dropped without a word).
    expect(turn!.data).toMatchObject({ success: true });
    expect(turn!.data).not.toHaveProperty('hallucination');
    expect(turn!.warnings).toEqual([
      'attribute mnemoscope.hallucination must be a number, got "high": the turn was stored without it',
    ]);
    expect(normalizeEnvelope({ type: 'turn', data: turn!.data }).ok).toBe(true);
    // An error inside an attribute's value names the attribute, then the place in it.
    expect(spanPath(turn!, 'data.ccs.goal_orientation[0]')).toBe('attribute mnemoscope.ccs: goal_orientation[0]');
    expect(spanPath(turn!, 'data.ccs')).toBe('attribute mnemoscope.ccs');
  });

  it('says which mnemoscope attributes it does not read: a slip of a name, a turn figure below the turn', () => {
    const r = otlpToEnvelopes(
      body(
        [
          {
            traceId: 't12',
            spanId: 'root',
            name: 'invoke_agent triage',
            attributes: [
              s('gen_ai.operation.name', 'invoke_agent'),
              s('mnemoscope.sesion_id', 'conv-1'),
              s('mnemoscope.mood', 'calm'),
            ],
          },
          {
            traceId: 't12',
            spanId: 'c1',
            parentSpanId: 'root',
            name: 'chat gpt',
            attributes: [
              s('gen_ai.operation.name', 'chat'),
              i('mnemoscope.hallucination', 1),
              s('mnemoscope.input', 'q'),
            ],
          },
          {
            traceId: 't12',
            spanId: 'c2',
            parentSpanId: 'root',
            name: 'chat gpt',
            attributes: [s('gen_ai.operation.name', 'chat'), i('mnemoscope.hallucination', 1)],
          },
        ],
        // A resource's attributes are every span's: read on the turn's span, not said again for each span below.
        [s('service.name', 'triage-bot'), s('mnemoscope.title', 'Triage')],
      ),
    );
    expect(r.errors).toEqual([]);
    const [session, turn] = r.envelopes;
    expect(session!.data).toMatchObject({ title: 'Triage' });
    expect(turn!.data).toMatchObject({ session_id: 't12', input: 'q' });
    expect(turn!.data).not.toHaveProperty('hallucination');
    expect(turn!.warnings).toEqual([
      'attribute mnemoscope.sesion_id is not one Mnemoscope reads: did you mean mnemoscope.session_id?',
      'attribute mnemoscope.mood is not one Mnemoscope reads',
      'attribute mnemoscope.hallucination is read on the turn\'s span only, not on span "chat gpt" below it',
    ]);
  });

  it('credits a memory event on a tool call to the agent span above it', () => {
    const r = otlpToEnvelopes(
      body([
        {
          traceId: 't9',
          spanId: 'root',
          name: 'invoke_agent triage',
          attributes: [s('gen_ai.operation.name', 'invoke_agent'), s('gen_ai.agent.name', 'triage')],
        },
        {
          traceId: 't9',
          spanId: 'tool',
          parentSpanId: 'root',
          name: 'execute_tool remember',
          attributes: [s('gen_ai.operation.name', 'execute_tool')],
          events: [{ name: 'mnemoscope.memory_event', attributes: [s('event_id', 'memevt_tool_0001')] }],
        },
      ]),
    );
    const event = r.envelopes.find((e) => e.type === 'memory_event')!;
    expect(event.data.source_agent).toBe('triage');
    // Emitted in a turn the server numbers: the event is that turn's, by its envelope (numbered when stored).
    const turn = r.envelopes.find((e) => e.type === 'turn')!;
    expect(event.turnOf).toBe(turn);
    expect([event.data.session_id, event.data.turn]).toEqual([turn.data.session_id, undefined]);
  });

  it("keeps the turn an event names itself (of the span's session if it names none); none outside a turn", () => {
    const r = otlpToEnvelopes(
      body([
        {
          traceId: 't10',
          spanId: 'root',
          name: 'invoke_agent triage',
          attributes: [s('gen_ai.operation.name', 'invoke_agent'), s('gen_ai.agent.name', 'triage')],
          events: [
            {
              name: 'mnemoscope.memory_event',
              attributes: [s('event_id', 'memevt_own_0001'), s('session_id', 'elsewhere'), i('turn', 9)],
            },
            // A turn and no session: the turn named, of the span's session.
            { name: 'mnemoscope.memory_event', attributes: [s('event_id', 'memevt_own_0002'), i('turn', 4)] },
          ],
        },
        {
          traceId: 't11',
          spanId: 'job',
          name: 'nightly consolidation',
          attributes: [s('mnemoscope.agent', 'curator')],
          events: [{ name: 'mnemoscope.memory_event', attributes: [s('event_id', 'memevt_free_0001')] }],
        },
      ]),
    );
    const [own, turnOnly, free] = r.envelopes.filter((e) => e.type === 'memory_event');
    expect([own!.data.session_id, own!.data.turn, own!.turnOf]).toEqual(['elsewhere', 9, undefined]);
    const session = r.envelopes.find((e) => e.type === 'turn')!.data.session_id;
    expect([turnOnly!.data.session_id, turnOnly!.data.turn, turnOnly!.turnOf]).toEqual([session, 4, undefined]);
    expect(free!.data).not.toHaveProperty('session_id');
    expect(free!.data).not.toHaveProperty('turn');
    expect(free!.turnOf).toBeUndefined();
  });

  it('assembles a whole GenAI trace into one turn: its LLM and tool calls, tokens, cost, latency and errors', () => {
    const ms = (n: number) => String(1763715600000000000 + n * 1e6);
    const span = (
      id: string,
      parent: string | undefined,
      name: string,
      from: number,
      to: number,
      attrs: unknown[],
    ) => ({
      traceId: 'tr1',
      spanId: id,
      ...(parent ? { parentSpanId: parent } : {}),
      name,
      startTimeUnixNano: ms(from),
      endTimeUnixNano: ms(to),
      attributes: attrs,
    });
    const r = otlpToEnvelopes(
      body([
        span('root', undefined, 'invoke_agent triage', 0, 2400, [
          s('gen_ai.operation.name', 'invoke_agent'),
          s('gen_ai.agent.name', 'triage'),
          s('gen_ai.conversation.id', 'conv-9'),
        ]),
        span('c1', 'root', 'chat gpt-4o', 10, 900, [
          s('gen_ai.operation.name', 'chat'),
          s('gen_ai.request.model', 'gpt-4o'),
          i('gen_ai.usage.input_tokens', 1200),
          i('gen_ai.usage.output_tokens', 80),
          d('gen_ai.usage.cost', 0.0042),
          s('gen_ai.input.messages', JSON.stringify([{ role: 'user', content: 'Why are checkouts failing?' }])),
        ]),
        {
          ...span('t1', 'c1', 'execute_tool grep_logs', 950, 1400, [
            s('gen_ai.operation.name', 'execute_tool'),
            s('gen_ai.tool.name', 'grep_logs'),
            s('gen_ai.tool.call.arguments', '{"pattern":"504"}'),
          ]),
          status: { code: 2, message: 'timeout after 450 ms' },
        },
        span('c2', 'root', 'chat gpt-4o', 1450, 2350, [
          s('gen_ai.operation.name', 'chat'),
          s('gen_ai.request.model', 'gpt-4o'),
          i('gen_ai.usage.input_tokens', 1500),
          i('gen_ai.usage.output_tokens', 120),
          s('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', content: 'The CA bundle is stale.' }])),
        ]),
        span('x', undefined, 'GET /health', 0, 1, [s('http.method', 'GET')]),
      ]),
    );
    expect(r.skipped).toBe(1);
    expect(r.envelopes).toHaveLength(1);
    const t = r.envelopes[0]!.data;
    expect(t).toMatchObject({
      session_id: 'conv-9',
      agent: 'triage',
      input: 'Why are checkouts failing?',
      output: 'The CA bundle is stale.',
      footprint: { input_tokens: 2700, output_tokens: 200 },
      usage: {
        input_tokens: 2700,
        output_tokens: 200,
        cost: 0.0042,
        latency_ms: 2400,
        llm_calls: 2,
        tool_calls: 1,
        errors: 1,
      },
    });
    expect(t.turn).toBeUndefined();
    expect(
      (t.calls as { kind: string; start_ms: number; duration_ms: number; error?: string }[]).map((c) => [
        c.kind,
        c.start_ms,
        c.duration_ms,
        c.error ?? null,
      ]),
    ).toEqual([
      ['llm', 10, 890, null],
      ['tool', 950, 450, 'timeout after 450 ms'],
      ['llm', 1450, 900, null],
    ]);
    // Valid as a turn once the server gives it a number.
    expect(normalizeEnvelope({ type: 'turn', data: { ...t, turn: 1 } }).ok).toBe(true);
  });

  it('reads OpenInference: retrieved documents are the recalled artifacts, tokens from llm.token_count', () => {
    const r = otlpToEnvelopes(
      body([
        {
          traceId: 'oi',
          spanId: 'a',
          name: 'agent',
          attributes: [s('openinference.span.kind', 'AGENT'), s('session.id', 'sess-4'), s('input.value', 'hi')],
        },
        {
          traceId: 'oi',
          spanId: 'r',
          parentSpanId: 'a',
          name: 'retrieve',
          attributes: [
            s('openinference.span.kind', 'RETRIEVER'),
            s('retrieval.documents.1.document.id', 'doc-b'),
            s('retrieval.documents.0.document.id', 'doc-a'),
          ],
        },
        {
          traceId: 'oi',
          spanId: 'l',
          parentSpanId: 'a',
          name: 'llm',
          attributes: [
            s('openinference.span.kind', 'LLM'),
            s('llm.model_name', 'claude'),
            i('llm.token_count.prompt', 300),
            i('llm.token_count.completion', 40),
            s('output.value', 'hello'),
          ],
        },
      ]),
    );
    expect(r.envelopes).toHaveLength(1);
    expect(r.envelopes[0]!.data).toMatchObject({
      session_id: 'sess-4',
      input: 'hi',
      output: 'hello',
      recalled: ['doc-a', 'doc-b'],
      footprint: { input_tokens: 300, output_tokens: 40 },
    });
  });

  it('keeps calls whose turn comes in a later export; with it they are its calls; an agent span starts a turn', () => {
    const early = body([
      {
        traceId: 'z',
        spanId: 'c',
        parentSpanId: 'root',
        name: 'chat',
        attributes: [s('gen_ai.operation.name', 'chat'), s('gen_ai.usage.input_tokens', '70')],
      },
      {
        traceId: 'z',
        spanId: 't',
        parentSpanId: 'c',
        name: 'tool',
        attributes: [s('gen_ai.operation.name', 'execute_tool')],
        events: [{ name: 'mnemoscope.artifact', attributes: [s('id', 'doc-1'), s('content', 'x')] }],
      },
      {
        traceId: 'y',
        spanId: 'a',
        parentSpanId: 'http',
        name: 'agent',
        attributes: [s('gen_ai.operation.name', 'invoke_agent')],
      },
    ]);
    const r = otlpToEnvelopes(early);
    expect(r.errors).toEqual([]);
    // The chat and the tool below it wait (their events too: their session is the turn's, not known yet).
    expect(r.pending.map((p) => [p.traceId, p.spanId])).toEqual([
      ['z', 'c'],
      ['z', 't'],
    ]);
    expect(r.pending[0]!.resource).toEqual([s('service.name', 'triage-bot')]);
    expect(r.envelopes.map((e) => [e.type, e.data.otel])).toEqual([
      ['turn', { trace_id: 'y', span_id: 'a', name: 'agent' }],
    ]);

    // The invocation's span arrives; the server adds the waiting spans to it (server/services/otel-pending.ts).
    const late = body([
      {
        traceId: 'z',
        spanId: 'root',
        name: 'invoke_agent',
        attributes: [s('gen_ai.operation.name', 'invoke_agent'), s('gen_ai.conversation.id', 'conv-z')],
      },
    ]);
    late.resourceSpans.push({
      resource: { attributes: r.pending[0]!.resource as ReturnType<typeof s>[] },
      scopeSpans: [{ scope: { name: 't' }, spans: r.pending.map((p) => p.span) }],
    });
    const joined = otlpToEnvelopes(late);
    expect(joined.pending).toEqual([]);
    const turn = joined.envelopes.find((e) => e.type === 'turn')!;
    expect(turn.data).toMatchObject({ session_id: 'conv-z', usage: { input_tokens: 70, llm_calls: 1, tool_calls: 1 } });
    expect(joined.envelopes.find((e) => e.type === 'artifact')!.data).toMatchObject({
      id: 'doc-1',
      session_id: 'conv-z',
    });

    // Swept after waiting too long, or with a remote parent (span flags), a call is a turn of its own.
    expect(otlpToEnvelopes(early, { orphansAreTurns: true }).envelopes.filter((e) => e.type === 'turn')).toHaveLength(
      2,
    );
    const remote = body([
      {
        traceId: 'r',
        spanId: 'c',
        parentSpanId: 'svc',
        flags: 0x301,
        attributes: [s('gen_ai.operation.name', 'chat')],
      },
    ]);
    expect(otlpToEnvelopes(remote).envelopes.map((e) => e.type)).toEqual(['turn']);
  });

  it('keeps a tagged span the turn when an agent span above it is traced too, with the agent’s name', () => {
    const r = otlpToEnvelopes(
      body([
        {
          traceId: 'q',
          spanId: 'p',
          name: 'invoke_agent',
          attributes: [s('gen_ai.operation.name', 'invoke_agent'), s('gen_ai.agent.name', 'planner')],
        },
        {
          traceId: 'q',
          spanId: 'c',
          parentSpanId: 'p',
          name: 'chat',
          attributes: [s('gen_ai.operation.name', 'chat'), i('mnemoscope.turn', 4), s('mnemoscope.session_id', 'run')],
        },
      ]),
    );
    expect(r.envelopes.map((e) => [e.data.turn, e.data.agent, e.data.session_id])).toEqual([[4, 'planner', 'run']]);
  });

  it('puts an artifact sent on a call into the session of the turn the call is part of', () => {
    const r = otlpToEnvelopes(
      body([
        {
          traceId: 'w',
          spanId: 'root',
          name: 'invoke_agent',
          attributes: [s('gen_ai.operation.name', 'invoke_agent'), s('gen_ai.conversation.id', 'conv-a')],
        },
        {
          traceId: 'w',
          spanId: 'r',
          parentSpanId: 'root',
          name: 'retrieve',
          attributes: [s('openinference.span.kind', 'RETRIEVER')],
          events: [{ name: 'mnemoscope.artifact', attributes: [s('id', 'doc-1'), s('content', 'Runbook text.')] }],
        },
      ]),
    );
    expect(r.envelopes.map((e) => [e.type, e.data.session_id])).toEqual([
      ['turn', 'conv-a'],
      ['artifact', 'conv-a'],
    ]);
  });

  it('refuses a body that is not an export request', () => {
    expect(() => otlpToEnvelopes({ spans: [] })).toThrow(/expected \{"resourceSpans": \[...\]\}/);
    expect(() => otlpToEnvelopes(null)).toThrow(/not an OTLP/);
  });
});

type Turn = { session_id: string; agent: string; input: string; output: string; calls: TurnCall[]; usage: TurnUsage };
/** An export request as the fixtures hold it, loosely: spans are edited below. */
type Export = { resourceSpans: { scopeSpans: { spans: { attributes: { value: { stringValue?: string } }[] }[] }[] }[] };
/** The turns of a fixture, and their calls as they read in the waterfall. */
const turnsOf = (b: unknown) =>
  otlpToEnvelopes(b)
    .envelopes.filter((e) => e.type === 'turn')
    .map((e) => e.data as unknown as Turn);
const waterfall = (t: Turn) =>
  t.calls.map((c) => [c.kind, c.tool ?? c.model, c.input_tokens ?? null, c.result ?? null]);

// The fixtures are what the real instrumentation packages export: sdk/examples/otel/*-agent.ts run against
// sdk/examples/otel/weather-model.ts and captured as OTLP/JSON (lib/otel/fixtures/README.md).
describe('traces from real instrumentation packages', () => {
  it('OpenInference (openai instrumentation, traceAgent, traceTool, setSession): one turn per AGENT span', () => {
    const r = otlpToEnvelopes(openinference);
    expect(r.errors).toEqual([]);
    const turns = turnsOf(openinference);
    expect(turns.map((t) => [t.session_id, t.agent, t.input, t.output])).toEqual([
      ['s1', 'weather-agent', 'What is the weather in Oslo?', 'It is 4 °C and sleet in Oslo right now.'],
      ['s1', 'weather-agent', 'And in Lisbon?', 'It is 18 °C and sunny in Lisbon right now.'],
    ]);
    expect(waterfall(turns[0]!)).toEqual([
      ['llm', 'gpt-4o-mini', 12, null],
      ['tool', 'get_weather', null, '4 °C and sleet'],
      ['llm', 'gpt-4o-mini', 36, null],
    ]);
    expect(turns[1]!.usage).toMatchObject({ input_tokens: 48, output_tokens: 14, llm_calls: 2, tool_calls: 1 });
  });

  it('OpenLLMetry chat spans under GenAI invoke_agent / execute_tool spans, with a failing tool', () => {
    const turns = turnsOf(openllmetry);
    expect(turns.map((t) => [t.session_id, t.agent, t.input])).toEqual([
      ['s1', 'travel-desk', 'What is the weather in Oslo?'],
      ['s1', 'travel-desk', 'And in Atlantis?'],
    ]);
    // The tool ran between the two chat calls (OpenLLMetry stamps whole milliseconds: ties are ordered by end).
    expect(waterfall(turns[1]!)).toEqual([
      ['llm', 'gpt-4o-mini', 12, null],
      ['tool', 'get_weather', null, 'error: no weather station in Atlantis'],
      ['llm', 'gpt-4o-mini', 36, null],
    ]);
    expect(turns[1]!.calls[1]).toMatchObject({
      error: 'no weather station in Atlantis',
      arguments: '{"city":"Atlantis"}',
    });
    expect(turns[1]!.usage).toMatchObject({ errors: 1, tool_calls: 1 });
  });

  it('LLM spans alone (no agent or tool spans): each call a turn, its tool calls read from the messages', () => {
    // The OpenInference export with only its LLM spans, as an agent that instruments nothing but the client sends.
    const llmOnly = structuredClone(openinference) as Export;
    for (const rs of llmOnly.resourceSpans)
      for (const ss of rs.scopeSpans) {
        ss.spans = ss.spans.filter((sp) => sp.attributes.some((a) => a.value.stringValue === 'LLM'));
        for (const sp of ss.spans) delete (sp as { parentSpanId?: string }).parentSpanId;
      }
    const turns = turnsOf(llmOnly);
    expect(turns.map((t) => [t.input, t.output])).toEqual([
      ['What is the weather in Oslo?', 'get_weather({"city":"Oslo"})'],
      ['What is the weather in Oslo?', 'It is 4 °C and sleet in Oslo right now.'],
      ['And in Lisbon?', 'get_weather({"city":"Lisbon"})'],
      ['And in Lisbon?', 'It is 18 °C and sunny in Lisbon right now.'],
    ]);
  });

  it('an agent span whose tools are not traced: the tools the model asked for, with the answers it was given', () => {
    const noTools = structuredClone(openllmetry) as Export;
    for (const rs of noTools.resourceSpans)
      for (const ss of rs.scopeSpans)
        ss.spans = ss.spans.filter((sp) => !sp.attributes.some((a) => a.value.stringValue === 'execute_tool'));
    const [first] = turnsOf(noTools);
    expect(first!.calls.map((c) => [c.kind, c.tool ?? null, c.from_messages ?? false])).toEqual([
      ['llm', null, false],
      ['tool', 'get_weather', true],
      ['llm', null, false],
    ]);
    expect(first!.calls[1]).toMatchObject({
      arguments: '{"city":"Oslo"}',
      result: '4 °C and sleet',
      duration_ms: null,
    });
    expect(first!.usage).toMatchObject({ tool_calls: 1, llm_calls: 2 });
  });

  it('takes a tool’s result from the call after the one that asked, never from earlier in the conversation', () => {
    const chat = (id: string, start: number, input: unknown[], output: unknown[]) => ({
      traceId: 't',
      spanId: id,
      parentSpanId: 'root',
      name: 'chat',
      startTimeUnixNano: String(start * 1e6),
      endTimeUnixNano: String((start + 1) * 1e6),
      attributes: [
        s('gen_ai.operation.name', 'chat'),
        s('gen_ai.input.messages', JSON.stringify(input)),
        s('gen_ai.output.messages', JSON.stringify(output)),
      ],
    });
    // Turn 2 of a chat: its history holds turn 1's lookup (no call ids, as older instrumentations send them).
    const history = [
      { role: 'user', content: 'Where is order 1?' },
      { role: 'assistant', tool_calls: [{ function: { name: 'lookup', arguments: '{"order":1}' } }] },
      { role: 'tool', content: 'order 1: shipped' },
      { role: 'assistant', content: 'Shipped.' },
      { role: 'user', content: 'And order 2?' },
    ];
    const asked = [{ role: 'assistant', tool_calls: [{ function: { name: 'lookup', arguments: '{"order":2}' } }] }];
    const r = otlpToEnvelopes(
      body([
        { traceId: 't', spanId: 'root', name: 'agent', attributes: [s('gen_ai.operation.name', 'invoke_agent')] },
        chat('c1', 1, history, asked),
        chat(
          'c2',
          3,
          [...history, ...asked, { role: 'tool', content: 'order 2: in transit' }],
          [{ role: 'assistant', content: 'In transit.' }],
        ),
      ]),
    );
    const [turn] = r.envelopes.filter((e) => e.type === 'turn').map((e) => e.data as unknown as Turn);
    expect(turn!.calls.filter((c) => c.kind === 'tool').map((c) => [c.arguments, c.result])).toEqual([
      ['{"order":2}', 'order 2: in transit'],
    ]);
  });
});
