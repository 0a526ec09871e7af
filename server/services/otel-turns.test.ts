import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@/server/db';
import { otlpToEnvelopes } from '@/lib/otel/otlp';
import { DRIVERS, freshDb } from '@/server/test/db';
import { exportSession } from './sessions';
import { ingestOtel } from './otel-turns';

const s = (key: string, v: string) => ({ key, value: { stringValue: v } });
/** One agent invocation (a whole trace: invoke_agent with a chat below it), started at second `at`. */
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
    expect(first.results.map((r) => r.status)).toEqual(['accepted', 'accepted']);
    expect(await stored(h)).toEqual([
      [1, 'first'],
      [2, 'second'],
    ]);
    const again = await send(h, invocation('t1', 10, 'first'));
    expect(again.results.map((r) => r.status)).toEqual(['duplicate']);
    await send(h, invocation('t3', 30, 'third'));
    expect((await stored(h)).map(([n]) => n)).toEqual([1, 2, 3]);
  });

  it('gives two writers at once distinct numbers, losing no turn', async () => {
    const runs = await Promise.all(
      Array.from({ length: 6 }, (_, k) => send(h, invocation(`c${k}`, 100 + k, `concurrent ${k}`))),
    );
    expect(runs.flatMap((r) => r.results.map((x) => x.status))).toEqual(Array(6).fill('accepted'));
    const turns = await stored(h);
    expect(turns.map(([n]) => n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(turns.filter(([, q]) => String(q).startsWith('concurrent')).length).toBe(6);
  });
});
