import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { otlpToEnvelopes } from '@/lib/otel/otlp';
import { rowsOf, type DbHandle } from '@/server/db';
import { DRIVERS, freshDb } from '@/server/test/db';
import { otelPendingSpans } from '@/server/db/schema/sessions';
import { exportSession } from './sessions';
import { ingestTraces, MAX_WAITING, startPendingSweeper, sweepPendingSpans } from './otel-pending';
import { ingestOtel } from './otel-turns';

const s = (key: string, v: string) => ({ key, value: { stringValue: v } });
const i = (key: string, v: number) => ({ key, value: { intValue: String(v) } });
const at = (sec: number) => String((1763715600 + sec) * 1e9);
const request = (spans: unknown[]) => ({
  resourceSpans: [{ resource: { attributes: [s('service.name', 'bot')] }, scopeSpans: [{ spans }] }],
});
/** The calls of one invocation (a chat, a tool below it) under the span `${trace}-root`, as an early batch has them. */
const calls = (trace: string, conv = 'split') => [
  {
    traceId: trace,
    spanId: `${trace}-chat`,
    parentSpanId: `${trace}-root`,
    name: 'chat',
    startTimeUnixNano: at(1),
    endTimeUnixNano: at(2),
    attributes: [
      s('gen_ai.operation.name', 'chat'),
      s('gen_ai.conversation.id', conv),
      i('gen_ai.usage.input_tokens', 120),
      s('gen_ai.input.messages', JSON.stringify([{ role: 'user', content: `question of ${trace}` }])),
    ],
  },
  {
    traceId: trace,
    spanId: `${trace}-tool`,
    parentSpanId: `${trace}-chat`,
    name: 'execute_tool',
    startTimeUnixNano: at(2),
    endTimeUnixNano: at(3),
    attributes: [s('gen_ai.operation.name', 'execute_tool'), s('gen_ai.tool.name', 'search')],
  },
];
const root = (trace: string, conv = 'split') => ({
  traceId: trace,
  spanId: `${trace}-root`,
  name: 'invoke_agent',
  startTimeUnixNano: at(0),
  endTimeUnixNano: at(4),
  attributes: [s('gen_ai.operation.name', 'invoke_agent'), s('gen_ai.conversation.id', conv)],
});

describe.each(DRIVERS)('traces split across exports, on %s', (driver) => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb(driver);
  });
  afterAll(() => h?.close());

  const send = (body: ReturnType<typeof request>) =>
    ingestTraces(h.db, 'default', body, otlpToEnvelopes(body), 'api_key:test');
  const waiting = async () =>
    rowsOf<{ span_id: string }>(await h.db.execute(sql`select span_id from otel_pending_spans order by span_id`)).map(
      (r) => r.span_id,
    );
  const turns = async (conv: string) =>
    (await exportSession(h.db, 'default', conv))
      .filter((e) => e.type === 'turn')
      .map((e) => e.data as { turn: number; input: string; usage?: Record<string, number>; calls?: unknown[] });

  it('keeps the calls that come first; the invocation span that comes later gets them as its calls', async () => {
    const early = await send(request(calls('t1')));
    expect(early.mapped.pending).toHaveLength(2);
    expect(early.summary.accepted).toBe(0);
    expect(await waiting()).toEqual(['t1-chat', 't1-tool']);
    // The same early batch again (an exporter's retry) keeps them once.
    await send(request(calls('t1')));
    expect(await waiting()).toEqual(['t1-chat', 't1-tool']);

    const late = await send(request([root('t1')]));
    expect(late.summary.accepted).toBe(1);
    expect(await waiting()).toEqual([]);
    const [turn] = await turns('split');
    expect(turn).toMatchObject({ turn: 1, input: 'question of t1', usage: { input_tokens: 120, llm_calls: 1 } });
    expect(turn!.calls).toHaveLength(2);
  });

  it('keeps a waiting span redacted and without NULs, and its first time when its trace is sent again', async () => {
    const odd = calls('t9', 'odd');
    (odd[0]!.attributes as { key: string; value: { stringValue: string } }[]).push(
      s('gen_ai.output.messages', 'key sk-live-abcdefghijklmnopqrstuvwx\u0000 done'),
    );
    expect((await send(request(odd))).mapped.pending).toHaveLength(2);
    const stored = async () =>
      rowsOf<{ span: unknown; at: string }>(
        await h.db.execute(
          sql`select span, received_at::text as at from otel_pending_spans where trace_id = 't9' order by span_id`,
        ),
      );
    const [first] = await stored();
    const text = JSON.stringify(first!.span);
    expect(text).not.toContain('abcdefghijklmnop');
    expect(text).not.toContain('\\u0000');
    // Another batch of the same trace (still without its turn) takes the spans and puts them back with their time.
    await send(request([{ ...calls('t9', 'odd')[1]!, spanId: 't9-tool-2' }]));
    const again = await stored();
    expect(again).toHaveLength(3);
    expect(again[0]!.at).toBe(first!.at);
    await h.db.execute(sql`delete from otel_pending_spans where trace_id = 't9'`);
  });

  it("keeps a waiting span's ids and times as sent, though digits can pass for a card number", async () => {
    // Two chats a second apart, each waiting in a batch of its own, under a span whose id is a card's test number.
    const chat = (k: number, start: string, end: string) => ({
      traceId: 't11',
      spanId: `t11-chat${k}`,
      parentSpanId: '4111111111111111',
      name: 'chat',
      startTimeUnixNano: start,
      endTimeUnixNano: end,
      attributes: [
        s('gen_ai.operation.name', 'chat'),
        s('gen_ai.input.messages', JSON.stringify([{ role: 'user', content: `question ${k}` }])),
        s('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', content: `answer ${k}` }])),
      ],
    });
    await send(request([chat(1, '1795690115508000000', '1795690116007000000')]));
    await send(request([chat(2, '1795690116508000000', '1795690117007000000')]));
    const [kept] = rowsOf<{ start: string; parent: string }>(
      await h.db.execute(
        sql`select span->>'startTimeUnixNano' as start, span->>'parentSpanId' as parent
              from otel_pending_spans where span_id = 't11-chat2'`,
      ),
    );
    expect(kept).toEqual({ start: '1795690116508000000', parent: '4111111111111111' });
    const top = { ...root('t11', 'luhn'), spanId: '4111111111111111', startTimeUnixNano: '1795690115507000000' };
    await send(request([{ ...top, endTimeUnixNano: '1795690117107000000' }]));
    const [turn] = await turns('luhn');
    expect([turn!.input, (turn as unknown as { output: string }).output]).toEqual(['question 1', 'answer 2']);
    expect((turn!.calls as { start_ms: number }[]).map((c) => c.start_ms)).toEqual([1, 1001]);
  });

  it('refuses a span whose id holds a NUL by name, and stores the rest of its request', async () => {
    const body = request([
      { ...calls('t12', 'nul')[0]!, spanId: 'c\u0000hat' },
      { ...root('t12', 'nul'), traceId: 'tr\u0000ace' },
      root('t13', 'nul'),
    ]);
    const mapped = otlpToEnvelopes(body);
    expect(mapped.errors.map((e) => e.source)).toEqual([
      'resourceSpans[0].scopeSpans[0].spans[0].spanId',
      'resourceSpans[0].scopeSpans[0].spans[1].traceId',
    ]);
    expect((await ingestTraces(h.db, 'default', body, mapped, 'api_key:test')).summary.accepted).toBe(1);
    expect((await turns('nul')).map((t) => t.turn)).toEqual([1]);
  });

  it('places calls whose invocation never came as turns of their own once they have waited', async () => {
    await send(request(calls('t2', 'orphans')));
    expect(await waiting()).toEqual(['t2-chat', 't2-tool']);
    expect(await sweepPendingSpans(h.db, 60_000)).toBe(0); // not yet: they have waited less than a minute
    expect(await sweepPendingSpans(h.db, 0)).toBe(2);
    expect(await waiting()).toEqual([]);
    expect((await turns('orphans')).map((t) => [t.turn, t.input, t.calls?.length])).toEqual([[1, 'question of t2', 1]]);
  });

  it('sweeps on its own, with no more traces coming: calls that waited long enough become their turn', async () => {
    await send(request(calls('t3', 'quiet')));
    // As if they had waited three minutes.
    await h.db.execute(sql`update otel_pending_spans set received_at = now() - interval '3 minutes'`);
    const stop = startPendingSweeper(h.db, 50);
    try {
      // The sweep takes the spans before it stores the turn: wait for the turn itself.
      const placed = () =>
        turns('quiet').then(
          (t) => t.length > 0,
          () => false,
        );
      for (let i = 0; i < 100 && !(await placed()); i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await stop();
    }
    expect(await waiting()).toEqual([]);
    expect((await turns('quiet')).map((t) => [t.turn, t.input])).toEqual([[1, 'question of t3']]);
  });

  it('gives calls that arrive after their turn to that turn: superseded, audited, nothing left waiting', async () => {
    expect((await send(request([root('t5', 'after')]))).summary.accepted).toBe(1);
    expect((await turns('after'))[0]).toMatchObject({ turn: 1, input: '' });
    const late = await send(request(calls('t5', 'after')));
    expect(late.summary.accepted).toBe(0);
    expect(await waiting()).toEqual([]);
    const [turn, ...more] = await turns('after');
    expect(more).toEqual([]);
    expect(turn).toMatchObject({
      turn: 1,
      input: 'question of t5',
      // Its own span's latency, stored with the turn, stays.
      usage: { input_tokens: 120, llm_calls: 1, tool_calls: 1, errors: 0, latency_ms: 4000 },
    });
    expect((turn!.calls as { name: string; start_ms: number }[]).map((c) => [c.name, c.start_ms])).toEqual([
      ['chat', 1000],
      ['execute_tool', 2000],
    ]);
    const versions = rowsOf<{ fields: string[]; by: string }>(
      await h.db.execute(
        sql`select fields, superseded_by as by from record_versions
            where record_id = 'after/1' and record_type = 'turn'`,
      ),
    );
    expect(versions).toEqual([{ fields: ['input', 'footprint', 'extra'], by: 'api_key:test' }]);
    const [audit] = rowsOf<{ detail: { reason: string } }>(
      await h.db.execute(
        sql`select detail from audit_log where action = 'record.supersede' and subject_id = 'after/1'`,
      ),
    );
    expect(audit!.detail.reason).toMatch(/2 spans of its trace arrived after it/);
    // The exporter sends the calls again (a timeout, the first answer lost): the turn holds them once.
    await send(request(calls('t5', 'after')));
    expect(await waiting()).toEqual([]);
    const [again] = await turns('after');
    expect([again!.calls?.length, again!.usage?.input_tokens]).toEqual([2, 120]);
  });

  it('gives a turn the calls that arrive after it under one of its calls (a chain inside the agent)', async () => {
    // The invocation and a chain inside it come first; the chain's chat and the chat's tool come after.
    const chain = {
      traceId: 't10',
      spanId: 't10-chain',
      parentSpanId: 't10-root',
      name: 'plan_chain',
      startTimeUnixNano: at(0.5),
      endTimeUnixNano: at(3.5),
      attributes: [],
    };
    const late = calls('t10', 'nested').map((c) => (c.spanId === 't10-chat' ? { ...c, parentSpanId: 't10-chain' } : c));
    await send(request([root('t10', 'nested'), chain]));
    expect((await turns('nested')).map((t) => t.calls?.length)).toEqual([1]);
    await send(request(late));
    expect(await waiting()).toEqual([]);
    const [turn, ...more] = await turns('nested');
    expect(more).toEqual([]);
    expect(turn).toMatchObject({ input: 'question of t10', usage: { input_tokens: 120, llm_calls: 1, tool_calls: 1 } });
    expect((turn!.calls as { name: string }[]).map((c) => c.name)).toEqual(['plan_chain', 'chat', 'execute_tool']);
  });

  it('two requests of one trace at once (its calls, its invocation) end as one turn with all its calls', async () => {
    const traces = Array.from({ length: 12 }, (_, k) => `par${k}`);
    await Promise.all(
      traces.flatMap((t) => [send(request(calls(t, `conc-${t}`))), send(request([root(t, `conc-${t}`)]))]),
    );
    expect(await waiting()).toEqual([]);
    for (const t of traces)
      expect((await turns(`conc-${t}`)).map((x) => [x.turn, x.input, x.calls?.length])).toEqual([
        [1, `question of ${t}`, 2],
      ]);
  });

  it('the sweep gives waiting calls whose turn is stored to it, not a turn of their own', async () => {
    await send(request([root('t6', 'swept')]));
    // Kept as a request that missed the turn would have kept them (its own look afterwards failed).
    const mapped = otlpToEnvelopes(request(calls('t6', 'swept')));
    await h.db.insert(otelPendingSpans).values(
      mapped.pending.map((p) => ({
        projectId: 'default',
        traceId: p.traceId,
        spanId: p.spanId,
        span: p.span,
        resource: p.resource,
        receivedAt: sql`now() - interval '3 minutes'`,
      })),
    );
    expect(await sweepPendingSpans(h.db, 60_000)).toBe(2);
    expect(await waiting()).toEqual([]);
    expect((await turns('swept')).map((x) => [x.turn, x.input, x.calls?.length])).toEqual([[1, 'question of t6', 2]]);
  });

  it('a sweep places every trace that has waited, not one batch of them', async () => {
    const many = Array.from({ length: 250 }, (_, k) => calls(`sw${k}`, 'many')).flat();
    expect((await send(request(many))).mapped.pending).toHaveLength(500);
    await h.db.execute(sql`update otel_pending_spans set received_at = now() - interval '3 minutes'`);
    expect(await sweepPendingSpans(h.db)).toBe(500);
    expect(await waiting()).toEqual([]);
    expect(await turns('many')).toHaveLength(250);
  });

  it(`past ${MAX_WAITING} waiting spans in a project, places calls at once and says so`, async () => {
    await h.db.execute(
      sql`insert into otel_pending_spans (project_id, trace_id, span_id, span, resource)
          select 'default', 'fill' || (g / 10), 's' || g, '{}'::jsonb, '[]'::jsonb
            from generate_series(1, ${MAX_WAITING}) g`,
    );
    try {
      const r = await send(request(calls('t8', 'capped')));
      expect(r.mapped.pending).toEqual([]);
      expect(r.warning).toMatch(/^2 spans whose turn's span is not in this export were placed as turns of their own/);
      expect((await turns('capped')).map((t) => [t.turn, t.input, t.calls?.length])).toEqual([
        [1, 'question of t8', 1],
      ]);
    } finally {
      await h.db.execute(sql`delete from otel_pending_spans where trace_id like 'fill%'`);
    }
  });

  it('stores a span as one turn, even numbered twice (a retry numbered while its original was written)', async () => {
    const [envelope] = otlpToEnvelopes(request([root('r1', 'race'), ...calls('r1', 'race')])).envelopes;
    const twice = [1, 2].map((n) => ({ ...envelope!, data: { ...envelope!.data, turn: n } }));
    const r = await ingestOtel(h.db, 'default', twice, 'api_key:test');
    expect(r.results.map((x) => x.status)).toEqual(['accepted', 'duplicate']);
    expect((await turns('race')).map((t) => t.turn)).toEqual([1]);
  });
});
