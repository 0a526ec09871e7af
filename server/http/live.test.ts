import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const { enterApp, leaveApp } = await import('@/server/test/in-process');
const { ready } = await import('@/server/bootstrap');
const { ingest } = await import('@/server/services/ingest');
const liveRoute = await import('@/app/api/sessions/[id]/live/route');
const saved = enterApp();

const turn = (n: number) => ({
  ok: true as const,
  value: { type: 'turn', data: { session_id: 'streamed', agent: 'a', turn: n, input: 'i', output: 'o', ccs: {} } },
});

/** Reads the stream until `count` events have come, or the time is up. */
async function events(reader: ReadableStreamDefaultReader<Uint8Array>, count: number, ms = 5000) {
  const out: { event: string; data: string }[] = [];
  let text = '';
  const dec = new TextDecoder();
  const until = Date.now() + ms;
  while (out.length < count && Date.now() < until) {
    const r = await Promise.race([
      reader.read(),
      new Promise<null>((res) => setTimeout(() => res(null), until - Date.now())),
    ]);
    if (!r || r.done) break;
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

  it('answers 404 for a session that does not exist', async () => {
    const res = await get('nope');
    expect(res.status).toBe(404);
  });
});
