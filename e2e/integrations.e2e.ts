import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Mnemoscope } from '@/sdk/typescript/index';
import { startPostgres } from '../server/test/postgres';
import { startNextServer } from '../server/test/next-server';
import { launchPage } from './browser';
import { open } from './page';
import { exportedTurns } from './export';

/**
 * Agent-side integration against the live servers, as users run it: the example agent (SDK), the
 * Python and curl examples, an MCP client, and moving a project to a new PostgreSQL instance with
 * the CLI. Each time the data must show up in the UI, in Chromium.
 */
const servers = inject('servers');
const root = path.resolve(import.meta.dirname, '..');
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ browser, page } = await launchPage());
});
afterAll(async () => browser?.close());

/** Runs a command to its end; never throws, so a failure shows its output in the assertion. */
function run(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  timeout = 120_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: root, env: { ...process.env, ...env }, timeout }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const tsx = path.join(root, 'node_modules/.bin/tsx');

describe.each(servers)('agents put data into the live server on $name', (srv) => {
  const env = { MNEMOSCOPE_URL: srv.url, MNEMOSCOPE_API_KEY: srv.key };
  const sid = `example-${srv.name}`;

  it(
    'the example agent replays its incident through the SDK; a second run stores nothing new; the session, ' +
      'memory and dead end show in the UI',
    async () => {
      const first = await run(tsx, ['sdk/examples/incident-agent.ts', sid], env);
      expect(first.stderr + first.stdout).toMatch(/accepted 22, already stored 0, rejected 0, dropped 0/);
      expect(first.code).toBe(0);
      const second = await run(tsx, ['sdk/examples/incident-agent.ts', sid], env);
      expect(second.stdout).toMatch(/accepted 0, already stored 22, rejected 0, dropped 0/);

      await open(page, `${srv.url}/sessions/${sid}`);
      await expect
        .poll(() => page.locator('h1').textContent())
        .toBe('Checkout 504s after the payments gateway certificate rotation');
      await expect.poll(() => page.locator('main').textContent()).toContain('6 turns');
      await expect
        .poll(() => page.locator('main').textContent())
        .toContain('PagerDuty: checkout-api 504 rate above 30 %');

      await open(page, `${srv.url}/curation/entries`);
      await page.getByLabel('Search entries').fill('rolling-restart checkout-api');
      await expect
        .poll(() => page.getByTestId('entries').textContent(), { timeout: 10_000 })
        .toContain('deploy the new bundle to /etc/checkout/ca.pem');

      await open(page, `${srv.url}/substrate/sre-copilot-ucs/dead-ends`);
      await expect
        .poll(() => page.locator('main').textContent())
        .toContain('SIGHUP hot reload of the checkout trust bundle');
    },
  );

  it('the Python (standard library) and curl examples ingest, and their sessions show in the UI', async () => {
    const py = await run('python3', ['sdk/examples/ingest.py', `py-${srv.name}`], env);
    expect(py.stderr + py.stdout).toMatch(/session py-\w+: 5 accepted, 0 already stored, 0 rejected/);
    expect(py.code).toBe(0);
    const sh = await run('bash', ['sdk/examples/ingest.sh', `curl-${srv.name}`], env);
    expect(sh.code).toBe(0);
    expect(JSON.parse(sh.stdout)).toMatchObject({ accepted: 3, rejected: 0, curation: { events: 1 } });

    await open(page, `${srv.url}/sessions`);
    await expect.poll(() => page.locator('main').textContent()).toContain('Disk filling up on db-3');
    await expect.poll(() => page.locator('main').textContent()).toContain('Certificate expiry check');
    await open(page, `${srv.url}/sessions/py-${srv.name}?turn=2`);
    await expect.poll(() => page.locator('main').textContent()).toContain('Dropped the inactive slot analytics_old');
  });

  it('an MCP client submits a memory event, reads state and dead ends; the entry shows in the browser', async () => {
    const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${srv.url}/api/v1/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${srv.key}` } },
      }),
    );
    try {
      const content = `On ${srv.name}, the staging load balancer drains connections for 30 seconds before a deploy.`;
      const r = (await client.callTool({
        name: 'submit_memory_event',
        arguments: {
          content,
          memory_kind: 'fact',
          suggested_scope: 'project',
          source_agent: 'mcp-e2e',
          task_id: 'T-1',
          evidence_refs: ['url:https://wiki.example.com/lb'],
        },
      })) as unknown as { structuredContent: { disposition: string; entry_id: string; entry_url: string } };
      expect(r.structuredContent.disposition).toBe('written');
      const state = (await client.callTool({
        name: 'get_session_state',
        arguments: { session_id: sid },
      })) as unknown as { structuredContent: { turn: number; ccs: Record<string, string[]> } };
      expect(state.structuredContent.turn).toBe(6);
      expect(state.structuredContent.ccs.semantic_gist).toEqual(['resolved(tls_trust_mismatch)']);
      const dead = (await client.callTool({
        name: 'list_dead_ends',
        arguments: { situation: 'checkout-api now ships trust bundle hot reload' },
      })) as unknown as { structuredContent: { dead_ends: { id: string }[] } };
      expect(dead.structuredContent.dead_ends.map((d) => d.id)).toContain('de-sighup-tls');
      const found = (await client.callTool({
        name: 'search_memory',
        arguments: { query: 'load balancer drains' },
      })) as unknown as { structuredContent: { results: { content: string }[] } };
      expect(found.structuredContent.results[0]!.content).toBe(content);
      const bad = (await client.callTool({
        name: 'get_session_state',
        arguments: { session_id: 'no-such-session' },
      })) as unknown as { isError: boolean };
      expect(bad.isError).toBe(true);

      await open(page, `${srv.url}${r.structuredContent.entry_url}`);
      await expect.poll(() => page.getByTestId('entry-detail').textContent(), { timeout: 10_000 }).toContain(content);
    } finally {
      await client.close();
    }
  });

  it.each(['json', 'protobuf'] as const)(
    'an OpenTelemetry SDK exports spans over OTLP/HTTP %s; they become turns and memory in the UI',
    async (encoding) => {
      const { TracerProvider, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace');
      const { OTLPTraceExporter } =
        encoding === 'json'
          ? await import('@opentelemetry/exporter-trace-otlp-http')
          : await import('@opentelemetry/exporter-trace-otlp-proto');
      const { resourceFromAttributes } = await import('@opentelemetry/resources');
      // The protobuf exporter (the default of most OpenTelemetry SDKs) compressed, as collectors are usually fed.
      const exporter = new OTLPTraceExporter({
        url: `${srv.url}/api/v1/otel/v1/traces`,
        headers: { Authorization: `Bearer ${srv.key}` },
        ...(encoding === 'protobuf' ? { compression: CompressionAlgorithm.GZIP } : {}),
      });
      const provider = new TracerProvider({
        resource: resourceFromAttributes({ 'service.name': 'otel-agent' }),
        spanProcessors: [new SimpleSpanProcessor({ exporter })],
      });
      const tracer = provider.getTracer('e2e');
      const conv = `otel-${encoding}-${srv.name}`;
      const questions = [
        'Disk alert on db-7: 95% full.',
        'WAL directory holds 38 GB.',
        'Dropped the stale slot; disk at 58%.',
      ];
      questions.forEach((q, k) => {
        const span = tracer.startSpan('invoke_agent ops-bot', {
          attributes: {
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.conversation.id': conv,
            'mnemoscope.turn': k + 1,
            'mnemoscope.title': 'Disk pressure on db-7 (OpenTelemetry)',
            'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: q }] }]),
            'gen_ai.output.messages': JSON.stringify([
              { role: 'assistant', parts: [{ type: 'text', content: `Step ${k + 1} handled.` }] },
            ]),
            'mnemoscope.ccs': JSON.stringify({
              goal_orientation: ['free_disk(db-7)'],
              episodic_trace: [`step(${k + 1})`],
            }),
            'mnemoscope.recalled': ['otel-runbook'],
            'gen_ai.usage.input_tokens': 300 + k * 120,
          },
        });
        if (k === 0)
          span.addEvent('mnemoscope.artifact', {
            id: 'otel-runbook',
            content: 'Inactive replication slots hold WAL on the primary.',
            kind: 'runbook',
          });
        // What the agent learned at the second turn, for the curator: the replay shows it at that turn.
        if (k === 1)
          span.addEvent('mnemoscope.memory_event', {
            event_id: `ev-${conv}`,
            kind: 'fact',
            content: 'The WAL directory on db-7 grows when a replication slot is left inactive.',
            suggested_scope: 'project',
            confidence: 'high',
          });
        span.end();
      });
      await provider.forceFlush();
      await provider.shutdown();

      const turns = await exportedTurns(srv, conv);
      expect(turns.map((t) => [t.turn, t.input, t.agent])).toEqual(questions.map((q, k) => [k + 1, q, 'otel-agent']));
      // A body that is not an OTLP request is refused in its own encoding (protobuf: a google.rpc.Status).
      const bad = await fetch(`${srv.url}/api/v1/otel/v1/traces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${srv.key}`, 'content-type': `application/x-${encoding}` },
        body: new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f]),
      });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('content-type')).toContain(encoding);
      expect(new TextDecoder().decode(await bad.arrayBuffer())).toMatch(/not (an OTLP protobuf|JSON)/);

      await open(page, `${srv.url}/sessions/${conv}?turn=2`);
      await expect.poll(() => page.locator('h1').textContent()).toBe('Disk pressure on db-7 (OpenTelemetry)');
      await expect.poll(() => page.locator('main').textContent()).toContain('WAL directory holds 38 GB.');
      // The memory event emitted in the turn's span, at that turn, with what the curator made of it.
      const emitted = page.getByTestId('turn-events');
      await expect.poll(() => emitted.locator('h3').textContent()).toBe('Memory events emitted at turn 2 (1)');
      expect(await emitted.getByTestId('turn-events-table').textContent()).toContain(
        'The WAL directory on db-7 grows when a replication slot is left inactive.',
      );
      expect(await emitted.getByTestId('event-outcome').getAttribute('data-disposition')).toMatch(
        /^(written|proposed|duplicate)$/,
      );
      // The turn before emitted none.
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => emitted.locator('h3').textContent()).toBe('Memory events emitted at turn 1 (0)');
      expect(await emitted.textContent()).toContain('None at this turn.');
      // An event for that turn sent later, in a request of its own: the open page shows it, with no reload.
      const late = await fetch(`${srv.url}/api/v1/ingest`, {
        method: 'POST',
        headers: { authorization: `Bearer ${srv.key}` },
        body: JSON.stringify({
          type: 'memory_event',
          data: {
            event_id: `memevt_late_${conv}`,
            timestamp: new Date().toISOString(),
            source_agent: 'otel-agent',
            task_id: conv,
            memory_kind: 'fact',
            content: `db-7 pages at 90% disk on the WAL volume (${conv}).`,
            suggested_scope: 'project',
            sensitivity: 'internal',
            confidence: 'high',
            evidence_refs: ['url:https://grafana.example/d/db-7'],
            ttl: 'durable',
            session_id: conv,
            turn: 1,
          },
        }),
      });
      expect(late.status).toBe(200);
      await expect.poll(() => emitted.locator('h3').textContent()).toBe('Memory events emitted at turn 1 (1)');
      expect(await emitted.getByTestId('turn-events-table').textContent()).toContain('db-7 pages at 90% disk');
      // Curation → Events says where the event was emitted, and leads back there.
      await open(page, `${srv.url}/curation/events?focus=ev-${conv}`);
      const row = page.locator(`[data-focus-id="ev-${conv}"]`);
      await expect.poll(() => row.textContent()).toContain(`emitted at turn 2 of ${conv}`);
      await row.getByRole('link', { name: `turn 2 of ${conv}, where ev-${conv} was emitted` }).click();
      await expect.poll(() => page.url()).toContain(`/sessions/${conv}?turn=2`);
      await expect.poll(() => emitted.locator('h3').textContent()).toBe('Memory events emitted at turn 2 (1)');
    },
  );

  it('the SDK splits a batch the server finds too large, and everything arrives', async () => {
    const mnemo = new Mnemoscope({ url: srv.url, apiKey: srv.key, flushOnExit: false, batchSize: 600 });
    const s = mnemo.acc({ id: `big-${srv.name}`, agent: 'bulk' });
    // ~3.6 MB in one batch against the servers' 2 MB body limit.
    for (let i = 0; i < 599; i++)
      s.turn({ input: `step ${i} `.repeat(500), output: 'ok', ccs: { goal_orientation: [`step(${i})`] } });
    const stats = await mnemo.shutdown(60_000);
    expect(stats).toMatchObject({ accepted: 600, dropped: 0, rejected: 0 });
    expect(stats.requests).toBeGreaterThan(1);
  });
});

describe('moving a project to PostgreSQL with the CLI', () => {
  it(
    'exports the embedded project, imports it into an empty PostgreSQL instance, and the copy is identical and ' +
      'browsable',
    async () => {
      const from = servers.find((s) => s.name === 'pglite')!;
      const pg = await startPostgres();
      const target = await startNextServer({
        DATABASE_URL: pg.url,
        MNEMOSCOPE_DEMO: '0',
        MNEMOSCOPE_API_KEY: 'moved-key-0123456789abcdef',
      });
      try {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-move-'));
        const file = path.join(dir, 'project.ndjson.gz');
        const movedKey = 'moved-key-0123456789abcdef';
        // As the README and the Connect page say: npx mnemoscope, the key in MNEMOSCOPE_API_KEY.
        const cli = (args: string[], key: string) =>
          run('npx', ['--offline', 'mnemoscope', ...args], { MNEMOSCOPE_API_KEY: key });
        const out = await cli(['export-project', '--out', file, '--url', from.url], from.key);
        expect(out.stderr).toMatch(/wrote .*project\.ndjson\.gz/);
        const lines = gunzipSync(readFileSync(file)).toString('utf8').trim().split('\n');
        expect(JSON.parse(lines.at(-1)!).tables.turns).toBeGreaterThan(100);

        const imported = await cli(['import-project', file, '--url', target.url], movedKey);
        // Nothing on stderr but npm's own notices about the project's .npmrc.
        expect(imported.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'))).toEqual([]);
        expect(imported.stdout).toMatch(new RegExp(`imported ${lines.length - 2} rows into project default`));
        const again = await cli(['import-project', file, '--url', target.url], movedKey);
        expect(again.code).toBe(2);
        expect(again.stderr).toMatch(/400 .*project "default" already holds data/);

        const back = path.join(dir, 'back.ndjson.gz');
        await cli(['export-project', '--out', back, '--url', target.url], movedKey);
        const backLines = gunzipSync(readFileSync(back)).toString('utf8').trim().split('\n');
        const strip = (l: string[]) => [{ ...JSON.parse(l[0]!), exported_at: null }, ...l.slice(1)];
        expect(strip(backLines)).toEqual(strip(lines));

        await open(page, `${target.url}/sessions/itops-nginx-502`);
        await expect.poll(() => page.locator('main').textContent()).toContain('turns');
        await open(page, `${target.url}/settings`);
        await expect.poll(() => page.locator('main').textContent()).toContain('PostgreSQL server');
      } finally {
        target.kill();
        pg.stop();
      }
    },
    180_000,
  );
});
