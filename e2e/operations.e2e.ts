import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../server/test/postgres';
import { startNextServer, type NextServer } from '../server/test/next-server';

/** What an operator relies on: request ids and log lines, and a SIGTERM that loses nothing acknowledged. */
const KEY = 'ops-key-0123456789abcdef';
const SECRET_TEXT = 'the-turn-text-that-must-never-reach-a-log';
const dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-ops-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const turns = (sid: string, n: number) =>
  Array.from({ length: n }, (_, k) =>
    JSON.stringify({
      type: 'turn',
      data: {
        session_id: sid,
        agent: 'a',
        turn: k,
        input: `${SECRET_TEXT} ${k}`,
        output: 'o',
        ccs: 'constraints: a(b)',
      },
    }),
  ).join('\n');

describe('an instance as an operator runs it', () => {
  let server: NextServer;
  // A test that fails before its SIGTERM leaves no server behind.
  afterAll(() => server?.kill('SIGKILL'));
  const env = { MNEMOSCOPE_API_KEY: KEY, MNEMOSCOPE_DATA_DIR: dir, DATABASE_URL: '' };
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/v1/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, ...headers },
      body,
    });
  const logLines = () =>
    server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('gives every request an id, in its answer, its error answers and one JSON log line', async () => {
    server = await startNextServer(env, await freePort());
    const ok = await post(turns('logged', 2), { 'x-request-id': 'ops-req-1' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('ops-req-1');
    const bad = await fetch(`${server.url}/api/v1/ingest`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-key', 'x-request-id': 'no spaces allowed' },
      body: '{}',
    });
    const id = bad.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/); // an unusable id from outside is replaced
    expect((await bad.json()).requestId).toBe(id);
    const trpc = await fetch(
      `${server.url}/api/trpc/sessions.byId?input=${encodeURIComponent('{"json":{"id":"nope"}}')}`,
    );
    expect(trpc.status).toBe(404);
    expect((await trpc.json()).error.json.data.requestId).toBe(trpc.headers.get('x-request-id'));
    // A request's line is written once its answer has gone, and comes through the server's stdout.
    await expect
      .poll(() => logLines().some((l) => l.requestId === 'ops-req-1') && logLines().some((l) => l.requestId === id))
      .toBe(true);
    const lines = logLines();
    expect(lines.find((l) => l.requestId === 'ops-req-1')).toMatchObject({
      level: 'info',
      method: 'POST',
      route: '/api/v1/ingest',
      status: 200,
      project: 'default',
      records: { accepted: 2, duplicates: 0, rejected: 0 },
    });
    expect(lines.find((l) => l.requestId === id)).toMatchObject({ status: 401, route: '/api/v1/ingest' });
    expect(lines.find((l) => l.job === 'curation-backlog')).toMatchObject({ ok: true, project: 'default' });
    expect(server.output()).not.toContain(SECRET_TEXT);
    expect(server.output()).not.toContain(KEY);
  });

  it('reads bodies whole up to the limit, gzip on every route, refuses bombs and deep nesting per record', async () => {
    // 12 MB: past the 10 MB at which Next cut bodies that went through proxy.ts, below the 16 MiB limit.
    const big = Array.from({ length: 4000 }, (_, k) =>
      JSON.stringify({
        type: 'turn',
        data: { session_id: 'big-body', agent: 'a', turn: k, input: 'x'.repeat(3000), output: 'o', ccs: 'a: b(c)' },
      }),
    ).join('\n');
    expect(big.length).toBeGreaterThan(12_000_000);
    const whole = await post(big);
    expect(whole.status).toBe(200);
    expect((await whole.json()).accepted).toBe(4000);

    const send = (body: Buffer, headers: Record<string, string>, route = '/api/v1/ingest') =>
      fetch(`${server.url}${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, ...headers },
        body: new Uint8Array(body),
      });
    const gz = await send(gzipSync(turns('gzipped', 3)), { 'content-encoding': 'gzip' });
    expect(gz.status).toBe(200);
    expect((await gz.json()).accepted).toBe(3);

    // 256 MB of zeros in 250 KB of gzip, at both JSON routes: refused once 16 MiB are inflated.
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.proc.pid}/status`, 'utf8'))![1]) * 1024;
    const bomb = gzipSync(Buffer.alloc(256 * 1024 * 1024));
    const before = rss();
    for (const route of ['/api/v1/ingest', '/api/v1/otel/v1/traces']) {
      const r = await send(bomb, { 'content-encoding': 'gzip', 'content-type': 'application/json' }, route);
      expect(r.status, route).toBe(413);
      expect((await r.json()).error).toMatch(/larger than the limit of \d+ bytes once inflated/);
    }
    expect(rss() - before).toBeLessThan(200 * 1024 * 1024);
    expect((await send(Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' })).status).toBe(400);
    expect((await send(Buffer.from('[]'), { 'content-encoding': 'br' })).status).toBe(415);

    // 10,000 levels of nesting in one record: that record is refused with its path, its neighbour is stored.
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const mixed = await post(
      `{"type":"turn","data":{"session_id":"deep","agent":"a","turn":1,"input":"i","output":"o","ccs":"a: b(c)",` +
        `"extra":${deep}}}\n${turns('deep-neighbour', 1)}`,
    );
    expect(mixed.status).toBe(207);
    const results = (await mixed.json()).results;
    expect(results[0]).toMatchObject({ status: 'rejected' });
    expect(results[0].errors[0].path).toMatch(/^data\.extra\[0\]/);
    expect(results[0].errors[0].message).toBe('nested deeper than 64 levels');
    expect(results[1]).toMatchObject({ status: 'accepted' });
    // The same through tRPC (files imported in the browser), where superjson reads the input.
    const viaTrpc = await fetch(`${server.url}/api/trpc/ingest.batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body:
        `{"json":{"records":[{"type":"turn","data":{"session_id":"deep-trpc","agent":"a","turn":1,"input":"i",` +
        `"output":"o","ccs":"a: b(c)","extra":${deep}}},${turns('deep-trpc-neighbour', 1)}]}}`,
    });
    expect(viaTrpc.status).toBe(200);
    const batch = (await viaTrpc.json()).result.data.json.results;
    expect(batch.map((r: { status: string }) => r.status)).toEqual(['rejected', 'accepted']);
  }, 120_000);

  it('on SIGTERM finishes the request in flight, refuses new ones, closes the database and exits 0', async () => {
    const exited = new Promise<number | null>((r) => server.proc.on('exit', (code) => r(code)));
    // A request in flight: its headers and half its body are in when the signal comes, the rest after it.
    const body = Buffer.from(turns('drain', 4000));
    const req = http.request(`${server.url}/api/v1/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-length': body.length },
    });
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
    });
    req.write(body.subarray(0, body.length >> 1));
    await new Promise((r) => setTimeout(r, 300));
    server.proc.kill('SIGTERM');
    // No new connections once the shutdown has begun (its log line is written as the listener closes; a request
    // made before would count as in flight).
    await expect.poll(() => logLines().some((l) => l.event === 'shutdown')).toBe(true);
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
    req.end(body.subarray(body.length >> 1));
    const answer = await answered;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).accepted).toBe(4000);
    expect(await exited).toBe(0);
    expect(logLines().find((l) => l.event === 'shutdown')).toMatchObject({ signal: 'SIGTERM', inFlight: 1 });
    expect(logLines().map((l) => l.event)).toContain('stopped');
    // Everything acknowledged is there after a restart on the same data directory.
    server = await startNextServer(env, server.port);
    const exported = await fetch(`${server.url}/api/v1/sessions/drain/export`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect((await exported.text()).split('\n').filter((l) => l.startsWith('{"type":"turn"'))).toHaveLength(4000);
    server.kill();
  });

  it('on SIGTERM ends the requests that never end by themselves: a live stream and a long poll', async () => {
    server = await startNextServer(env, await freePort());
    const exited = new Promise<number | null>((r) => server.proc.on('exit', (code) => r(code)));
    // A memory event that waits for a reviewer (a user's memory needs approval), and an agent waiting for the decision.
    const event = {
      type: 'memory_event',
      data: {
        event_id: 'ev-waiting-review',
        source_agent: 'a',
        kind: 'preference',
        content: 'The on-call lead prefers pages by phone, not chat.',
        suggested_scope: 'user_identity',
        confidence: 'high',
        timestamp: '2026-11-28T10:00:00Z',
      },
    };
    expect((await post(`${turns('live-tail', 2)}\n${JSON.stringify(event)}`)).status).toBe(200);
    const poll = fetch(`${server.url}/api/v1/memory-events/ev-waiting-review?wait=30`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    // A replay page's live stream: its first stamp comes at once.
    const stream = await fetch(`${server.url}/api/sessions/live-tail/live`);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: stamp');
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    server.proc.kill('SIGTERM');
    // The poll answers with what is known (not final: the agent polls again, through the proxy to another instance),
    // the stream ends, and the instance stops without waiting out its budget (10 s).
    const answer = await poll;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ event_id: 'ev-waiting-review', final: false, disposition: 'proposed' });
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(await exited).toBe(0);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(logLines().some((l) => l.event === 'shutdown' && String(l.msg).includes('still running'))).toBe(false);
  });
});
