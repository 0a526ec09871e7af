/**
 * Load: sustained ingest for 60 s (DURATION_S) against the production server on loopback, on embedded PGlite
 * and on PostgreSQL (LOAD_DB) with the demo, while a second client runs the UI's main queries in a loop (the shell's
 * counts,
 * the session list, a session digest and a window of turns, the curation inbox, the recall
 * version). Prints throughput and p50/p95/p99 latency of both, with the error count. Loopback only,
 * bounded in time; the server's own rate limit is raised for the run.
 *
 *   npm run bench:load
 */
import './quiet';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startNextServer } from '@/server/test/next-server';
import { startPostgres } from '@/server/test/postgres';

const DURATION_S = Number(process.env.DURATION_S ?? 60);
const KEY = 'load-key-0123456789abcdef';
const BATCH = 200;

const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN;

function turns(run: number, n: number): string {
  return Array.from({ length: n }, (_, k) =>
    JSON.stringify({
      type: 'turn',
      data: {
        session_id: `load-${run}`,
        agent: 'load',
        turn: k,
        input: `question ${k} about the nginx upstream`,
        output: 'answer '.repeat(20),
        ccs: {
          goal_orientation: [`fix(502 step(${k % 7}))`],
          constraints: ['no_restart(business_hours)', `keep(t${k % 11})`],
          semantic_gist: [`upstream(keepalive ${k % 5})`],
        },
      },
    }),
  ).join('\n');
}

const trpc = (proc: string, input?: unknown) =>
  `/api/trpc/${proc}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`}`;
const UI = [
  trpc('system.info'),
  trpc('sessions.list'),
  trpc('sessions.digest', { id: 'itops-nginx-502' }),
  trpc('sessions.window', { id: 'itops-nginx-502', offset: 10, limit: 40 }),
  trpc('curation.inbox', { status: 'pending' }),
  trpc('recall.version'),
];

async function run(driver: 'pglite' | 'postgres') {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-load-'));
  const pg = driver === 'postgres' ? await startPostgres() : null;
  const server = await startNextServer({
    MNEMOSCOPE_DATA_DIR: dir,
    MNEMOSCOPE_DEMO: '1',
    MNEMOSCOPE_API_KEY: KEY,
    MNEMOSCOPE_RATE_LIMIT: '100000',
    DATABASE_URL: pg?.url ?? '',
  });
  try {
    // Warm up: the first requests compile nothing (production build) but load the models and caches.
    for (const u of UI) await fetch(server.url + u);
    const until = performance.now() + DURATION_S * 1000;
    const ingest = { ms: [] as number[], turns: 0, errors: 0 };
    const ui = { ms: [] as number[], errors: 0, by: new Map<string, number[]>() };
    const ingestLoop = (async () => {
      for (let run = 0; performance.now() < until; run++) {
        const t = performance.now();
        const r = await fetch(`${server.url}/api/v1/ingest`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/x-ndjson' },
          body: turns(run, BATCH),
        }).catch(() => null);
        ingest.ms.push(performance.now() - t);
        if (!r || r.status !== 200) ingest.errors++;
        else ingest.turns += ((await r.json()) as { accepted: number }).accepted;
      }
    })();
    const uiLoop = (async () => {
      for (let i = 0; performance.now() < until; i++) {
        const t = performance.now();
        const r = await fetch(server.url + UI[i % UI.length]!).catch(() => null);
        const ms = performance.now() - t;
        ui.ms.push(ms);
        const name = UI[i % UI.length]!.split('?')[0]!.replace('/api/trpc/', '');
        ui.by.set(name, [...(ui.by.get(name) ?? []), ms]);
        if (!r || !r.ok) ui.errors++;
        else await r.arrayBuffer();
      }
    })();
    await Promise.all([ingestLoop, uiLoop]);
    const f = (x: number) => x.toFixed(1);
    console.log(
      `\nLoad for ${DURATION_S} s on ${driver === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'} (demo loaded), ` +
        `loopback, one ingest client and one UI client`,
    );
    console.log(
      `ingest: ${ingest.ms.length} requests of ${BATCH} turns, ${Math.round(ingest.turns / DURATION_S)} turns/s, ` +
        `latency p50 ${f(pct(ingest.ms, 50))} / p95 ${f(pct(ingest.ms, 95))} / ` +
        `p99 ${f(pct(ingest.ms, 99))} ` +
        `ms, ` +
        `errors ${ingest.errors}`,
    );
    console.log(`UI p95 by query: ${[...ui.by].map(([k, v]) => `${k} ${f(pct(v, 95))}`).join(', ')} ms`);
    console.log(
      `UI queries: ${ui.ms.length} (${Math.round(ui.ms.length / DURATION_S)}/s), ` +
        `latency ` +
        `p50 ${f(pct(ui.ms, 50))} ` +
        `/ p95 ${f(pct(ui.ms, 95))} / p99 ${f(pct(ui.ms, 99))} ms, errors ${ui.errors}`,
    );
  } finally {
    server.kill('SIGKILL');
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  for (const driver of (process.env.LOAD_DB ?? 'pglite,postgres').split(',') as ('pglite' | 'postgres')[])
    await run(driver);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
