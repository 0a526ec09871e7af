import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { rowsOf, type DbHandle } from '@/server/db';
import { DRIVERS, freshDb } from '@/server/test/db';
import { seedDemo } from '@/server/demo/seed';
import { ingest } from './ingest';
import { rebuildSessionStats } from './session-stats';
import { listSessions, pageSessions, turnPosition } from './sessions';
import { indexOfTurnInRuns } from '@/lib/ccs/digest';
import { filterSessions, sortSessions, SESSION_SORTS, type SessionSort } from '@/lib/sessions/list';

const turns = (session: string, numbers: number[]) =>
  numbers.map((n) => ({
    ok: true as const,
    value: {
      type: 'turn',
      data: {
        session_id: session,
        agent: 'a',
        turn: n,
        input: `in ${n}`,
        output: 'out',
        ccs: { constraints: ['keep(x)'] },
        hallucination: (n % 10) / 10,
        drift: n / 1000,
        timestamp: new Date(Date.UTC(2026, 10, 1) + n * 60_000).toISOString(),
        // A traced agent's work on some turns (as OTLP whole traces leave it in the turn's extra fields).
        ...(n % 2
          ? // An agent's own `usage` of another shape is no figure, and no error; nor is a negative count or time.
            n % 3
            ? {}
            : { usage: { cost: '$0.01', input_tokens: { n: 1 }, output_tokens: -3, latency_ms: -5 } }
          : { usage: { input_tokens: n, output_tokens: 1, cost: n / 1000, latency_ms: 10 * n } }),
      },
    },
  }));

/** A migration's file by its name. */
const file = (name: string) => readdirSync('drizzle').find((f) => new RegExp(`^\\d+_${name}\\.sql$`).test(f))!;

/**
 * The back-fill statement of the migration that made `session_stats`, then the later recounts of D̄ (ACC §5.3: from
 * turn 2, then without the session's first turn), as upgraded databases run them.
 */
const backfill = () => {
  const made = readFileSync(`drizzle/${file('session_stats')}`, 'utf8')
    .split('--> statement-breakpoint')
    .find((x) => x.includes('-- Back-fill'))!;
  return [
    made,
    readFileSync(`drizzle/${file('drift_from_turn_2')}`, 'utf8'),
    ...readFileSync(`drizzle/${file('drift_leaves_out_first_turn')}`, 'utf8')
      .split('--> statement-breakpoint')
      .filter((x) => x.includes('UPDATE')),
  ];
};

const stored = async (h: DbHandle) =>
  rowsOf<Record<string, unknown>>(
    await h.db.execute(sql`select session_id, turn_count, to_jsonb(first_at) #>> '{}' as first_at,
      to_jsonb(last_at) #>> '{}' as last_at, h_n, d_n, round(d_sum::numeric, 9)::float8 as d_sum, first_turn,
      first_drift, width, ccs, transcript from session_stats
      order by project_id, session_id`),
  );

const usage = async (h: DbHandle) =>
  rowsOf<Record<string, unknown>>(
    await h.db.execute(sql`select session_id, tokens, tokens_n, cost, cost_n, latency_sum, latency_n
      from session_stats order by project_id, session_id`),
  ).map((r) =>
    // Sums in another order (a batch at a time, or SQL's) differ in the last bits of a float.
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'session_id' ? v : +Number(v).toFixed(9)])),
  );

describe.each(DRIVERS)('session figures on %s', (driver) => {
  let h: DbHandle;
  afterAll(async () => h?.close());

  it('are kept by ingest, batch by batch and concurrently, exactly as a rebuild from the turns', async () => {
    h = await freshDb(driver);
    await seedDemo(h.db, 'default');
    // Out of order, with a repeat (a retried batch adds nothing), past the 64th turn, and four batches at once.
    await ingest(h.db, 'default', turns('long', [70, 71, 72, 1, 2, 3]), 'test');
    await ingest(h.db, 'default', turns('long', [3, 4, 5, 200]), 'test');
    await Promise.all(
      [0, 1, 2, 3].map((k) =>
        ingest(
          h.db,
          'default',
          turns(
            'long',
            Array.from({ length: 25 }, (_, i) => 300 + k * 25 + i),
          ),
          'test',
        ),
      ),
    );
    // A session numbered from 0, its first turn last: D̄ leaves out turn 0, not turn 1.
    await ingest(h.db, 'default', turns('zero', [2, 1]), 'test');
    await ingest(h.db, 'default', turns('zero', [0]), 'test');
    expect((await listSessions(h.db, 'default')).find((x) => x.id === 'zero')?.meanDrift).toBeCloseTo(0.0015, 12);
    const incremental = await stored(h);
    const usageBefore = await usage(h);
    // 109 turns, of which the even-numbered ones (54) sent usage: tokens n + 1, cost n / 1000, latency 10 n.
    const evens = [2, 4, 70, 72, 200, ...Array.from({ length: 100 }, (_, i) => 300 + i).filter((n) => n % 2 === 0)];
    expect(usageBefore.find((r) => r.session_id === 'long')).toEqual({
      session_id: 'long',
      tokens: evens.reduce((a, n) => a + n + 1, 0),
      tokens_n: evens.length,
      cost: expect.closeTo(
        evens.reduce((a, n) => a + n / 1000, 0),
        9,
      ),
      cost_n: evens.length,
      latency_sum: evens.reduce((a, n) => a + 10 * n, 0),
      latency_n: evens.length,
    });
    const long = incremental.find((r) => r.session_id === 'long')!;
    expect(long).toMatchObject({ turn_count: 109, width: 8, h_n: 109 });
    await h.db.execute(sql`delete from session_stats`);
    expect(await rebuildSessionStats(h.db, 'missing')).toBe(incremental.length);
    expect(await stored(h)).toEqual(incremental);
    expect(await usage(h)).toEqual(usageBefore);
    expect(await rebuildSessionStats(h.db, 'missing')).toBe(0);
    // The migration's back-fill gives the same figures.
    await h.db.execute(sql`delete from session_stats`);
    for (const statement of backfill()) await h.db.execute(sql.raw(statement));
    expect(await stored(h)).toEqual(incremental);
    // Sums an older version kept (it counted the odd turns' output_tokens -3 and latency -5): the recount migration
    // puts back the figures of the rule, and leaves sessions that sent no usage as they are.
    // One valid token count beside a negative one counts the valid one (as `usageSql`), a negative cost nothing.
    await ingest(
      h.db,
      'default',
      [
        {
          ok: true,
          value: {
            type: 'turn',
            data: {
              session_id: 'mixed',
              agent: 'a',
              turn: 1,
              input: 'i',
              output: 'o',
              ccs: { constraints: ['keep(x)'] },
              usage: { input_tokens: 5, output_tokens: -3, cost: -1, latency_ms: 7 },
            },
          },
        },
      ],
      'test',
    );
    const right = await usage(h);
    expect(right.find((r) => r.session_id === 'mixed')).toEqual({
      session_id: 'mixed',
      tokens: 5,
      tokens_n: 1,
      cost: 0,
      cost_n: 0,
      latency_sum: 7,
      latency_n: 1,
    });
    await h.db.execute(sql`update session_stats set tokens = 2, cost = -1, cost_n = 1 where session_id = 'mixed'`);
    await h.db.execute(sql`update session_stats set tokens = tokens - 3, tokens_n = tokens_n + 1, latency_sum = -5,
      latency_n = latency_n + 1 where session_id = 'long'`);
    await h.db.execute(sql`update session_stats set cost = 7, cost_n = 1 where session_id not in ('long', 'mixed')`);
    const sent = new Set(['long', 'zero', 'mixed']);
    const noUsage = (await usage(h)).filter((r) => !sent.has(r.session_id as string));
    await h.db.execute(sql.raw(readFileSync(`drizzle/${file('usage_not_below_zero')}`, 'utf8')));
    const after = await usage(h);
    for (const id of sent)
      expect(after.find((r) => r.session_id === id)).toEqual(
        (id === 'mixed' ? right : usageBefore).find((r) => r.session_id === id),
      );
    expect(after.filter((r) => !sent.has(r.session_id as string))).toEqual(noUsage);
  });

  it('give the sessions list the figures of the turns without reading them', async () => {
    const list = await listSessions(h.db, 'default');
    const truth = rowsOf<{ session_id: string; n: number; h: number | null; last: string | null }>(
      await h.db.execute(sql`select session_id, count(*)::int as n, avg(hallucination)::float8 as h,
        to_jsonb(max(ts)) #>> '{}' as last from turns where project_id = 'default' group by session_id`),
    );
    expect(list.length).toBeGreaterThan(5);
    for (const t of truth) {
      const s = list.find((x) => x.id === t.session_id)!;
      expect(s.turnCount, t.session_id).toBe(t.n);
      if (t.h === null) expect(s.meanHallucination).toBeNull();
      else expect(s.meanHallucination).toBeCloseTo(t.h, 9);
      expect(s.lastAt === null ? null : Date.parse(s.lastAt)).toBe(t.last === null ? null : Date.parse(t.last));
    }
    // Most recent first, sessions without turns last.
    const times = list.map((s) => (s.lastAt ? Date.parse(s.lastAt) : -Infinity));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Where a link to ?turn= opens, without the digest: as indexOfTurnInRuns finds it in the digest's runs.
    const numbers = rowsOf<{ turn: number }>(
      await h.db.execute(
        sql`select turn from turns where project_id = 'default' and session_id = 'long' order by turn`,
      ),
    ).map((r) => r.turn);
    const runs: [number, number][] = [];
    for (const n of numbers) {
      const run = runs.at(-1);
      if (run && run[0] + run[1] === n) run[1]++;
      else runs.push([n, 1]);
    }
    for (const t of [-5, 0, 1, 6, 69, 70, 150, 200, 399, 1000])
      expect(await turnPosition(h.db, 'default', 'long', t), `turn ${t}`).toBe(indexOfTurnInRuns(runs, t));
    const long = list.find((s) => s.id === 'long')!;
    expect(long.footprint.ccs.length).toBeLessThanOrEqual(64);
  });

  it('page the list in the database exactly as the browser would sort and search the whole of it', async () => {
    for (let i = 0; i < 7; i++)
      await ingest(
        h.db,
        'default',
        [{ ok: true, value: { type: 'session', data: { id: `empty-${i}`, agent: 'b' } } }],
        't',
      );
    // When each arrived: the place in time of a session whose turns carry none.
    const arrived = new Map(
      rowsOf<{ id: string; at: string }>(
        await h.db.execute(
          sql`select id, to_jsonb(created_at) #>> '{}' as at from sessions where project_id = 'default'`,
        ),
      ).map((r) => [r.id, r.at]),
    );
    const all = (await listSessions(h.db, 'default')).map((x) => ({ ...x, createdAt: arrived.get(x.id) ?? null }));
    for (const search of ['', 'nginx', 'A', 'no such words']) {
      for (const sort of Object.keys(SESSION_SORTS) as SessionSort[]) {
        const expected = sortSessions(filterSessions(all, search), sort).map((s) => s.id);
        const got: string[] = [];
        let cursor: number | null = 0;
        let pages = 0;
        while (cursor !== null) {
          const page = await pageSessions(h.db, 'default', { search, sort, offset: cursor, limit: 4 });
          expect(page.matching).toBe(expected.length);
          expect(page.total.sessions).toBe(all.length);
          got.push(...page.items.map((s) => s.id));
          cursor = page.next;
          pages++;
        }
        expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 4)));
        if (sort === 'title') expect(new Set(got), `${search}/${sort}`).toEqual(new Set(expected));
        else expect(got, `${search}/${sort}`).toEqual(expected);
      }
    }
    const total = await pageSessions(h.db, 'default', { sort: 'recent', offset: 0, limit: 1 });
    expect(total.total.turns).toBe(all.reduce((n, s) => n + s.turnCount, 0));
    // Whether a traced agent's figures can sort anything: in a project of plain turns (a usage of another shape is
    // no figure) none sent them, and the list says so instead of sorting by nothing; one traced turn is enough.
    await h.db.execute(sql`insert into projects (id, name) values ('plain', 'Plain')`);
    await ingest(h.db, 'plain', turns('p', [1, 3]), 't');
    const plain = await pageSessions(h.db, 'plain', { sort: 'tokens', offset: 0, limit: 5 });
    expect(plain.total).toEqual({ sessions: 1, turns: 2, traced: { tokens: false, cost: false, latency: false } });
    await ingest(h.db, 'plain', turns('q', [2]), 't');
    const traced = await pageSessions(h.db, 'plain', { sort: 'tokens', offset: 0, limit: 5 });
    expect(traced.total.traced).toEqual({ tokens: true, cost: true, latency: true });
    expect(traced.items.map((x) => x.id)).toEqual(['q', 'p']);
  });
});
