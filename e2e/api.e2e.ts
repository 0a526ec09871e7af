import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';

const servers = inject('servers');
const root = path.resolve(import.meta.dirname, '..');
const shared = path.resolve(root, '../shared/fixtures');
const fixtures = existsSync(shared) ? shared : path.join(root, 'server/demo');

const turn = (sid: string, n: number, over: Record<string, unknown> = {}) => ({
  type: 'turn',
  data: {
    session_id: sid,
    agent: 'e2e',
    turn: n,
    input: `q${n}`,
    output: `a${n}`,
    ccs: `constraints: keep(${n})`,
    ...over,
  },
});

describe.each(servers)('HTTP API on $name', (srv) => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${srv.url}/api/v1/ingest`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${srv.key}`, 'content-type': 'application/x-ndjson', ...headers },
    });
  const ndjson = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n');
  const exportOf = async (id: string) => {
    const r = await fetch(`${srv.url}/api/v1/sessions/${encodeURIComponent(id)}/export`, {
      headers: { authorization: `Bearer ${srv.key}` },
    });
    return {
      status: r.status,
      lines: r.ok
        ? (await r.text())
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l))
        : [],
    };
  };

  it('never answers 5xx to 500 generated bodies (bytes, text, JSON, NDJSON, envelopes)', async () => {
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 2000 }),
      fc.string({ maxLength: 2000 }),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc
        .array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 20 })
        .map((rows) => rows.map((r) => JSON.stringify(r)).join('\n')),
      fc
        .array(
          fc.record({
            type: fc.constantFrom('turn', 'memory_event', 'session', 'artifact', 'ucs_index', 'nope'),
            data: fc.jsonValue({ maxDepth: 3 }),
          }),
          { maxLength: 20 },
        )
        .map((rows) => JSON.stringify(rows)),
    );
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const r = await post(typeof b === 'string' ? b : Buffer.from(b));
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        expect(r.status).toBeLessThan(500);
        const json = (await r.json()) as {
          error?: string;
          results?: { status: string; errors?: { path: string; message: string }[] }[];
        };
        if (r.status === 400) expect(json.error).toBeTruthy();
        for (const x of json.results ?? [])
          if (x.status === 'rejected') expect(x.errors!.every((e) => e.message)).toBe(true);
      }),
      { numRuns: 500, seed: 7 },
    );
    expect([...statuses.keys()].every((s) => [200, 207, 400, 413].includes(s))).toBe(true);
  }, 120_000);

  it('refuses requests without a valid key', async () => {
    const none = await fetch(`${srv.url}/api/v1/ingest`, { method: 'POST', body: '[]' });
    expect(none.status).toBe(401);
    expect((await none.json()).error).toMatch(/Authorization: Bearer/);
    expect((await post('[]', { authorization: 'Bearer wrong' })).status).toBe(401);
  });

  it('gives each record of a mixed batch its own result, stores only the valid ones, never answers 500', async () => {
    const sid = `mixed-${srv.name}`;
    const body = Buffer.concat([
      Buffer.from(
        ndjson([
          turn(sid, 1),
          turn(sid, 'two' as unknown as number),
          { type: 'bogus', data: {} },
          { type: 'turn', data: { session_id: sid } },
          turn(sid, 1, { input: 'same id again' }),
          turn(sid, 3, { input: '<script>window.__pwned=1</script>', hallucination: 0.2 }),
        ]) + '\n',
      ),
      Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d, 0x0a]),
      Buffer.from('{"type": "turn", "data": \n'),
    ]);
    const r = await post(body);
    expect(r.status).toBe(207);
    const j = await r.json();
    expect(j.results.map((x: { status: string }) => x.status)).toEqual([
      'accepted',
      'rejected',
      'rejected',
      'rejected',
      // The same id again with other content: the first kept, this one named a conflict.
      'conflict',
      'accepted',
      'rejected',
      'rejected',
    ]);
    expect(j.results[4]).toMatchObject({ fields: ['input'] });
    expect(j.results[1].errors).toEqual([{ path: 'data.turn', message: 'must be a number (got string)' }]);
    expect(j.results[2].errors[0].path).toBe('type');
    expect(j.results[3].errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['data.agent', 'data.turn', 'data.input', 'data.output', 'data.ccs']),
    );
    expect(j.results[6].errors[0].message).toMatch(/line 7 is not valid UTF-8/);
    expect(j.results[7].errors[0].message).toMatch(/line 8 is not valid JSON/);
    const exp = await exportOf(sid);
    expect(exp.lines.filter((l) => l.type === 'turn').map((l) => l.data.turn)).toEqual([1, 3]);
    expect(exp.lines.find((l) => l.data.turn === 3).data.input).toBe('<script>window.__pwned=1</script>');

    const again = await (await post(body)).json();
    expect(again).toMatchObject({ accepted: 0, duplicates: 2, conflicts: 1 });
  });

  it('answers a malformed or empty body, or one too large, with a clear error', async () => {
    const bad = await post('[{"type": "turn",', { 'content-type': 'application/json' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/not valid JSON/);
    expect((await post('')).status).toBe(400);
    const big = await post('x'.repeat(2 * 1024 * 1024 + 10));
    expect(big.status).toBe(413);
    expect((await big.json()).error).toMatch(/larger than the limit of 2097152 bytes/);
    const many = await post(ndjson(Array.from({ length: 1001 }, (_, i) => turn('many', i))));
    expect(many.status).toBe(413);
    expect((await many.json()).error).toMatch(/1001 records; at most 1000/);
    const long = await post(ndjson([turn('long', 1, { input: 'x'.repeat(200_001) })]));
    expect((await long.json()).results[0].errors).toEqual([
      { path: 'data.input', message: 'must be at most 200000 characters' },
    ]);
  });

  it('serves JSON Schemas of every record type', async () => {
    const s = await (await fetch(`${srv.url}/api/v1/schema`)).json();
    expect(s.recordTypes).toEqual(
      expect.arrayContaining(['session', 'turn', 'memory_event', 'ucs_state', 'ucs_export', 'ucs_index', 'ucs_action']),
    );
    expect(s.data.turn.required).toEqual(
      expect.arrayContaining(['session_id', 'agent', 'turn', 'input', 'output', 'ccs']),
    );
    expect(s.envelope.properties.type.enum).toEqual(s.recordTypes);
  });

  it('says 404 for a session it does not have', async () => {
    expect((await exportOf('no-such-session')).status).toBe(404);
  });

  it('answers in JSON a path or method it does not serve; OpenTelemetry metrics and logs: not taken', async () => {
    const metrics = await fetch(`${srv.url}/api/v1/otel/v1/metrics`, { method: 'POST', body: '{}' });
    expect(metrics.status).toBe(404);
    expect((await metrics.json()).error).toMatch(
      /^POST \/api\/v1\/otel\/v1\/metrics: Mnemoscope takes OpenTelemetry traces only/,
    );
    const typo = await fetch(`${srv.url}/api/v1/sesions`, { headers: { authorization: `Bearer ${srv.key}` } });
    expect([typo.status, (await typo.json()).error]).toEqual([
      404,
      'no such API path: GET /api/v1/sesions (the API: GET /api/v1/openapi.json)',
    ]);
    const get = await fetch(`${srv.url}/api/v1/ingest`);
    expect([get.status, get.headers.get('allow'), (await get.json()).error]).toEqual([
      405,
      'POST',
      'GET is not taken here: POST only',
    ]);
    // The routes the catch-all sits beside still answer.
    expect((await fetch(`${srv.url}/api/v1/schema`)).status).toBe(200);
    expect((await fetch(`${srv.url}/api/health`)).status).toBe(200);
  });

  it('takes a memory event on a span as attributes, and names a wrong attribute as it was sent', async () => {
    const attr = (key: string, v: string) => ({ key, value: { stringValue: v } });
    const traces = (attributes: unknown[], events: unknown[] = []) => ({
      resourceSpans: [
        {
          resource: { attributes: [attr('service.name', 'otel-e2e')] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId: '5b8efff798038103d269b633813fc6aa',
                  spanId: 'eee19b7ec3c1b1aa',
                  name: 'turn',
                  startTimeUnixNano: '1763715600000000000',
                  attributes: [
                    attr('mnemoscope.session_id', 'otel-attrs'),
                    attr('mnemoscope.turn', '1'),
                    attr('mnemoscope.ccs', '{}'),
                    ...attributes,
                  ],
                  events,
                },
              ],
            },
          ],
        },
      ],
    });
    const send = async (body: unknown) =>
      (
        await fetch(`${srv.url}/api/v1/otel/v1/traces`, {
          method: 'POST',
          headers: { authorization: `Bearer ${srv.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json();
    // A figure that is not one: the turn is stored without it, and the answer says so (no span refused).
    const odd = await send(traces([attr('mnemoscope.hallucination', 'high')]));
    expect(odd).toEqual({
      partialSuccess: {
        rejectedSpans: 0,
        errorMessage:
          'resourceSpans[0].scopeSpans[0].spans[0] (turn): attribute mnemoscope.hallucination must be a number, ' +
          'got "high": the turn was stored without it',
      },
      mnemoscope: expect.objectContaining({ accepted: 1, rejected: 0, warnings: 1 }),
    });
    // Its agent and time are the span's (left out here); its evidence as strings, since an attribute holds no objects.
    const event = [
      ['event_id', 'memevt_otel_attrs_01'],
      ['kind', 'fact'],
      ['content', 'The checkout service retries three times.'],
      ['suggested_scope', 'team_memory'],
      ['confidence', 'high'],
    ].map(([k, v]) => attr(k!, v!));
    const refs = { key: 'evidence_refs', value: { arrayValue: { values: [{ stringValue: 'commit:4b1e9a2' }] } } };
    const ok = await send(traces([], [{ name: 'mnemoscope.memory_event', attributes: [...event, refs] }]));
    expect(ok).toEqual({ mnemoscope: expect.objectContaining({ accepted: 1, duplicates: 1, rejected: 0 }) });
    const stored = await fetch(`${srv.url}/api/v1/memory-events/memevt_otel_attrs_01`, {
      headers: { authorization: `Bearer ${srv.key}` },
    });
    // A fact with its evidence, for the team: waiting for a reviewer as such (not demoted for want of evidence).
    expect(await stored.json()).toMatchObject({ disposition: 'proposed', kind: 'fact', scope: 'team_memory' });
  });
});

describe('CLI (npx mnemoscope, the package bin)', () => {
  const [lite, pg] = servers as [(typeof servers)[0], (typeof servers)[0]];
  /** Runs `npx mnemoscope …` as a user would, the key in MNEMOSCOPE_API_KEY (none when `key` is null). */
  const cli = (args: string[], key: string | null) => {
    const r = spawnSync('npx', ['--offline', 'mnemoscope', ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, MNEMOSCOPE_API_KEY: key ?? '' },
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  it('imports every fixture into an empty instance, then finds them all stored', () => {
    const first = cli(['import', fixtures, '--url', pg.url], pg.key);
    expect(first.err).not.toMatch(/✗|warning/);
    // The two Agentlas example events share an id: the second (the legacy shape) is named a conflict, not stored.
    expect(first.out).toMatch(
      /432 records from 33 files .*: 430 accepted, 1 already stored, 0 rejected, 1 in conflict \(kept as stored\)/,
    );
    expect(first.err).toMatch(
      /memory-event\.example\.v1-legacy-agent_team\.json, record 1 \(memevt_example_0001\): another/,
    );
    expect(first.code).toBe(1);
    const second = cli(['import', fixtures, '--url', pg.url], pg.key);
    expect(second.out).toMatch(/0 accepted, 431 already stored, 0 rejected, 1 in conflict/);
  });

  it('moves a session between instances with export and import, identically', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-cli-'));
    const a = path.join(dir, 'a.ndjson');
    const b = path.join(dir, 'b.ndjson');
    expect(cli(['export', 'health-fhir-labs', '--url', lite.url, '--out', a], lite.key).code).toBe(0);
    const imported = cli(['import', a, '--url', pg.url], pg.key);
    expect(imported.out).toMatch(/58 records from 1 files .*: 58 accepted/);
    // A key on the command line still works, with a warning that other processes can read it.
    const flagged = cli(['export', 'health-fhir-labs', '--url', pg.url, '--key', pg.key, '--out', b], null);
    expect(flagged.code).toBe(0);
    expect(flagged.err).toMatch(/warning: --key puts the API key on the command line.*set MNEMOSCOPE_API_KEY/);
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
  });

  it('imports a collector’s OTLP/JSON trace file as an exporter would send it, once', () => {
    const attr = (key: string, v: string) => ({ key, value: { stringValue: v } });
    const exportOf = (n: number) => ({
      resourceSpans: [
        {
          resource: { attributes: [attr('service.name', 'cli-otel-bot')] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId: `5b8efff798038103d269b633813fc6${n}0`,
                  spanId: `eee19b7ec3c1b1${n}0`,
                  name: 'invoke_agent cli-otel-bot',
                  startTimeUnixNano: `17637156${n}0000000000`,
                  attributes: [
                    attr('gen_ai.operation.name', 'invoke_agent'),
                    attr('gen_ai.conversation.id', 'cli-otel'),
                    attr('input.value', `question ${n}`),
                    attr('output.value', `answer ${n}`),
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-cli-')), 'traces.jsonl');
    writeFileSync(file, [1, 2].map((n) => JSON.stringify(exportOf(n))).join('\n'));
    const first = cli(['import', file, '--url', pg.url], pg.key);
    expect(first.out).toMatch(/^✓ traces\.jsonl \(OTLP traces, 2 exports\): 2 spans, 2 records accepted, 0 already/m);
    expect(first.code).toBe(0);
    const again = cli(['import', file, '--url', pg.url], pg.key);
    expect(again.out).toMatch(/: 2 spans, 0 records accepted, 2 already stored, 0 rejected/);
  });

  it('fails with a clear message when the server or key is wrong', () => {
    const noKey = cli(['import', fixtures, '--url', pg.url], null);
    expect(noKey.code).toBe(2);
    expect(noKey.err).toMatch(/no API key: set MNEMOSCOPE_API_KEY/);
    const badKey = cli(['export', 'x', '--url', pg.url], 'nope');
    expect(badKey.err).toMatch(/401 .*unknown or revoked API key/);
    const down = cli(['export', 'x', '--url', 'http://127.0.0.1:9'], 'k');
    expect(down.err).toMatch(/cannot reach/);
    // A refused record is named as the import page names it: its file, its place there counted from 1.
    const bad = path.join(mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-cli-')), 'bad.ndjson');
    const rows = [turn('cli-bad', 1, { halucination: 0.2 }), turn('cli-bad', 2, { turn: 'two' })];
    writeFileSync(bad, rows.map((t) => JSON.stringify(t)).join('\n'));
    const refused = cli(['import', bad, '--url', pg.url], pg.key);
    expect(refused.err).toMatch(/^ {2}bad\.ndjson, record 2: data\.turn: must be a number \(got string\)$/m);
    // A record stored with a field that looks like a slip for a known one is named too.
    expect(refused.err).toMatch(
      /^ {2}warning: bad\.ndjson, record 1 \(cli-bad\/1\): data\.halucination not a field .* hallucination\?$/m,
    );
  });
});

describe('npm start', () => {
  it('refuses to listen beyond this machine without sign-in, with a clear message', () => {
    const r = spawnSync('npm', ['start', '--silent'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, HOST: '0.0.0.0', PORT: '39999' },
      timeout: 30_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/refusing to listen on 0\.0\.0\.0: .*local single-user mode/);
  });

  it('refuses to start with sign-in on and nobody able to sign in', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-nouser-'));
    const r = spawnSync('npm', ['start', '--silent'], {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...process.env,
        HOST: '0.0.0.0',
        PORT: '39998',
        MNEMOSCOPE_AUTH: 'users',
        MNEMOSCOPE_DATA_DIR: dir,
        DATABASE_URL: '',
        MNEMOSCOPE_ADMIN_USER: '',
        MNEMOSCOPE_ADMIN_PASSWORD: '',
      },
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/refusing to start: MNEMOSCOPE_AUTH=users but no user can sign in/);
  });
});

describe('health and readiness', () => {
  it.each(servers)('answers /api/health and /api/ready on $name without data or sign-in', async (srv) => {
    const health = await fetch(`${srv.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${srv.url}/api/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', model: 'ok' },
    });
  });

  it('refuses a second server on the same embedded data directory, naming it and its holder', () => {
    const lite = servers.find((s) => s.name === 'pglite')!;
    const r = spawnSync('npm', ['start', '--silent'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, MNEMOSCOPE_DATA_DIR: lite.dataDir!, DATABASE_URL: '', PORT: '39997' },
      timeout: 60_000,
    });
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(
      new RegExp(`start-up failed, exiting: the data directory ${lite.dataDir} is in use by process \\d+`),
    );
  });
});

describe('cross-site requests', () => {
  const lite = servers.find((s) => s.name === 'pglite')!;
  const raw = (headers: Record<string, string>, method = 'POST') =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const u = new URL(`${lite.url}/api/trpc/apiKeys.create`);
      const r = http.request({ host: u.hostname, port: u.port, path: u.pathname, method, headers }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      r.on('error', reject);
      r.end(method === 'POST' ? JSON.stringify({ json: { name: 'from evil' } }) : undefined);
    });

  it('refuses a write from another site, a rebound host and a non-JSON form post', async () => {
    const host = new URL(lite.url).host;
    expect(await raw({ host, origin: 'http://evil.example', 'content-type': 'application/json' })).toMatchObject({
      status: 403,
      body: expect.stringMatching(/not this site/),
    });
    expect(await raw({ host: 'evil.example', 'content-type': 'application/json' })).toMatchObject({
      status: 403,
      body: expect.stringMatching(/not this machine/),
    });
    expect(await raw({ host, 'content-type': 'text/plain' })).toMatchObject({ status: 403 });
    // None of them created a key; the same call from the app's own origin does.
    const ok = await raw({ host, origin: lite.url, 'content-type': 'application/json' });
    expect(ok.status).toBe(200);
    const list = await (await fetch(`${lite.url}/api/trpc/apiKeys.list`)).json();
    expect(list.result.data.json.filter((k: { name: string }) => k.name === 'from evil')).toHaveLength(1);
  });
});
