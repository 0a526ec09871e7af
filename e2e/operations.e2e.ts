import { mkdtempSync, rmSync } from 'node:fs';
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
    await new Promise((r) => setTimeout(r, 200));
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
    await new Promise((r) => setTimeout(r, 300));
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow(); // no new connections
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
});
