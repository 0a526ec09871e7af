import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { rowsOf, type DbHandle } from '@/server/db';
import { DRIVERS, freshDb } from '@/server/test/db';
import { BLAME_COUNT_CAP, DIGEST_VERSION, DigestBuilder, digestView, type SessionDigest } from '@/lib/ccs/digest';
import { blame, buildHistory } from '@/lib/ccs/provenance';
import { ingest } from './ingest';
import { digestShape, refreshDigest, sessionDigestJson, sessionStamp, windowBlame } from './session-digest';

const ccsOf = (n: number) => ({
  goal_orientation: [`goal(${Math.floor(n / 40)})`],
  constraints: [...(n % 5 ? ['keep(x)'] : []), `level(${n % 3 ? 'low' : 'high'})`],
  focal_entities: [`service(s${n % 4})`],
});

const turnItems = (session: string, numbers: number[]) =>
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
        ccs: ccsOf(n),
        hallucination: (n % 10) / 10,
        footprint: { ccs: 100 + n, transcript: 10 * n },
        ...(n % 17 === 0 ? { stress: 'conflict' } : {}),
      },
    },
  }));

/** The digest built in one pass over the given turns, in memory: what the stored one must equal. */
function expected(numbers: number[]): SessionDigest {
  const b = new DigestBuilder();
  for (const n of [...numbers].sort((a, c) => a - c))
    b.push({
      turn: n,
      timestamp: null,
      stress: n % 17 === 0 ? 'conflict' : null,
      footprint: { ccs: 100 + n, transcript: 10 * n },
      hallucination: (n % 10) / 10,
      drift: null,
      judge: null,
      ccs: ccsOf(n),
    });
  return JSON.parse(JSON.stringify(b.digest)) as SessionDigest;
}

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, k) => a + k);

describe.each(DRIVERS)('the session digest on %s', (driver) => {
  let h: DbHandle;
  afterAll(async () => h?.close());

  it('catches up turn batch by turn batch, and equals a build of the whole session', async () => {
    h = await freshDb(driver);
    await h.db.execute(sql`insert into projects (id, name) values ('default', 'Default') on conflict do nothing`);
    await ingest(h.db, 'default', turnItems('s', range(1, 120)), 'test');
    expect((await refreshDigest(h.db, 'default', 's')).digest).toEqual(expected(range(1, 120)));
    const stamp = await sessionStamp(h.db, 'default', 's');
    for (const batch of [range(121, 130), range(131, 6200)])
      await ingest(h.db, 'default', turnItems('s', batch), 'test');
    expect(await sessionStamp(h.db, 'default', 's')).not.toBe(stamp);
    // Four chunks to catch up: between them the process runs its timers (and answers requests), on the embedded
    // database too, where no query waits for I/O.
    let ticks = 0;
    const tick = setInterval(() => ticks++, 0);
    const d = JSON.parse(await sessionDigestJson(h.db, 'default', 's')) as SessionDigest & { stamp: string };
    clearInterval(tick);
    expect(ticks).toBeGreaterThanOrEqual(3);
    expect(d.stamp).toBe(await sessionStamp(h.db, 'default', 's'));
    // As the browser gets it: keep(x) comes and goes 1,240 times, so its runs closer than a bucket are joined.
    expect({ ...d, stamp: undefined }).toEqual({ ...digestView(expected(range(1, 6200))), stamp: undefined });
    expect((await refreshDigest(h.db, 'default', 's')).digest).toEqual(expected(range(1, 6200)));
    expect(d.size).toBe(8);
    // Every event once: as many as the in-memory history has.
    const [count] = rowsOf<{ n: number }>(
      await h.db.execute(sql`select count(*)::int as n from term_events where session_id = 's'`),
    );
    const history = buildHistory(range(1, 6200).map((n) => ({ turn: n, ccs: ccsOf(n) })));
    expect(count!.n).toBe([...history.events.values()].reduce((a, l) => a + l.length, 0));
  });

  it("gives the stored digest's shape as the browser gets it: alert counts, series with values, in order", async () => {
    // Turn 3 is the only one with a judge score; no turn has a drift.
    const items = turnItems('shape', range(1, 40)).map((t) =>
      t.value.data.turn === 3 ? { ...t, value: { ...t.value, data: { ...t.value.data, judge: { coherence: 8 } } } } : t,
    );
    await ingest(h.db, 'default', items, 'test');
    expect(await digestShape(h.db, 'default', 'shape')).toBeNull();
    const d = JSON.parse(await sessionDigestJson(h.db, 'default', 'shape')) as SessionDigest;
    const shape = await digestShape(h.db, 'default', 'shape');
    expect(shape!.alertCounts).toEqual(d.alertCounts);
    expect(Object.values(shape!.alertCounts).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    // Keys in the order the page's JSON has them (it colours series by it), without those that never had a value.
    const withValues = Object.keys(d.series).filter((k) => d.series[k]!.max.some((v) => v !== null));
    expect(shape!.series).toEqual(withValues);
    expect(shape!.series).toContain('judge.coherence');
    expect(shape!.series).not.toContain('d');
  });

  it('rebuilds when a turn arrives out of order or the declared stress turns change', async () => {
    await ingest(h.db, 'default', turnItems('o', [1, 2, 3, 5, 6]), 'test');
    await refreshDigest(h.db, 'default', 'o');
    await ingest(h.db, 'default', turnItems('o', [4, 7]), 'test');
    expect((await refreshDigest(h.db, 'default', 'o')).digest).toEqual(expected(range(1, 7)));
    await h.db.execute(
      sql`update sessions set metadata = '{"stress_turns": {"2": "poison"}}' where project_id = 'default' and id = 'o'`,
    );
    const d = (await refreshDigest(h.db, 'default', 'o')).digest;
    expect(d.stress).toEqual([[1, 'poison']]);
    const [count] = rowsOf<{ n: number }>(
      await h.db.execute(sql`select count(*)::int as n from term_events where session_id = 'o'`),
    );
    const history = buildHistory(range(1, 7).map((n) => ({ turn: n, ccs: ccsOf(n) })));
    expect(count!.n).toBe([...history.events.values()].reduce((a, l) => a + l.length, 0));
  });

  it('builds again a digest that an earlier version built, without doubling the term history', async () => {
    const events = async () =>
      rowsOf<{ n: number }>(
        await h.db.execute(sql`select count(*)::int as n from term_events where session_id = 'o'`),
      )[0]!.n;
    const before = await events();
    // As version 1 kept it: no version, no alerts.
    await h.db.execute(sql`update session_digests set digest = digest - 'v' - 'alerts' - 'alertCounts' - 'running'
                            where project_id = 'default' and session_id = 'o'`);
    const d = (await refreshDigest(h.db, 'default', 'o')).digest;
    expect([d.v, d.alerts.length > 0, await events()]).toEqual([DIGEST_VERSION, true, before]);
    expect(d.alerts.filter((a) => a.kind === 'stress')).toEqual([{ i: 1, kind: 'stress', what: 'poison' }]);
  });

  it('says where each term of a window came from, as the whole-session history does', async () => {
    const numbers = range(1, 6200);
    const history = buildHistory(numbers.map((n) => ({ turn: n, ccs: ccsOf(n) })));
    let capped = 0;
    for (const offset of [0, 37, 6100]) {
      const b = await windowBlame(h.db, 'default', 's', offset, 100);
      const window = numbers.slice(offset, offset + 100);
      for (const [k, turn] of window.entries())
        for (const [field, terms] of Object.entries(ccsOf(turn)))
          for (const term of terms) {
            const want = blame(history, field, term, turn);
            const got = b.terms[`${field}\u0000${term}`]!;
            expect(got.introduced[k], `${field} ${term} at ${turn}`).toBe(want.introduced!.turn);
            // Counted up to the cap and one more ("over 100"): long-lived terms are not counted to the end.
            expect(got.total).toBe(Math.min(want.history.length, BLAME_COUNT_CAP + 1));
            if (want.history.length > BLAME_COUNT_CAP) capped++;
            expect(got.first).toEqual(
              want.history.slice(0, 8).map((e) => ({ turn: e.turn, kind: e.kind, other: e.other ?? null })),
            );
          }
    }
    expect(capped).toBeGreaterThan(0);
  });

  it('lets two catch-ups of one session run at once without doubling anything', async () => {
    await ingest(h.db, 'default', turnItems('c', range(1, 3000)), 'test');
    const [a, b] = await Promise.all([refreshDigest(h.db, 'default', 'c'), refreshDigest(h.db, 'default', 'c')]);
    expect(a.digest).toEqual(expected(range(1, 3000)));
    expect(b.digest).toEqual(a.digest);
    const [count] = rowsOf<{ n: number }>(
      await h.db.execute(sql`select count(*)::int as n from term_events where session_id = 'c'`),
    );
    const history = buildHistory(range(1, 3000).map((n) => ({ turn: n, ccs: ccsOf(n) })));
    expect(count!.n).toBe([...history.events.values()].reduce((x, l) => x + l.length, 0));
  });
});
