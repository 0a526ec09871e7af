import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf, type DbHandle } from '@/server/db';
import { otlpToEnvelopes } from '@/lib/otel/otlp';
import { DRIVERS, freshDb } from '@/server/test/db';
import { exportSession } from './sessions';
import { ingestOtel } from './otel-turns';
import { ingest } from './ingest';
import { notifyTurnEvents, onTurnEvents } from './live';

const s = (key: string, v: string) => ({ key, value: { stringValue: v } });
/**
 * One agent invocation (a whole trace: invoke_agent with a chat below it), started at second `at`; the chat emits a
 * memory event `ev-<trace>` saying the question.
 */
const invocation = (trace: string, at: number, question: string) => ({
  resourceSpans: [
    {
      resource: { attributes: [s('service.name', 'bot')] },
      scopeSpans: [
        {
          spans: [
            {
              traceId: trace,
              spanId: `${trace}-root`,
              name: 'invoke_agent',
              startTimeUnixNano: String((1763715600 + at) * 1e9),
              endTimeUnixNano: String((1763715601 + at) * 1e9),
              attributes: [s('gen_ai.operation.name', 'invoke_agent'), s('gen_ai.conversation.id', 'conv')],
            },
            {
              traceId: trace,
              spanId: `${trace}-chat`,
              parentSpanId: `${trace}-root`,
              name: 'chat',
              attributes: [
                s('gen_ai.operation.name', 'chat'),
                s('gen_ai.input.messages', JSON.stringify([{ role: 'user', content: question }])),
              ],
              events: [
                {
                  name: 'mnemoscope.memory_event',
                  timeUnixNano: `${1763715600 + at}500000000`,
                  attributes: [
                    s('event_id', `ev-${trace}`),
                    s('kind', 'fact'),
                    s('content', `The user asked: ${question}.`),
                    s('suggested_scope', 'session'),
                    s('confidence', 'high'),
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ],
});
const send = (h: DbHandle, ...bodies: ReturnType<typeof invocation>[]) =>
  ingestOtel(
    h.db,
    'default',
    bodies.flatMap((b) => otlpToEnvelopes(b).envelopes),
    'api_key:test',
  );
const stored = async (h: DbHandle) =>
  (await exportSession(h.db, 'default', 'conv'))
    .filter((e) => e.type === 'turn')
    .map((e) => [(e.data as { turn: number }).turn, (e.data as { input: string }).input]);

describe.each(DRIVERS)('numbering traced turns on %s', (driver) => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb(driver);
  });
  afterAll(() => h?.close());

  it('numbers turns in the order their spans started; a span sent again keeps its number', async () => {
    const first = await send(h, invocation('t2', 20, 'second'), invocation('t1', 10, 'first'));
    expect(first.results.map((r) => r.status)).toEqual(['accepted', 'accepted', 'accepted', 'accepted']);
    expect(await stored(h)).toEqual([
      [1, 'first'],
      [2, 'second'],
    ]);
    const again = await send(h, invocation('t1', 10, 'first'));
    expect(again.results.map((r) => r.status)).toEqual(['duplicate', 'duplicate']);
    await send(h, invocation('t3', 30, 'third'));
    expect((await stored(h)).map(([n]) => n)).toEqual([1, 2, 3]);
  });

  it('gives two writers at once distinct numbers, losing no turn', async () => {
    const runs = await Promise.all(
      Array.from({ length: 6 }, (_, k) => send(h, invocation(`c${k}`, 100 + k, `concurrent ${k}`))),
    );
    expect(runs.flatMap((r) => r.results.map((x) => x.status))).toEqual(Array(12).fill('accepted'));
    const turns = await stored(h);
    expect(turns.map(([n]) => n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(turns.filter(([, q]) => String(q).startsWith('concurrent')).length).toBe(6);
    // Each memory event is at the turn it was emitted in, also when another writer took that turn's first number.
    const events = rowsOf<{ event_id: string; session_id: string; turn: number; raw_turn: number; content: string }>(
      await h.db.execute(sql`select event_id, session_id, turn, (raw->>'turn')::int as raw_turn, content
        from memory_events where project_id = 'default' order by turn`),
    );
    expect(events.map((e) => [e.turn, e.content])).toEqual(turns.map(([n, q]) => [n, `The user asked: ${String(q)}.`]));
    expect(events.every((e) => e.session_id === 'conv' && e.raw_turn === e.turn)).toBe(true);
  });

  it('takes an event sent again at another turn as the one stored, not as a conflict', async () => {
    const at = (turn: number) => [
      {
        ok: true as const,
        value: {
          type: 'memory_event',
          data: {
            event_id: 'ev-renumbered',
            source_agent: 'bot',
            kind: 'fact',
            content: 'Sent twice, numbered twice.',
            suggested_scope: 'session',
            confidence: 'high',
            timestamp: '2026-11-28T10:00:00Z',
            session_id: 'conv',
            turn,
          },
        },
      },
    ];
    expect((await ingest(h.db, 'default', at(70), 'test')).results[0]!.status).toBe('accepted');
    expect((await ingest(h.db, 'default', at(71), 'test')).results[0]!.status).toBe('duplicate');
  });

  it('moves an event off a turn that was refused, and tells an open replay of that session', async () => {
    // Two invocations in one conversation of their own: the second's turn is refused (a hallucination rate of 7).
    const inConversation = (trace: string, at: number, hallucination: string) => {
      const body = invocation(trace, at, trace);
      const root = body.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
      root.attributes = root.attributes.map((a) => (a.key === 'gen_ai.conversation.id' ? s(a.key, 'moved') : a));
      root.attributes.push(s('mnemoscope.hallucination', hallucination));
      return body;
    };
    let notices = 0;
    let marks = 0;
    const off = await onTurnEvents(h, 'default', 'moved', () => notices++);
    const offMarks = await onTurnEvents(h, 'default', 'marker', () => marks++);
    // The notices so far, all heard: a marker sent after them comes after them (one LISTEN, in commit order).
    const heard = async () => {
      const m = marks;
      await h.db.transaction((tx) => notifyTurnEvents(tx, 'default', ['marker']));
      await expect.poll(() => marks).toBe(m + 1);
      return notices;
    };
    try {
      const kept = await send(h, inConversation('m1', 500, '0.1'));
      expect(kept.results.map((r) => r.status)).toEqual(['accepted', 'accepted']);
      // What storing an event at its turn tells (the store, the curator's decision): the refused turn's event tells
      // as much, and once more for its move off the turn.
      const told = await heard();
      expect(told).toBeGreaterThan(0);
      const refused = await send(h, inConversation('m2', 510, '7'));
      expect(refused.results.map((r) => [r.type, r.status])).toEqual([
        ['turn', 'rejected'],
        ['memory_event', 'accepted'],
      ]);
      expect(await heard()).toBe(2 * told + 1);
      const at = rowsOf<{ event_id: string; session_id: string; turn: number | null; raw_turn: number | null }>(
        await h.db.execute(sql`select event_id, session_id, turn, (raw->>'turn')::int as raw_turn from memory_events
          where project_id = 'default' and event_id in ('ev-m1', 'ev-m2') order by event_id`),
      );
      expect(at).toEqual([
        { event_id: 'ev-m1', session_id: 'moved', turn: 1, raw_turn: 1 },
        { event_id: 'ev-m2', session_id: 'moved', turn: null, raw_turn: null },
      ]);
    } finally {
      off();
      offMarks();
    }
  });

  it('moves an event a stopped request left at another turn when its export is retried', async () => {
    const inConversation = (trace: string, at: number) => {
      const body = invocation(trace, at, trace);
      const root = body.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
      root.attributes = root.attributes.map((a) => (a.key === 'gen_ai.conversation.id' ? s(a.key, 'stopped') : a));
      return body;
    };
    await send(h, inConversation('k1', 600));
    // The request before stored k2's event at the number its turn first took (1, k1's: the turn collided) and
    // stopped before numbering the turn again and moving the event.
    const k2 = inConversation('k2', 610);
    const event = otlpToEnvelopes(k2).envelopes.find((e) => e.type === 'memory_event')!;
    const early = await ingest(
      h.db,
      'default',
      [{ ok: true, value: { type: 'memory_event', data: { ...event.data, turn: 1 }, source: 'otlp:test' } }],
      'api_key:test',
    );
    expect(early.results[0]!.status).toBe('accepted');
    const retried = await send(h, k2);
    expect(retried.results.map((r) => [r.type, r.status])).toEqual([
      ['turn', 'accepted'],
      ['memory_event', 'duplicate'],
    ]);
    const at = rowsOf<{ event_id: string; turn: number | null; raw_turn: number | null }>(
      await h.db.execute(sql`select event_id, turn, (raw->>'turn')::int as raw_turn from memory_events
        where project_id = 'default' and event_id in ('ev-k1', 'ev-k2') order by event_id`),
    );
    expect(at).toEqual([
      { event_id: 'ev-k1', turn: 1, raw_turn: 1 },
      { event_id: 'ev-k2', turn: 2, raw_turn: 2 },
    ]);
    // Sent once more, nothing moves (the event is where its turn is).
    const third = await send(h, k2);
    expect(third.results.map((r) => r.status)).toEqual(['duplicate', 'duplicate']);
    expect(
      rowsOf<{ turn: number }>(
        await h.db.execute(sql`select turn from memory_events where project_id = 'default' and event_id = 'ev-k2'`),
      ),
    ).toEqual([{ turn: 2 }]);
  });

  it('places an event at the number its turn span gives; at no turn when the span says no number', async () => {
    const numberedAs = (trace: string, turn: { intValue: number } | { stringValue: string }) => {
      const body = invocation(trace, 300, trace);
      const root = body.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
      root.attributes.push({ key: 'mnemoscope.turn', value: turn } as (typeof root.attributes)[number]);
      root.attributes.push(s('mnemoscope.ccs', '{"semantic_gist": ["a gist"]}'));
      return body;
    };
    const r = await send(h, numberedAs('n40', { intValue: 40 }), numberedAs('nbad', { stringValue: 'forty' }));
    // The span with no number is refused by the mapping (never sent on); both events are stored.
    expect(r.results.map((x) => [x.type, x.status])).toEqual([
      ['turn', 'accepted'],
      ['memory_event', 'accepted'],
      ['memory_event', 'accepted'],
    ]);
    const at = rowsOf<{ event_id: string; session_id: string | null; turn: number | null }>(
      await h.db.execute(sql`select event_id, session_id, turn from memory_events
        where project_id = 'default' and event_id in ('ev-n40', 'ev-nbad') order by event_id`),
    );
    expect(at).toEqual([
      { event_id: 'ev-n40', session_id: 'conv', turn: 40 },
      { event_id: 'ev-nbad', session_id: null, turn: null },
    ]);
  });
});
