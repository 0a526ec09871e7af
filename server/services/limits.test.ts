import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyPgDatabase, freshDb, DRIVERS } from '@/server/test/db';
import { migrateDb, openDb, type DbHandle } from '@/server/db';
import { backoffWait, claimRun, releaseRun, forgetFailures, pruneBuckets, recordFailure, takeToken } from './limits';

describe('a rate limit on PostgreSQL with four instances', () => {
  const handles: DbHandle[] = [];
  let drop = async () => {};
  afterAll(async () => {
    await Promise.all(handles.map((h) => h.close()));
    await drop();
  });

  it('is counted once across instances: exactly the burst passes', async () => {
    const database = await emptyPgDatabase();
    drop = database.drop;
    for (let i = 0; i < 4; i++) handles.push(await openDb({ url: database.url }));
    await migrateDb(handles[0]!);
    const takes = await Promise.all(
      Array.from({ length: 24 }, (_, i) => takeToken(handles[i % 4]!.db, 'ingest:shared', 60, 5)),
    );
    expect(takes.filter((t) => t.ok)).toHaveLength(5);
    for (const t of takes.filter((x) => !x.ok)) expect(t).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('gives a cluster-wide job to one instance a period, however many ask together', async () => {
    const ask = () => Promise.all(handles.map((h) => claimRun(h.db, 'sweep', 60 * 60_000)));
    expect((await ask()).filter(Boolean)).toHaveLength(1);
    // Within the period nobody takes it again, whichever instance's timer comes.
    expect((await ask()).filter(Boolean)).toHaveLength(0);
    // Another job is counted apart.
    expect(await claimRun(handles[3]!.db, 'other', 60 * 60_000)).toBe(true);
    // Once the period is over (the last run moved back an hour), one instance takes it again.
    await handles[0]!.db.execute(sql`update job_runs set at = at - interval '1 hour' where name = 'sweep'`);
    expect((await ask()).filter(Boolean)).toHaveLength(1);
    // A timer a little early (within a tenth of the period) still takes its turn.
    await handles[0]!.db.execute(sql`update job_runs set at = at - interval '55 minutes' where name = 'sweep'`);
    expect(await claimRun(handles[2]!.db, 'sweep', 60 * 60_000)).toBe(true);
  });
});

describe.each(DRIVERS)('a cluster-wide job on %s', (driver) => {
  let h: DbHandle;
  afterAll(async () => h?.close());
  it('runs once a period, and again at once when a failed run is given back', async () => {
    h = await freshDb(driver);
    expect(await claimRun(h.db, 'sweep', 60 * 60_000)).toBe(true);
    expect(await claimRun(h.db, 'sweep', 60 * 60_000)).toBe(false);
    await releaseRun(h.db, 'sweep');
    expect(await claimRun(h.db, 'sweep', 60 * 60_000)).toBe(true);
    // A short period has passed by the next ask.
    expect(await claimRun(h.db, 'tick', 50)).toBe(true);
    await new Promise((r) => setTimeout(r, 60));
    expect(await claimRun(h.db, 'tick', 50)).toBe(true);
  });
});

describe.each(DRIVERS)('rate buckets on %s', (driver) => {
  let h: DbHandle;
  afterAll(async () => h?.close());
  it('refill with time, per key, and say how long to wait', async () => {
    h = await freshDb(driver);
    const takes = [];
    for (let i = 0; i < 4; i++) takes.push(await takeToken(h.db, 'sign-in:ada', 60, 3));
    expect(takes.map((t) => t.ok)).toEqual([true, true, true, false]);
    expect(takes[3]).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect((await takeToken(h.db, 'sign-in:bob', 60, 3)).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await takeToken(h.db, 'sign-in:ada', 60, 3)).ok).toBe(true);
    expect((await takeToken(h.db, 'sign-in:ada', 60, 3)).ok).toBe(false);
  });
});

describe.each(DRIVERS)('sign-in backoff on %s', (driver) => {
  let h: DbHandle;
  afterAll(async () => h?.close());
  it('is free for the first failures, then doubles up to its cap, per key, and a success forgets it', async () => {
    h = await freshDb(driver);
    const b = { free: 2, capSeconds: 8 };
    const waits = [];
    for (let i = 0; i < 7; i++) {
      waits.push(await backoffWait(h.db, 'ada@10.0.0.1', b));
      await recordFailure(h.db, 'ada@10.0.0.1');
    }
    waits.push(await backoffWait(h.db, 'ada@10.0.0.1', b));
    // 0, 1, 2 failures: free; 2 → 1 s, 3 → 2 s, 4 → 4 s, 5 and more → the 8 s cap.
    expect(waits).toEqual([0, 0, 1, 2, 4, 8, 8, 8]);
    expect(await backoffWait(h.db, 'ada@10.0.0.2', b)).toBe(0);
    await forgetFailures(h.db, 'ada@10.0.0.1');
    expect(await backoffWait(h.db, 'ada@10.0.0.1', b)).toBe(0);
    // The wait runs from the last failure.
    await recordFailure(h.db, 'bob@x');
    await recordFailure(h.db, 'bob@x');
    await new Promise((r) => setTimeout(r, 1100));
    expect(await backoffWait(h.db, 'bob@x', { free: 1, capSeconds: 60 })).toBe(1);
    expect(await backoffWait(h.db, 'bob@x', { free: 2, capSeconds: 60 })).toBe(0);
    expect(await pruneBuckets(h.db)).toBe(0);
  });
});
