/**
 * The sessions list as the project grows, with 10,000 sessions and 100,000 → 1,000,000 turns, on PostgreSQL and
 * on PGlite: `pageSessions` (what the Sessions page asks for: one page of 100, searched and sorted by the database)
 * and `listSessions` (every session), against the query they replaced (aggregating every turn of every session on
 * each call) in the same run. Turns are generated in the database (`generate_series`), the
 * figures made by the same rebuild an import runs. Latency is wall time per call as the API waits for it;
 * median and p95 of 15 calls after one cold call, which is reported on its own. Also the app shell's counts (asked
 * on every page) and Settings' storage counts, against counting the project's turns, as they were before.
 *
 *   npm run bench:sessions
 */
import './quiet';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import { migrateDb, openDb, type DbHandle } from '@/server/db';
import { sessions, turns } from '@/server/db/schema/sessions';
import { rebuildSessionStats } from '@/server/services/session-stats';
import { listSessions, pageSessions } from '@/server/services/sessions';
import { projectCounts, storageCounts } from '@/server/services/system';
import { startPostgres } from '@/server/test/postgres';

const SESSIONS = 10_000;
const SIZES = [100_000, 1_000_000];
const CALLS = 15;

/** The list as it was before `session_stats`: every turn of the project read on every call. */
async function listByAggregating(db: DbHandle['db'], projectId: string) {
  return db
    .select({
      id: sessions.id,
      turnCount: sql<number>`count(${turns.turn})::int`,
      lastAt: sql`max(${turns.ts})`,
      meanH: sql<number | null>`avg(${turns.hallucination})::float8`,
      ccs: sql`json_agg((${turns.footprint}->>'ccs')::float8 order by ${turns.turn})`,
      transcript: sql`json_agg((${turns.footprint}->>'transcript')::float8 order by ${turns.turn})`,
    })
    .from(sessions)
    .leftJoin(turns, and(eq(turns.projectId, sessions.projectId), eq(turns.sessionId, sessions.id)))
    .where(eq(sessions.projectId, projectId))
    .groupBy(sessions.projectId, sessions.id)
    .orderBy(sql`max(${turns.ts}) desc nulls last`, asc(sessions.id));
}

async function fill(h: DbHandle, total: number, have: number) {
  if (have === 0) {
    await h.db.execute(sql`insert into projects (id, name) values ('default', 'Default') on conflict do nothing`);
    await h.db.execute(sql`insert into agents (project_id, id) values ('default', 'bench') on conflict do nothing`);
  }
  await h.db.execute(sql`
    insert into sessions (project_id, id, agent_id, title)
    select 'default', 's' || lpad(g::text, 5, '0'), 'bench', 'Session ' || g
      from generate_series(1, ${SESSIONS}::int) g on conflict do nothing`);
  const perSession = total / SESSIONS;
  const from = have / SESSIONS + 1;
  // Turns `from`..`perSession` of every session, in slices so that neither database holds one huge statement.
  for (let t = from; t <= perSession; t += 10) {
    const to = Math.min(perSession, t + 9);
    await h.db.execute(sql`
      insert into turns (project_id, session_id, turn, agent_id, input, output, ccs, recalled, qualified, footprint,
                         hallucination, drift, ts)
      select 'default', 's' || lpad(s::text, 5, '0'), n, 'bench', 'question ' || n, 'answer ' || n,
             '{"constraints": ["keep(x)"]}'::jsonb, '[]'::jsonb, '[]'::jsonb,
             jsonb_build_object('ccs', 40 + n % 7, 'transcript', 100 * n), (n % 10) / 10.0, (n % 4) / 4.0,
             timestamptz '2026-11-01' + make_interval(secs => s * 600 + n)
        from generate_series(1, ${SESSIONS}::int) s, generate_series(${t}::int, ${to}::int) n`);
  }
  await h.db.execute(sql`delete from session_stats`);
  await rebuildSessionStats(h.db, { projectId: 'default' });
}

async function time(f: () => Promise<unknown>) {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

const q = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

async function measure(name: string, f: () => Promise<unknown>) {
  const cold = await time(f);
  const runs: number[] = [];
  for (let i = 0; i < CALLS; i++) runs.push(await time(f));
  return { name, cold, p50: q(runs, 0.5), p95: q(runs, 0.95) };
}

async function bench(driver: 'postgres' | 'pglite') {
  const pg = driver === 'postgres' ? await startPostgres() : null;
  const dir = driver === 'pglite' ? mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-bench-')) : null;
  const h = await openDb(pg ? { url: pg.url } : { dataDir: dir! });
  await migrateDb(h);
  const rows: string[][] = [];
  let have = 0;
  const p50s: Record<string, number[]> = {};
  try {
    for (const total of SIZES) {
      const t0 = performance.now();
      await fill(h, total, have);
      have = total;
      const fillS = ((performance.now() - t0) / 1000).toFixed(0);
      for (const m of [
        await measure('sessions.page, first 100 (the page)', () =>
          pageSessions(h.db, 'default', { sort: 'recent', offset: 0, limit: 100 }),
        ),
        await measure('sessions.page, search "s099", by turns', () =>
          pageSessions(h.db, 'default', { search: 's099', sort: 'turns', offset: 0, limit: 100 }),
        ),
        await measure('listSessions, all 10,000 (session_stats)', () => listSessions(h.db, 'default')),
        await measure('aggregating every turn (before)', () => listByAggregating(h.db, 'default')),
        await measure("app shell's counts (every page)", () => projectCounts(h.db, 'default')),
        await measure("Settings' storage counts", () => storageCounts(h.db, 'default')),
        await measure("app shell's turns counted (before)", () =>
          h.db.execute(sql`select count(*)::int from turns where project_id = 'default'`),
        ),
      ]) {
        (p50s[m.name] ??= []).push(m.p50);
        rows.push([driver, `${SESSIONS} / ${total}`, m.name, ms(m.cold), ms(m.p50), ms(m.p95), `${fillS} s`]);
      }
    }
  } finally {
    await h.close();
    pg?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  return { rows, p50s };
}

const header = ['database', 'sessions / turns', 'query', 'cold', 'p50', 'p95', '(fill)'];
const all: string[][] = [];
const growth: string[] = [];
for (const driver of ['postgres', 'pglite'] as const) {
  const { rows, p50s } = await bench(driver);
  all.push(...rows);
  for (const [name, xs] of Object.entries(p50s))
    growth.push(`${driver}: ${name}: p50 ×${(xs[1]! / xs[0]!).toFixed(2)} from 100k to 1M turns`);
  const [page, , whole, before] = Object.values(p50s);
  const share = (x: number[]) => `${((x.at(-1)! / before!.at(-1)!) * 100).toFixed(1)}%`;
  growth.push(`${driver}: at 1M turns, of the query before: the page ${share(page!)}, the whole list ${share(whole!)}`);
}
const widths = header.map((h, i) => Math.max(h.length, ...all.map((r) => r[i]!.length)));
const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
console.log(line(header));
for (const r of all) console.log(line(r));
console.log('');
for (const g of growth) console.log(g);
