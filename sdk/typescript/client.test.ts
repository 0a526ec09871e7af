import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IngestResult } from '@/lib/ingest/contract';
import { Mnemoscope, recordLabel, type MnemoscopeOptions, type RejectedRecord } from './index';

type Reply = (
  records: { type: string; data: Record<string, unknown> }[],
) => Response | Promise<Response> | 'down' | 'hang';

/**
 * A scripted ingest endpoint: each request takes the next reply (the last one repeats), and stores what a 200 accepts.
 */
function fakeServer(...replies: Reply[]) {
  const stored = new Set<string>();
  const requests: { size: number; at: number }[] = [];
  const keyOf = (r: { type: string; data: Record<string, unknown> }) =>
    `${r.type}:${r.data.id ?? r.data.event_id ?? `${r.data.session_id}/${r.data.turn}`}`;
  const ok = (records: { type: string; data: Record<string, unknown> }[]) => {
    const results: IngestResult[] = records.map((r, index) => {
      const k = keyOf(r);
      const dup = stored.has(k);
      stored.add(k);
      return { index, status: dup ? 'duplicate' : 'accepted', type: r.type as 'turn', id: k };
    });
    return Response.json({ results });
  };
  const fetchImpl = (async (_url: string, init: RequestInit) => {
    const records = String(init.body)
      .split('\n')
      .map((l) => JSON.parse(l));
    requests.push({ size: records.length, at: Date.now() });
    const reply = replies[Math.min(requests.length - 1, replies.length - 1)]!(records);
    const r = await reply;
    if (r === 'down')
      throw Object.assign(new TypeError('fetch failed'), { cause: new Error('connect ECONNREFUSED 127.0.0.1:3000') });
    if (r === 'hang')
      return new Promise<Response>((_, reject) =>
        init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    return r;
  }) as typeof fetch;
  return { fetchImpl, stored, requests, ok };
}

const clients: Mnemoscope[] = [];
function client(fetchImpl: typeof fetch, o: MnemoscopeOptions = {}) {
  const c = new Mnemoscope({
    url: 'http://mnemo.test',
    apiKey: 'k',
    fetch: fetchImpl,
    flushOnExit: false,
    flushIntervalMs: 10,
    backoffMs: { base: 5, max: 20 },
    onError: () => {},
    ...o,
  });
  clients.push(c);
  return c;
}
afterEach(async () => {
  for (const c of clients.splice(0)) await c.shutdown(0);
});

const turns = (c: Mnemoscope, n: number, session = 's1') => {
  const s = c.acc({ id: session, agent: 'bot' });
  for (let i = 0; i < n; i++) s.turn({ input: `q${i}`, output: `a${i}`, ccs: { goal_orientation: [`step_${i}`] } });
};

describe('Mnemoscope client', () => {
  it('passes on a stored record’s warnings (a slip for a known field), naming the record', async () => {
    const warning = { path: 'data.halucination', message: 'not a field of a turn; did you mean hallucination?' };
    const answer = (async () =>
      Response.json({
        results: [{ index: 0, status: 'accepted', type: 'turn', id: 's1/1', warnings: [warning] }],
      })) as unknown as typeof fetch;
    const seen: unknown[] = [];
    const c = client(answer, { onWarning: (w) => seen.push(w) });
    const data = { session_id: 's1', agent: 'bot', turn: 1, input: 'q', output: 'a', ccs: {}, halucination: 0.9 };
    c.record({ type: 'turn', data });
    await c.flush();
    expect(c.stats().accepted).toBe(1);
    expect(seen).toEqual([{ envelope: { type: 'turn', data }, warnings: [warning] }]);
    // By default, one warning naming the record and the field.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const quiet = client(answer);
      quiet.record({ type: 'turn', data });
      await quiet.flush();
      quiet.record({ type: 'turn', data: { ...data, turn: 2 } });
      await quiet.flush();
      // Once per field, not once per record.
      expect(warn.mock.calls.map((a) => a[0])).toEqual([
        'mnemoscope: turn s1/1 stored, but data.halucination: not a field of a turn; did you mean hallucination? ' +
          '(said once per field)',
      ]);
    } finally {
      warn.mockRestore();
    }
  });

  it('counts a conflict and reports it; with supersede it asks the server to replace the stored version', async () => {
    const urls: string[] = [];
    const answer = (status: 'conflict' | 'superseded') =>
      (async (url: string) => {
        urls.push(url);
        return Response.json(
          {
            results: [
              { index: 0, status, type: 'turn', id: 's1/1', fields: ['output'], message: 'another version is kept' },
            ],
          },
          { status: status === 'conflict' ? 207 : 200 },
        );
      }) as unknown as typeof fetch;
    const seen: RejectedRecord[] = [];
    const kept = client(answer('conflict'), { onRejected: (r) => seen.push(r) });
    kept.record({ type: 'turn', data: { session_id: 's1', agent: 'bot', turn: 1, input: 'q', output: 'a', ccs: {} } });
    await kept.flush();
    expect(kept.stats()).toMatchObject({ conflicts: 1, rejected: 0, accepted: 0 });
    expect(seen[0]!.errors).toEqual([{ path: '', message: 'another version is kept' }]);
    const replacing = client(answer('superseded'), { supersede: true });
    replacing.record({
      type: 'turn',
      data: { session_id: 's1', agent: 'bot', turn: 1, input: 'q', output: 'b', ccs: {} },
    });
    await replacing.flush();
    expect(replacing.stats()).toMatchObject({ superseded: 1, conflicts: 0 });
    expect(urls).toEqual(['http://mnemo.test/api/v1/ingest', 'http://mnemo.test/api/v1/ingest?supersede=true']);
  });

  it('sends each record as it was when recorded, though the agent changes its objects after', async () => {
    const srv = fakeServer((r) => srv.ok(r));
    const sent: unknown[] = [];
    const c = client((async (url: string, init: RequestInit) => {
      for (const l of String(init.body).split('\n')) {
        const r = JSON.parse(l) as { type: string; data: { ccs: unknown } };
        if (r.type === 'turn') sent.push(r.data.ccs);
      }
      return srv.fetchImpl(url, init);
    }) as typeof fetch);
    const s = c.acc({ id: 's-mut', agent: 'bot' });
    const ccs: Record<string, string[]> = { goal_orientation: ['triage(queue)'] };
    s.turn({ input: 'q1', output: 'a1', ccs });
    ccs.goal_orientation = ['verify(throughput)'];
    ccs.constraints = ['no_restart(db)'];
    s.turn({ input: 'q2', output: 'a2', ccs });
    const cyclic: Record<string, unknown> = { goal_orientation: ['x'] };
    cyclic.self = cyclic;
    const refused: RejectedRecord[] = [];
    const strict = client(srv.fetchImpl, { onRejected: (r) => refused.push(r) });
    // Not validated here, a record that cannot be JSON is still refused, naming data.
    const loose = client(srv.fetchImpl, { validate: false, onRejected: (r) => refused.push(r) });
    expect(
      loose.record({
        type: 'turn',
        data: { session_id: 's', agent: 'a', turn: 1, input: 'i', output: 'o', ccs: cyclic as never },
      }),
    ).toBe(false);
    expect(refused[0]!.errors[0]).toMatchObject({
      path: 'data',
      message: expect.stringMatching(/^cannot be sent as JSON/),
    });
    // A number that is none is refused by name, as before the copy (JSON would have made NaN a null).
    expect(
      strict.record({
        type: 'turn',
        data: { session_id: 's', agent: 'a', turn: 2, input: 'i', output: 'o', ccs: {}, hallucination: NaN },
      }),
    ).toBe(false);
    expect(refused[1]!.errors[0]!.path).toBe('data.hallucination');
    await c.flush();
    expect(sent).toEqual([
      { goal_orientation: ['triage(queue)'] },
      { goal_orientation: ['verify(throughput)'], constraints: ['no_restart(db)'] },
    ]);
  });

  it('sends records in background batches of batchSize, in order', async () => {
    const srv = fakeServer((r) => srv.ok(r));
    const c = client(srv.fetchImpl, { batchSize: 100 });
    turns(c, 249);
    await c.flush();
    expect(srv.requests.map((r) => r.size)).toEqual([100, 100, 50]);
    expect(c.stats()).toMatchObject({ accepted: 250, duplicates: 0, dropped: 0, buffered: 0 });
  });

  it('annotate() sends a judge’s score with a made-up id, and a re-sent id is a duplicate', async () => {
    const srv = fakeServer((r) => srv.ok(r));
    const c = client(srv.fetchImpl);
    const score = { target: 'turn', session_id: 's1', turn: 2, name: 'faithfulness', value: 0.8 } as const;
    const id = c.annotate(score);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    c.annotate({ ...score, id });
    await c.flush();
    expect(c.stats()).toMatchObject({ accepted: 1, duplicates: 1 });
  });

  it('never blocks or throws while the server is down, then delivers everything once it is back', async () => {
    let up = false;
    const srv = fakeServer((r) => (up ? srv.ok(r) : 'down'));
    const c = client(srv.fetchImpl, { maxAttempts: 1000 });
    turns(c, 300);
    // record() only queues: nothing was sent while the 301 records were handed over.
    expect(srv.requests).toHaveLength(0);
    expect(c.stats().buffered).toBe(301);
    await vi.waitFor(() => expect(c.stats().retries).toBeGreaterThan(2));
    expect(srv.stored.size).toBe(0);
    expect(c.stats().lastError).toMatch(/cannot reach http:\/\/mnemo\.test: connect ECONNREFUSED/);
    up = true;
    await c.flush();
    expect(srv.stored.size).toBe(301);
    expect(c.stats()).toMatchObject({ accepted: 301, dropped: 0 });
  });

  it(
    'is idempotent across retries: an answer lost after the server stored the batch ends in duplicates, not ' +
      'copies',
    async () => {
      const srv = fakeServer(
        (r) => {
          srv.ok(r); // stored, but the answer never arrives
          return 'down';
        },
        (r) => srv.ok(r),
      );
      const c = client(srv.fetchImpl);
      turns(c, 9);
      await c.flush();
      expect(srv.requests).toHaveLength(2);
      expect(c.stats()).toMatchObject({ accepted: 0, duplicates: 10, dropped: 0 });
      expect(srv.stored.size).toBe(10);
    },
  );

  it('keeps at most maxBuffer records while the server is unreachable, dropping the oldest, counted', async () => {
    const srv = fakeServer(() => 'down');
    const c = client(srv.fetchImpl, { maxBuffer: 100, maxAttempts: 1000, batchSize: 10 });
    turns(c, 249);
    expect(c.stats().buffered).toBe(100);
    expect(c.stats().dropped).toBe(150);
    expect(c.stats().lastError).toMatch(/buffer full \(100 records\)/);
  });

  it('gives up on a batch after maxAttempts, with backoff between tries', async () => {
    const srv = fakeServer(() => new Response('upstream exploded', { status: 502 }));
    const c = client(srv.fetchImpl, { maxAttempts: 4, backoffMs: { base: 20, max: 40 } });
    turns(c, 4);
    await c.flush();
    expect(srv.requests).toHaveLength(4);
    expect(c.stats()).toMatchObject({ dropped: 5, retries: 3, accepted: 0 });
    expect(c.stats().lastError).toMatch(
      /502 from http:\/\/mnemo\.test\/api\/v1\/ingest: upstream exploded; dropped 5 record\(s\) after 4 attempts/,
    );
  });

  it('times out a slow server and retries', async () => {
    const srv = fakeServer(
      () => 'hang',
      (r) => srv.ok(r),
    );
    const c = client(srv.fetchImpl, { timeoutMs: 50 });
    turns(c, 2);
    await c.flush();
    expect(srv.requests).toHaveLength(2);
    expect(c.stats()).toMatchObject({ accepted: 3, retries: 1 });
  });

  it('waits as long as a 429 Retry-After asks', async () => {
    const srv = fakeServer(
      () =>
        new Response(JSON.stringify({ error: 'rate limit', retryAfterSeconds: 1 }), {
          status: 429,
          headers: { 'retry-after': '1' },
        }),
      (r) => srv.ok(r),
    );
    const c = client(srv.fetchImpl, { backoffMs: { base: 5, max: 5000 } });
    const timers = vi.spyOn(globalThis, 'setTimeout');
    turns(c, 1);
    await c.flush();
    // The wait before the retry is the server's 1 s, not the 5 ms backoff.
    const waits = timers.mock.calls.map(([, ms]) => ms ?? 0);
    timers.mockRestore();
    expect(waits).toContain(1000);
    expect(c.stats().accepted).toBe(2);
  });

  it('reports records a 207 rejects, with their field errors, and does not resend the batch', async () => {
    const srv = fakeServer((records) =>
      Response.json(
        {
          results: records.map((r, index) =>
            r.type === 'turn' && r.data.turn === 2
              ? { index, status: 'rejected', errors: [{ path: 'data.ccs', message: 'too large' }] }
              : { index, status: 'accepted', type: r.type, id: String(index) },
          ),
        },
        { status: 207 },
      ),
    );
    const rejected: RejectedRecord[] = [];
    const c = client(srv.fetchImpl, { onRejected: (r) => rejected.push(r) });
    turns(c, 3);
    await c.flush();
    expect(srv.requests).toHaveLength(1);
    expect(c.stats()).toMatchObject({ accepted: 3, rejected: 1 });
    expect(rejected).toEqual([
      {
        by: 'server',
        envelope: expect.objectContaining({ type: 'turn', data: expect.objectContaining({ turn: 2 }) }),
        errors: [{ path: 'data.ccs', message: 'too large' }],
      },
    ]);
  });

  it('splits a batch the server finds too large', async () => {
    const srv = fakeServer((r) =>
      r.length > 30
        ? new Response(JSON.stringify({ error: 'body is larger than the limit' }), { status: 413 })
        : srv.ok(r),
    );
    const c = client(srv.fetchImpl, { batchSize: 100 });
    turns(c, 99);
    await c.flush();
    expect(srv.stored.size).toBe(100);
    expect(srv.requests.map((r) => r.size)).toEqual([100, 50, 25, 25, 50, 25, 25]);
  });

  it('drops a batch the server refuses for its key, and says so', async () => {
    const srv = fakeServer(
      () => new Response(JSON.stringify({ error: 'unknown or revoked API key' }), { status: 401 }),
    );
    const c = client(srv.fetchImpl);
    turns(c, 1);
    await c.flush();
    expect(srv.requests).toHaveLength(1);
    expect(c.stats()).toMatchObject({ dropped: 2, retries: 0 });
    expect(c.stats().lastError).toMatch(/401 .*unknown or revoked API key; dropped 2/);
  });

  it('refuses an invalid record before sending, naming the field, without throwing', async () => {
    const srv = fakeServer((r) => srv.ok(r));
    const rejected: RejectedRecord[] = [];
    const c = client(srv.fetchImpl, { onRejected: (r) => rejected.push(r) });
    expect(
      c.record({ type: 'turn', data: { session_id: 's', agent: 'a', turn: -1, input: '', output: '', ccs: 'x' } }),
    ).toBe(false);
    expect(
      c
        .curator({ sourceAgent: 'w', taskId: 't' })
        .emit({ memory_kind: 'fact', content: '', suggested_scope: 'project' }),
    ).toMatch(/^memevt_/);
    await c.flush();
    expect(srv.requests).toHaveLength(0);
    expect(rejected.map((r) => [r.by, r.errors[0]!.path])).toEqual([
      ['local', 'data.turn'],
      ['local', expect.stringMatching(/^data/)],
    ]);
    expect(c.stats().invalid).toBe(2);
    // Each named as the server's answers name it (the default warning says it, with the fields).
    expect(rejected.map((r) => recordLabel(r.envelope))).toEqual([
      'turn s/-1',
      expect.stringMatching(/^memory_event memevt_/),
    ]);
  });

  it('says which server it could not reach when asked for a decision, not only "fetch failed"', async () => {
    const refused = (async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      });
    }) as unknown as typeof fetch;
    await expect(client(refused).decision('evt-1')).rejects.toThrow(
      'decision of evt-1: cannot reach http://mnemo.test (ECONNREFUSED)',
    );
  });

  it('survives a callback that throws', async () => {
    const srv = fakeServer(() => new Response('{"error":"bad"}', { status: 400 }));
    const c = client(srv.fetchImpl, {
      onRejected: () => {
        throw new Error('user bug');
      },
    });
    turns(c, 1);
    await expect(c.flush()).resolves.toBeUndefined();
    expect(c.stats().rejected).toBe(2);
  });

  it('builds producer records with stable ids: turns numbered, Agentlas events, UCS records per agent', async () => {
    const srv = fakeServer((r) => srv.ok(r));
    const seen: { type: string; agent?: string; data: Record<string, unknown> }[] = [];
    const c = client(((u: string, init: RequestInit) => {
      for (const l of String(init.body).split('\n')) seen.push(JSON.parse(l));
      return srv.fetchImpl(u, init);
    }) as typeof fetch);
    const s = c.acc({ id: 'run', agent: 'bot', firstTurn: 5 });
    expect(s.turn({ input: 'a', output: 'b', ccs: 'goal_orientation: fix(db)' })).toBe(5);
    expect(s.turn({ input: 'a', output: 'b', ccs: 'goal_orientation: fix(db)' })).toBe(6);
    const id = c.curator({ sourceAgent: 'worker', taskId: 'T-1', projectId: 'p' }).emit({
      memory_kind: 'decision',
      content: 'Use blue/green deploys',
      suggested_scope: 'project',
      evidence_refs: ['commit:abc'],
    });
    c.ucs('ucs-1').action({ t: 3, action: 'consult' });
    await c.flush();
    expect(seen.map((r) => r.type)).toEqual(['session', 'turn', 'turn', 'memory_event', 'ucs_action']);
    expect(seen[2]!.data).toMatchObject({ session_id: 'run', agent: 'bot', turn: 6 });
    expect(seen[3]!.data).toMatchObject({
      event_id: id,
      source_agent: 'worker',
      task_id: 'T-1',
      project_id: 'p',
      ttl: 'durable',
      sensitivity: 'internal',
      confidence: 'medium',
    });
    expect(seen[4]).toMatchObject({ agent: 'ucs-1' });
    expect(c.stats().invalid).toBe(0);
  });
});

/** A local ingest endpoint that records what arrives; for the exit tests' child processes. */
async function recordingServer() {
  const got: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const lines = body.split('\n').filter(Boolean);
      got.push(...lines);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          results: lines.map((_, index) => ({ index, status: 'accepted', type: 'turn', id: String(index) })),
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { got, port: (server.address() as { port: number }).port, close: () => server.close() };
}

/**
 * Runs an agent script with tsx in a child process (asynchronously: a blocking spawn would stop the server it talks
 * to).
 */
function runAgent(body: string): Promise<{ status: number | null; stderr: string }> {
  const root = path.resolve(import.meta.dirname, '../..');
  const script = path.join(mkdtempSync(path.join(os.tmpdir(), 'mnemo-sdk-')), 'agent.ts');
  writeFileSync(script, `import { Mnemoscope } from '${path.join(root, 'sdk/typescript/index.ts')}';\n${body}`);
  return new Promise((resolve) => {
    const p = spawn(
      path.join(root, 'node_modules/.bin/tsx'),
      ['--tsconfig', path.join(root, 'tsconfig.json'), script],
      { cwd: root },
    );
    let stderr = '';
    p.stderr.on('data', (d) => (stderr += d));
    p.on('exit', (status) => resolve({ status, stderr }));
  });
}

describe('flush on exit', () => {
  it('delivers what an agent queued just before its process ends, without an explicit flush', async () => {
    const srv = await recordingServer();
    const child = await runAgent(`
      const m = new Mnemoscope({ url: 'http://127.0.0.1:${srv.port}', apiKey: 'k', flushIntervalMs: 60000 });
      const s = m.acc({ id: 'exit-test', agent: 'bot' });
      for (let i = 0; i < 42; i++) s.turn({ input: 'q', output: 'a', ccs: { goal_orientation: ['x'] } });
    `);
    srv.close();
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(srv.got).toHaveLength(43);
  }, 30_000);

  it('flushes on SIGTERM, then exits as the signal would', async () => {
    const srv = await recordingServer();
    const child = await runAgent(`
      const m = new Mnemoscope({ url: 'http://127.0.0.1:${srv.port}', apiKey: 'k', flushIntervalMs: 60000 });
      const s = m.acc({ id: 'sigterm-test', agent: 'bot' });
      for (let i = 0; i < 9; i++) s.turn({ input: 'q', output: 'a', ccs: { goal_orientation: ['x'] } });
      setInterval(() => {}, 1000); // a long-running agent
      process.kill(process.pid, 'SIGTERM');
    `);
    srv.close();
    expect(child.status).toBe(143);
    expect(srv.got).toHaveLength(10);
  }, 30_000);
});

describe('the SDK package (npm run sdk:build)', () => {
  it('is an ES module that plain Node imports with only zod beside it, and declarations of its whole API', async () => {
    const { buildSdkPackage } = await import('@/server/build/sdk-package');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mnemo-sdk-'));
    const dist = path.join(dir, 'node_modules/@mnemoscope/sdk/dist');
    await buildSdkPackage(dist);
    copyFileSync(path.join(import.meta.dirname, 'package.json'), path.join(dist, '../package.json'));
    // Its one dependency, as npm would install it beside the package.
    symlinkSync(path.resolve('node_modules/zod'), path.join(dir, 'node_modules/zod'));
    const dts = readFileSync(path.join(dist, 'index.d.ts'), 'utf8');
    expect([...dts.matchAll(/from '([^']+)'/g)].map((m) => m[1])).toEqual(['zod']);
    const exported = new Set([
      ...[...dts.matchAll(/^export (?:declare )?(?:class|interface|type|function|const) (\w+)/gm)].map((m) => m[1]),
      ...[...dts.matchAll(/^\t\w+\$?\d* as (\w+),$/gm)].map((m) => m[1]),
    ]);
    expect(
      ['Mnemoscope', 'MemoryDecision', 'verifyWebhook', 'RecordData', 'AccSession'].filter((n) => !exported.has(n)),
    ).toEqual([]);
    const srv = await recordingServer();
    const script = path.join(dir, 'agent.mjs');
    writeFileSync(
      script,
      `import { Mnemoscope } from '@mnemoscope/sdk';
      const m = new Mnemoscope({ url: 'http://127.0.0.1:${srv.port}', apiKey: 'k',
        onRejected: (r) => console.log('refused', r.errors[0].path) });
      const s = m.acc({ id: 'package', agent: 'js-agent' });
      s.turn({ input: 'q', output: 'a', ccs: 'goal_orientation: x(y)' });
      m.record({ type: 'turn', data: { session_id: 'package', agent: 'js-agent', turn: -1, input: '', output: '',
        ccs: 'x' } });
      const stats = await m.shutdown();
      console.log(JSON.stringify(stats));`,
    );
    const out = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
      const p = spawn(process.execPath, [script], { cwd: dir });
      let stdout = '';
      p.stdout.on('data', (d) => (stdout += d));
      p.on('exit', (status) => resolve({ status, stdout }));
    });
    srv.close();
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('refused data.turn');
    expect(JSON.parse(out.stdout.trim().split('\n').at(-1)!)).toMatchObject({ accepted: 2, invalid: 1, dropped: 0 });
    expect(srv.got).toHaveLength(2);
  }, 60_000);
});
