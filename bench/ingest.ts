/**
 * Ingest benchmark: 20,000 turns with ~1 KB of CCS each, sent to POST /api/v1/ingest in batches of
 * 500 by one and by two clients, on PostgreSQL and on embedded PGlite, next to the best raw path in the same run:
 * one `COPY` of the same rows (JSON columns as jsonb) into the same table, and a multi-row INSERT of them. Prints
 * turns/s and HTTP/COPY. The HTTP figure includes everything ingest does for a turn (validation, redaction, the
 * sessions list's figures, the news to open pages); the replay digests are caught up once ingest pauses, after
 * the measurement (each server is stopped when its row is measured, so that work does not land in the next row).
 *
 *   npm run bench            (TURNS=… BATCH=… to change the size)
 */
import './quiet';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import postgres from 'postgres';
import { PGlite } from '@electric-sql/pglite';
import { normalizeEnvelope } from '@/lib/ingest/normalize';
import { prepareBody } from '@/server/services/ingest-prepare';
import { migrateDb, openDb } from '@/server/db';
import { startPostgres } from '@/server/test/postgres';
import { startNextServer, type NextServer } from '@/server/test/next-server';

const TURNS = Number(process.env.TURNS ?? 20_000);
const BATCH = Number(process.env.BATCH ?? 500);
const KEY = 'bench-key-0123456789abcdef';
const root = path.resolve(import.meta.dirname, '..');

function makeTurns(): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < TURNS; i++) {
    const s = Math.floor(i / 1000);
    const t = i % 1000;
    out.push({
      type: 'turn',
      data: {
        session_id: `bench-${s}`,
        agent: `bench-agent-${s % 4}`,
        turn: t,
        input:
          `Turn ${t}: the 502 rate on api-${t % 7}.internal is ${(t % 50) / 10}% after the reload; check ` +
          `upstream keepalive on node ${t % 13}.`,
        output:
          `Checked upstream ${t % 13}: keepAliveTimeout 5000 ms vs nginx 60 s. Proposed keepalive_timeout ` +
          `4s by reload; no restart during business hours.`,
        ccs: {
          episodic_trace: [
            `observed(502_spikes turn(${t}))`,
            `checked(upstream_${t % 13} keepalive)`,
            'held(constraint no_restart(nginx))',
          ],
          semantic_gist: ['mitigate(502)', 'diagnose(upstream_instability)'],
          focal_entities: [
            'host(vm_ubuntu22_04)',
            'service(nginx)',
            `service(node_upstream_${t % 13})`,
            'feature(http2)',
            'signal(error_502)',
            `config(upstream_keepalive_${t % 5})`,
          ],
          relational_map: [
            'timing(502_spikes after(http2_enable))',
            'mismatch(nginx_keepalive(60s) node_keepalive(5s))',
            `correlates(502_bursts low_traffic window(${t % 24}h))`,
          ],
          goal_orientation: ['reduce(502_rate within(10min))', 'preserve(service_availability)'],
          constraints: [
            'no_restart(nginx)',
            'reload_allowed(nginx)',
            'safe_change(minimal)',
            'avoid(speculation)',
            'retry_only(idempotent_requests)',
          ],
          predictive_cue: [
            'check(upstream_latency)',
            'check(node_memory_growth)',
            'validate(nginx_timeouts)',
            `monitor(502_rate ${30 + (t % 30)}min)`,
          ],
          uncertainty_signal: ['level(medium)', `gaps(root_cause not_confirmed step(${t}))`],
          retrieved_artifacts: [
            `artifact(log_nginx_err_${t % 100} source(journald))`,
            'artifact(rb_nginx_keepalive source(wiki/runbooks))',
          ],
        },
        recalled: [
          { id: `log_nginx_err_${t % 100}`, score: 0.91 },
          { id: 'rb_nginx_keepalive', score: 0.84 },
          { id: 'dash_502_rate', score: 0.77 },
        ],
        qualified: [`log_nginx_err_${t % 100}`, 'rb_nginx_keepalive'],
        footprint: { ccs: 260 + (t % 20), transcript: 420 + t * 75, retrieval: 900 + (t % 40) },
        judge: { relevance: 8.9, answer_quality: 8.6, instruction_following: 9.1, coherence: 8.8 },
        hallucination: (t % 10) / 100,
        drift: t === 0 ? null : (t % 7) / 100,
        timestamp: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
      },
    });
  }
  return out;
}

/** Sends the batches with `clients` requests in flight at a time (as a batching SDK with a small pool would). */
async function overHttp(url: string, bodies: string[], clients: number): Promise<number> {
  // Warm-up: the first requests load the route and JIT the validators; not part of the figure.
  const warm = bodies[0]!.replace(/"session_id":"bench-/g, '"session_id":"warmup-');
  await fetch(`${url}/api/v1/ingest`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: warm });
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!;
      const r = await fetch(`${url}/api/v1/ingest`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/x-ndjson' },
        body,
      });
      const j = (await r.json()) as { accepted: number };
      if (j.accepted !== BATCH) throw new Error(`batch not fully accepted: ${JSON.stringify(j).slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  return TURNS / ((performance.now() - t0) / 1000);
}

/**
 * The same rows (all 18 columns), already validated, inserted with the driver alone: multi-row INSERTs of BATCH rows,
 * one transaction each.
 */
function rawRows(envs: unknown[]) {
  return envs.map((e) => {
    const n = normalizeEnvelope(e);
    if (!n.ok || n.record.type !== 'turn') throw new Error('bad row');
    const r = n.record;
    return [
      'default',
      r.sessionId,
      r.turn,
      r.agentId,
      r.input,
      r.output,
      r.ccsRaw === null ? null : JSON.stringify(r.ccsRaw),
      JSON.stringify(r.ccs),
      JSON.stringify(r.recalled),
      JSON.stringify(r.qualified),
      JSON.stringify(r.footprint),
      JSON.stringify(r.judge),
      r.hallucination,
      r.drift,
      r.timestamp,
      r.timestamp,
      JSON.stringify(r.extra),
      JSON.stringify(r.redactions),
    ];
  });
}
const COLS =
  'project_id, session_id, turn, agent_id, input, output, ccs_raw, ccs, recalled, qualified, footprint, judge, ' +
  'hallucination, drift, "timestamp", ts, extra, redactions';
function insertSql(n: number): string {
  const per = 18;
  const casts = [
    '',
    '',
    '',
    '',
    '',
    '',
    '::jsonb',
    '::jsonb',
    '::jsonb',
    '::jsonb',
    '::jsonb',
    '::jsonb',
    '',
    '',
    '',
    '::timestamptz',
    '::jsonb',
    '::jsonb',
  ];
  const rows = Array.from({ length: n }, (_, r) => `(${casts.map((c, i) => `$${r * per + i + 1}${c}`).join(',')})`);
  return `insert into turns (${COLS}) values ${rows.join(',')}`;
}
async function prepareSessions(exec: (q: string) => Promise<unknown>) {
  await exec(
    `insert into sessions (project_id, id, agent_id) select 'default', 'bench-' || g, ` +
      `'bench' ` +
      `from ` +
      `generate_series(0, ${Math.ceil(TURNS / 1000) - 1}) g`,
  );
}

async function rawPostgres(url: string, rows: unknown[][]): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await prepareSessions((q) => sql.unsafe(q));
  const t0 = performance.now();
  for (let i = 0; i < rows.length; i += BATCH) {
    const chunk = rows.slice(i, i + BATCH);
    await sql.begin((tx) => tx.unsafe(insertSql(chunk.length), chunk.flat() as never[]));
  }
  const rate = TURNS / ((performance.now() - t0) / 1000);
  await sql.end();
  return rate;
}

/** The rows in COPY's text format (tab-separated, `\N` for null, backslash escapes). */
function copyText(rows: unknown[][]): string {
  const esc = (v: unknown) =>
    v === null || v === undefined
      ? '\\N'
      : String(v).replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);
  return rows.map((r) => r.map(esc).join('\t')).join('\n') + '\n';
}

/** One COPY of every row, in one transaction: the fastest way in that each driver offers. */
async function copyPostgres(url: string, rows: unknown[][]): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await prepareSessions((q) => sql.unsafe(q));
  const text = copyText(rows);
  const t0 = performance.now();
  const w = await sql.unsafe(`copy turns (${COLS}) from stdin`).writable();
  await pipeline(Readable.from([text]), w);
  const rate = TURNS / ((performance.now() - t0) / 1000);
  const [c] = await sql<{ n: number }[]>`select count(*)::int as n from turns`;
  if (c?.n !== TURNS) throw new Error(`COPY stored ${c?.n} rows`);
  await sql.end();
  return rate;
}

/** A migrated PGlite in `dir` with the project and the sessions, opened by the driver alone. */
async function freshPglite(dir: string): Promise<PGlite> {
  const h = await openDb({ dataDir: dir });
  await migrateDb(h);
  await h.close();
  const db = await PGlite.create({ dataDir: path.join(dir, 'pglite') });
  await db.query(`insert into projects (id, name) values ('default', 'bench') on conflict do nothing`);
  await prepareSessions((q) => db.query(q));
  return db;
}

async function copyPglite(dir: string, rows: unknown[][]): Promise<number> {
  const db = await freshPglite(dir);
  const text = copyText(rows);
  const t0 = performance.now();
  await db.query(`copy turns (${COLS}) from '/dev/blob'`, [], { blob: new Blob([text]) });
  const rate = TURNS / ((performance.now() - t0) / 1000);
  const { rows: c } = await db.query<{ n: number }>('select count(*)::int as n from turns');
  if (c[0]!.n !== TURNS) throw new Error(`COPY stored ${c[0]!.n} rows`);
  await db.close();
  return rate;
}

async function rawPglite(dir: string, rows: unknown[][]): Promise<number> {
  const db = await freshPglite(dir);
  const t0 = performance.now();
  for (let i = 0; i < rows.length; i += BATCH) {
    const chunk = rows.slice(i, i + BATCH);
    await db.transaction((tx) => tx.query(insertSql(chunk.length), chunk.flat()));
  }
  const rate = TURNS / ((performance.now() - t0) / 1000);
  await db.close();
  return rate;
}

async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await sql.unsafe(`create database ${name}`);
  await sql.end();
  const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
  const h = await openDb({ url });
  await migrateDb(h);
  await h.db.execute(`insert into projects (id, name) values ('default', 'bench') on conflict do nothing` as never);
  await h.close();
  return url;
}

async function main() {
  if (!existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    console.log('building the app…');
    if (
      spawnSync(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
      }).status
    )
      process.exit(1);
  }
  const envs = makeTurns();
  const bytes = envs.reduce<number>((n, e) => n + JSON.stringify((e as { data: { ccs: unknown } }).data.ccs).length, 0);
  console.log(
    `ingest benchmark: ${TURNS} turns, mean CCS ${Math.round(bytes / TURNS)} bytes, ` +
      `batches ` +
      `of ${BATCH}, ` +
      `one ` +
      `client, ${os.cpus().length} cores`,
  );
  const bodies: string[] = [];
  for (let i = 0; i < envs.length; i += BATCH)
    bodies.push(
      envs
        .slice(i, i + BATCH)
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
  const rows = rawRows(envs);

  const pg = await startPostgres();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-bench-'));
  const procs: NextServer[] = [];
  try {
    const results: { db: string; clients: number; http: number; raw: number; copy: number }[] = [];

    const rawPg = await rawPostgres(await freshDatabase(pg.url, 'bench_raw'), rows);
    const copyPg = await copyPostgres(await freshDatabase(pg.url, 'bench_copy'), rows);
    for (const clients of [1, 2]) {
      const srv = await startNextServer({
        MNEMOSCOPE_API_KEY: KEY,
        DATABASE_URL: await freshDatabase(pg.url, `bench_http_${clients}`),
      });
      procs.push(srv);
      const http = await overHttp(srv.url, bodies, clients);
      // Stopped at once: its replay digests are caught up when ingest pauses, which would run during the next row.
      srv.kill();
      results.push({ db: 'PostgreSQL 15', clients, http, raw: rawPg, copy: copyPg });
    }

    const rawLite = await rawPglite(path.join(tmp, 'raw'), rows);
    const copyLite = await copyPglite(path.join(tmp, 'copy'), rows);
    for (const clients of [1, 2]) {
      const srv = await startNextServer({
        MNEMOSCOPE_API_KEY: KEY,
        MNEMOSCOPE_DATA_DIR: path.join(tmp, `http_${clients}`),
        DATABASE_URL: '',
      });
      procs.push(srv);
      const http = await overHttp(srv.url, bodies, clients);
      srv.kill();
      results.push({ db: 'PGlite (on disk)', clients, http, raw: rawLite, copy: copyLite });
    }

    // Where a request's time goes, measured apart: the validation the server runs on every turn, in this process.
    // The bench's turns hold no word the redactor's gate looks for; real text often does ("passed", "tokens", an
    // e-mail address), and then its rules run: measured on the same turns with such a sentence in each output.
    const gateOpen = (b: string) =>
      b.replace(/business hours\./g, 'business hours. Tests passed; 1,200 tokens used; paged ops@example.com.');
    const perTurn = (texts: string[]) => {
      const encoded = texts.map((b) => new TextEncoder().encode(b));
      const reps: number[] = [];
      for (let rep = 0; rep < 3; rep++) {
        const t0 = performance.now();
        for (const b of encoded) {
          const r = prepareBody(b, BATCH);
          if (!r.ok || r.prepared.rejected.length) throw new Error("the bench's turns were refused");
        }
        reps.push(((performance.now() - t0) * 1000) / TURNS);
      }
      return reps.sort((a, b) => a - b)[1]!;
    };
    const plain = perTurn(bodies);
    const realistic = perTurn(bodies.map(gateOpen));
    console.log(
      `\nparsing, validating, redacting and serialising a turn alone (median of 3): ${plain.toFixed(1)} µs; ` +
        `${realistic.toFixed(1)} µs when its text opens the redactor's gate (an e-mail to redact); ` +
        `COPY on PostgreSQL stores one in ${(1e6 / copyPg).toFixed(1)} µs`,
    );
    console.log(
      '\n| database | requests in flight | HTTP ingest (turns/s) | multi-row INSERT (rows/s) | COPY (rows/s) | ' +
        'HTTP / COPY |',
    );
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const r of results)
      console.log(
        `| ${r.db} | ${r.clients} | ${Math.round(r.http)} | ${Math.round(r.raw)} | ${Math.round(r.copy)} | ` +
          `${(r.http / r.copy).toFixed(2)} |`,
      );
    for (const r of results)
      console.log(
        `target ${r.db}, ${r.clients} in flight: HTTP ≥ 0.5 × COPY ` +
          `(${r.http / r.copy >= 0.5 ? 'met' : 'NOT met'}: ${(r.http / r.copy).toFixed(2)})` +
          (r.db.startsWith('PostgreSQL') && r.clients === 2
            ? `; ≥ 10,000 turns/s (${r.http >= 10_000 ? 'met' : 'NOT met'}: ${Math.round(r.http)})`
            : ''),
      );
  } finally {
    for (const p of procs) p.kill();
    pg.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
