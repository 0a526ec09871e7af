import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '@/server/db';

const { enterApp, leaveApp } = await import('@/server/test/in-process');
const { ready } = await import('@/server/bootstrap');
const { ingest } = await import('@/server/services/ingest');
const liveRoute = await import('@/app/api/sessions/[id]/live/route');
const { decideProposal } = await import('@/server/services/curation-decisions');
const { onTurnEvents } = await import('@/server/services/live');
const saved = enterApp();

const turn = (n: number) => ({
  ok: true as const,
  value: { type: 'turn', data: { session_id: 'streamed', agent: 'a', turn: n, input: 'i', output: 'o', ccs: {} } },
});

const memoryEvent = (n: number, over: Record<string, unknown>) => ({
  ok: true as const,
  value: {
    type: 'memory_event',
    data: {
      event_id: `memevt_live_${String(n).padStart(4, '0')}`,
      timestamp: '2026-11-28T10:00:00Z',
      source_agent: 'a',
      task_id: 'T-1',
      memory_kind: 'fact',
      content: `Live stream fact number ${n}: the staging cluster has ${n * 3} nodes.`,
      suggested_scope: 'team_memory',
      sensitivity: 'internal',
      confidence: 'high',
      evidence_refs: [`commit:${n}abc1234`],
      ttl: 'durable',
      ...over,
    },
  },
});

// A read that a time limit gave up on is still under way: the next call takes its chunk rather than losing it.
const pending = new WeakMap<ReadableStreamDefaultReader<Uint8Array>, Promise<ReadableStreamReadResult<Uint8Array>>>();

/** Reads the stream until `count` events have come, or the time is up. */
async function events(reader: ReadableStreamDefaultReader<Uint8Array>, count: number, ms = 5000) {
  const out: { event: string; data: string }[] = [];
  let text = '';
  const dec = new TextDecoder();
  const until = Date.now() + ms;
  while (out.length < count && Date.now() < until) {
    const read = pending.get(reader) ?? reader.read();
    pending.set(reader, read);
    const r = await Promise.race([read, new Promise<null>((res) => setTimeout(() => res(null), until - Date.now()))]);
    if (!r) break;
    pending.delete(reader);
    if (r.done) break;
    text += dec.decode(r.value);
    let end: number;
    while ((end = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data !== undefined) out.push({ event, data });
    }
  }
  return out;
}

describe('GET /api/sessions/[id]/live', () => {
  beforeAll(async () => {
    const h = await ready();
    await ingest(h.db, 'default', [turn(1)], 'test');
  });
  afterAll(() => leaveApp(saved));

  const get = (id: string, signal?: AbortSignal) =>
    liveRoute.GET(new Request(`http://localhost/api/sessions/${id}/live`, { signal }), {
      params: Promise.resolve({ id }),
    });

  it('sends the stamp at once and again when turns arrive, as a stream of events', async () => {
    const stop = new AbortController();
    const res = await get('streamed', stop.signal);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toContain('no-transform');
    const reader = res.body!.getReader();
    const [first] = await events(reader, 1);
    expect(first).toMatchObject({ event: 'stamp' });
    expect(first!.data).toMatch(/^1\|/);
    const h = await ready();
    await ingest(h.db, 'default', [turn(2), turn(3)], 'test');
    const [next] = await events(reader, 1);
    expect(next!.data).toMatch(/^3\|/);
    // A duplicate changes nothing, so nothing is sent.
    await ingest(h.db, 'default', [turn(3)], 'test');
    expect(await events(reader, 1, 800)).toEqual([]);
    stop.abort();
    await reader.cancel();
  });

  it('says when memory events naming its turns are stored and when they are decided; not for others', async () => {
    const stop = new AbortController();
    const reader = (await get('streamed', stop.signal)).body!.getReader();
    // Each connection says the events may have changed while no stream listened (the page fetches them again).
    expect((await events(reader, 2)).map((e) => e.event)).toEqual(['stamp', 'events']);
    const h = await ready();
    // The store itself tells (not only the curator's decision after it): two notices on the channel.
    let notices = 0;
    const off = await onTurnEvents(h, 'default', 'streamed', () => notices++);
    // Another session's turn, or this session with no turn: not this page's news.
    await ingest(h.db, 'default', [memoryEvent(1, { session_id: 'other', turn: 1 })], 'test');
    await ingest(h.db, 'default', [memoryEvent(2, { session_id: 'streamed' })], 'test');
    expect(await events(reader, 1, 800)).toEqual([]);
    // Stored (a later request than its turn's), then proposed by the curator: one notice or two, read in a burst.
    const { results, curation } = await ingest(
      h.db,
      'default',
      [memoryEvent(3, { session_id: 'streamed', turn: 2 })],
      'test',
    );
    expect(results[0]!.status).toBe('accepted');
    expect(curation).toMatchObject({ proposed: 1 });
    const stored = await events(reader, 2, 1500);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((e) => e.event === 'events')).toBe(true);
    await expect.poll(() => notices).toBe(2);
    off();
    // A reviewer decides it: the page hears of it.
    const [proposal] = rowsOf<{ id: string }>(
      await h.db.execute(sql`select id from proposals where event_id = 'memevt_live_0003'`),
    );
    await decideProposal(h.db, 'default', proposal!.id, { action: 'reject', reason: 'not durable' }, 'rev');
    expect(await events(reader, 1)).toEqual([{ event: 'events', data: expect.stringMatching(/^\d+$/) }]);
    stop.abort();
    await reader.cancel();
  });

  it('answers 404 for a session that does not exist', async () => {
    const res = await get('nope');
    expect(res.status).toBe(404);
  });
});
