import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mnemoscope } from '../sdk/typescript/client';
import { freePort, startPostgres } from '../server/test/postgres';
import { startNextServer, type NextServer } from '../server/test/next-server';
import { launchPage } from './browser';
import { open } from './page';

/**
 * A team's deployment, as README "Running for a team" describes it: one PostgreSQL, two instances started at
 * the same moment on a fresh database, and nginx in front with the shipped example configuration
 * (server/deploy/nginx.conf, only its addresses changed).
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const KEY = 'cluster-key-0123456789abcdef';
const RATE_KEY = 'cluster-rate-key-0123456789';
const RATE = 120; // requests a minute per key, bursts of as many

let pg: Awaited<ReturnType<typeof startPostgres>>;
let sql: postgres.Sql;
let dbUrl: string;
const inst: NextServer[] = [];
const ports: number[] = [];
let nginx: ChildProcess;
let front: string;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-cluster-'));
const env = () => ({ DATABASE_URL: dbUrl, MNEMOSCOPE_API_KEY: KEY, MNEMOSCOPE_RATE_LIMIT: String(RATE) });

beforeAll(async () => {
  pg = await startPostgres();
  const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
  await admin.unsafe('create database cluster');
  await admin.end();
  dbUrl = pg.url.replace(/\/[^/]*$/, '/cluster');
  sql = postgres(dbUrl, { max: 2, onnotice: () => {} });
  ports.push(await freePort(), await freePort());
  // Both at once, on a database nobody has migrated: one migrates, the other waits for it.
  inst.push(...(await Promise.all(ports.map((p) => startNextServer(env(), p)))));
  const nginxPort = await freePort();
  const site = readFileSync(path.join(ROOT, 'server/deploy/nginx.conf'), 'utf8')
    .replace('server 127.0.0.1:3001', `server 127.0.0.1:${ports[0]}`)
    .replace('server 127.0.0.1:3002', `server 127.0.0.1:${ports[1]}`)
    .replace('listen 8080;', `listen 127.0.0.1:${nginxPort};`);
  expect(site).toContain(`127.0.0.1:${ports[1]}`);
  writeFileSync(path.join(tmp, 'mnemoscope.conf'), site);
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(tmp, d));
  writeFileSync(
    path.join(tmp, 'nginx.conf'),
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;\npid ${tmp}/nginx.pid;\n` +
      `error_log ${tmp}/error.log;\nevents { worker_connections 512; }\nhttp {\n  access_log off;\n` +
      ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
        .map((d) => `  ${d === 'body' ? 'client_body' : d}_temp_path ${tmp}/${d};\n`)
        .join('') +
      `  include ${tmp}/mnemoscope.conf;\n}\n`,
  );
  nginx = spawn('/usr/sbin/nginx', ['-p', tmp, '-c', path.join(tmp, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: 'inherit',
  });
  front = `http://127.0.0.1:${nginxPort}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${front}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const { openDb } = await import('../server/db');
  const { provisionKey } = await import('../server/services/api-keys');
  const h = await openDb({ url: dbUrl });
  await provisionKey(h.db, 'default', RATE_KEY);
  await h.close();
}, 180_000);

afterAll(async () => {
  nginx?.kill('SIGTERM');
  for (const s of inst) s.kill('SIGKILL');
  await sql?.end();
  pg?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const served = (s: NextServer, status: number) =>
  s
    .output()
    .split('\n')
    .filter((l) => l.includes('"route":"/api/v1/ingest"') && l.includes(`"status":${status}`)).length;

describe('two instances behind nginx on one PostgreSQL', () => {
  it('start together on a fresh database and both become ready', async () => {
    for (const s of inst) expect((await fetch(`${s.url}/api/ready`)).status).toBe(200);
    expect((await fetch(`${front}/api/ready`)).status).toBe(200);
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(row!.n).toBeGreaterThan(0);
  });

  it('hold one rate limit for the key across both instances', async () => {
    const t0 = Date.now();
    const statuses: number[] = [];
    const send = async () => {
      const r = await fetch(`${front}/api/v1/ingest`, {
        method: 'POST',
        headers: { authorization: `Bearer ${RATE_KEY}`, 'content-type': 'application/json' },
        body: '[]',
      });
      statuses.push(r.status);
      if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    };
    for (let i = 0; i < 2 * RATE; i += 8) await Promise.all(Array.from({ length: 8 }, send));
    const refilled = Math.ceil(((Date.now() - t0) / 60_000) * RATE) + 1;
    const ok = statuses.filter((s) => s === 200).length;
    expect(ok).toBeGreaterThanOrEqual(RATE);
    expect(ok).toBeLessThanOrEqual(RATE + refilled);
    expect(statuses.filter((s) => s === 429).length).toBe(2 * RATE - ok);
    // Both instances answered some of them, and both refused some: one bucket, two counters would allow 2×.
    for (const s of inst) expect(served(s, 429)).toBeGreaterThan(0);
    console.log(`[cluster] rate limit ${RATE}/min: ${ok} of ${2 * RATE} passed, ${2 * RATE - ok} refused (429)`);
  });

  it('store every acknowledged record once while instances are killed, stopped and restarted mid-stream', async () => {
    const client = new Mnemoscope({
      url: front,
      apiKey: KEY,
      batchSize: 50,
      flushIntervalMs: 50,
      flushOnExit: false,
      onError: () => {},
      backoffMs: { base: 100, max: 1000 },
      maxAttempts: 20,
    });
    const event = (i: number) => ({
      type: 'memory_event' as const,
      data: {
        event_id: `memevt_${i.toString(16).padStart(32, '0')}`,
        timestamp: '2026-11-24T00:00:00Z',
        source_agent: 'cluster-agent',
        task_id: 'cluster-test',
        memory_kind: 'fact' as const,
        content: `Service ${i} of the fleet retries failed calls ${i % 7} times before it gives up.`,
        suggested_scope: 'project' as const,
        sensitivity: 'public' as const,
        confidence: 'high' as const,
        evidence_refs: [`runbook/service-${i}.md`],
        ttl: 'durable' as const,
      },
    });
    const turn = (s: number, t: number) => ({
      type: 'turn' as const,
      data: {
        session_id: `cluster-${s}`,
        agent: 'cluster-agent',
        turn: t,
        input: `q${t}`,
        output: `a${t}`,
        ccs: 'constraints: a(b)',
      },
    });
    let sent = 0;
    const produce = async (from: number, to: number) => {
      for (let t = from; t < to; t++) {
        for (let s = 0; s < 3; s++) client.record(turn(s, t)) && sent++;
        if (t % 5 === 0) client.record(event(t)) && sent++;
        if (t % 25 === 0) await new Promise((r) => setTimeout(r, 15));
      }
    };
    const t0 = Date.now();
    await produce(0, 300);
    inst[0]!.kill('SIGKILL');
    await produce(300, 700); // through B alone while A is down
    inst[0] = await startNextServer(env(), ports[0]);
    await produce(700, 850);
    // A rolling restart of B: SIGTERM (it finishes what it holds), then start it again.
    const stopped = new Promise((r) => inst[1]!.proc.on('exit', r));
    inst[1]!.proc.kill('SIGTERM');
    await produce(850, 1000);
    expect(await stopped).toBe(0);
    inst[1] = await startNextServer(env(), ports[1]);
    await client.flush(60_000);
    const stats = await client.shutdown(1000);
    const turns = 3 * 1000;
    const events = 1000 / 5;
    expect(sent).toBe(turns + events);
    expect(stats).toMatchObject({ rejected: 0, invalid: 0, dropped: 0, buffered: 0 });
    expect(stats.accepted + stats.duplicates).toBe(sent);
    const [row] = await sql<{ turns: number; events: number }[]>`select
      (select count(*)::int from turns where session_id like 'cluster-%') as turns,
      (select count(*)::int from memory_events where source_agent = 'cluster-agent') as events`;
    const stored = row!;
    expect(stored).toEqual({ turns, events });
    // The curator decided each event exactly once, on whichever instance stored it (or after the restart).
    const decisions = await sql<{ n: number }[]>`select count(*)::int as n from curation_outcomes o
      join memory_events e on e.project_id = o.project_id and e.event_id = o.event_id
      where e.source_agent = 'cluster-agent' group by o.event_id`;
    expect(decisions).toHaveLength(events);
    expect(decisions.every((d) => d.n === 1)).toBe(true);
    console.log(
      `[cluster] ${sent} records sent in ${Date.now() - t0} ms through nginx, ${stats.accepted} accepted + ` +
        `${stats.duplicates} duplicates acknowledged, ${stored.turns + stored.events} stored once; ` +
        `1 SIGKILL and 1 SIGTERM, each with a restart; ${stats.retries} retries; each of ${events} events decided once`,
    );
  }, 180_000);

  it('show a session on instance B live while its turns arrive through instance A', async () => {
    const write = (t: number) =>
      fetch(`${inst[0]!.url}/api/v1/ingest`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'turn',
          data: {
            session_id: 'followed',
            agent: 'a',
            turn: t,
            input: `live ${t}`,
            output: 'o',
            ccs: 'constraints: a(b)',
          },
        }),
      });
    expect((await write(1)).status).toBe(200);
    const { browser, page } = await launchPage({ baseURL: inst[1]!.url });
    try {
      await open(page, '/sessions/followed');
      await page.getByTestId('follow-live').check();
      const readout = () => page.getByTestId('turn-readout').textContent();
      await expect.poll(readout).toBe('Turn 1 (1 of 1)');
      // B pushes the news (its LISTEN hears A's NOTIFY); the page does not poll while the stream is up.
      await page.locator('.replay[data-live=push]').waitFor();
      const t0 = Date.now();
      expect((await write(2)).status).toBe(200);
      await expect.poll(readout, { timeout: 15_000, interval: 50 }).toBe('Turn 2 (2 of 2)');
      expect(await page.locator('.replay').getAttribute('data-live')).toBe('push');
      console.log(`[cluster] a turn written through A appeared on B after ${Date.now() - t0} ms, pushed`);
    } finally {
      await browser.close();
    }
  });

  it("keep two reviewers' inboxes on two instances in step: proposals and decisions show with no reload", async () => {
    const a = await launchPage({ baseURL: inst[0]!.url });
    const b = await launchPage({ baseURL: inst[1]!.url });
    try {
      const rowsOf = (page: typeof a.page) =>
        page
          .getByTestId('inbox-list')
          .locator('.inbox-row')
          .evaluateAll((rs) => rs.map((r) => r.textContent ?? ''));
      // The reviewer looks at users' preferences (the stream test before left many other proposals).
      const narrow = async (page: typeof a.page) => {
        await open(page, '/curation');
        await page.getByTestId('inbox-list').waitFor();
        await page.getByLabel('Filter by scope').selectOption('user_identity');
        await page.getByLabel('Filter by kind').selectOption('preference');
      };
      await narrow(b.page);
      // An agent's event that needs a reviewer (a user's memory), sent through A.
      const content = 'The release manager prefers Tuesday deploys over Thursday ones.';
      const sent = await fetch(`${inst[0]!.url}/api/v1/ingest`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'memory_event',
          data: {
            event_id: 'ev-cluster-review',
            source_agent: 'a',
            kind: 'preference',
            content,
            suggested_scope: 'user_identity',
            confidence: 'high',
            timestamp: '2026-11-28T10:00:00Z',
          },
        }),
      });
      expect(sent.status).toBe(200);
      const t0 = Date.now();
      await expect
        .poll(async () => (await rowsOf(b.page)).some((r) => r.includes(content)), { timeout: 15_000 })
        .toBe(true);
      console.log(`[cluster] a proposal made through A showed in B's inbox after ${Date.now() - t0} ms, pushed`);
      // The first reviewer approves it on A (sent at once: no undo window); B's list drops it.
      await narrow(a.page);
      await a.page.getByLabel('Undo window: how long a decision is held before it is sent').selectOption('0');
      const row = a.page.getByTestId('inbox-list').locator('.inbox-row', { hasText: content });
      await row.locator('.row-pick').click();
      await a.page.getByTestId('proposal-content').waitFor();
      await a.page.keyboard.press('a');
      await expect
        .poll(async () => (await rowsOf(b.page)).some((r) => r.includes(content)), { timeout: 15_000 })
        .toBe(false);
    } finally {
      await a.browser.close();
      await b.browser.close();
    }
  });
});
