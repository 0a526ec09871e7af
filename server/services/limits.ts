import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '@/server/db';

export type Take = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Takes one token from the bucket `key`: `perMinute` a minute on average, bursts up to `burst`. One
 * statement refills, takes and reads back under the row lock, so every app instance on the database
 * counts against the same bucket and two concurrent takes never both get the last token.
 */
export async function takeToken(db: Tx, key: string, perMinute: number, burst = perMinute): Promise<Take> {
  const perSecond = perMinute / 60;
  const refill = sql`least(${burst}::float8, rate_buckets.tokens
    + extract(epoch from clock_timestamp() - rate_buckets.at)::float8 * ${perSecond}::float8)`;
  const [row] = rowsOf<{ tokens: number; granted: boolean }>(
    await db.execute(sql`
      insert into rate_buckets (key, tokens, granted, at)
      values (${key}, ${burst - 1}::float8, ${burst >= 1}, clock_timestamp())
      on conflict (key) do update set
        granted = ${refill} >= 1,
        tokens = case when ${refill} >= 1 then ${refill} - 1 else ${refill} end,
        at = clock_timestamp()
      returning tokens, granted`),
  );
  if (row!.granted) return { ok: true };
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - Number(row!.tokens)) / perSecond)) };
}

/**
 * Forgets buckets idle for an hour (full again by then for any limit of a token a minute or more), and sign-in
 * failures a day old.
 */
export async function pruneBuckets(db: Tx): Promise<number> {
  const rows = rowsOf<{ key: string }>(
    await db.execute(sql`delete from rate_buckets where at < clock_timestamp() - interval '1 hour' returning key`),
  );
  const failures = rowsOf<{ key: string }>(
    await db.execute(sql`delete from sign_in_failures where at < clock_timestamp() - interval '1 day' returning key`),
  );
  return rows.length + failures.length;
}

/** Exponential backoff: the first `free` failures cost nothing, then each waits 2^(failures − free) s, up to `cap`. */
export interface Backoff {
  free: number;
  capSeconds: number;
}

/**
 * Seconds `key` must still wait before its next attempt (0: it may try now), from its failures and the last one's
 * time, read from the database so that every instance applies the same wait.
 */
export async function backoffWait(db: Tx, key: string, b: Backoff): Promise<number> {
  const [row] = rowsOf<{ wait: number }>(
    await db.execute(sql`
      select greatest(0, least(${b.capSeconds}::float8, power(2, failures - ${b.free})::float8)
                         - extract(epoch from clock_timestamp() - at)::float8) as wait
        from sign_in_failures where key = ${key} and failures >= ${b.free}`),
  );
  return row ? Math.ceil(Number(row.wait)) : 0;
}

/** Counts one more failure of `key`, now. */
export async function recordFailure(db: Tx, key: string): Promise<void> {
  await db.execute(sql`
    insert into sign_in_failures (key, failures, at) values (${key}, 1, clock_timestamp())
    on conflict (key) do update set failures = sign_in_failures.failures + 1, at = clock_timestamp()`);
}

/** Forgets the failures of `key` (after a success). */
export async function forgetFailures(db: Tx, key: string): Promise<void> {
  await db.execute(sql`delete from sign_in_failures where key = ${key}`);
}

/**
 * Whether this instance takes the cluster's run of the job `name` now: true when no instance ran it in the last
 * `everyMs` (less a tenth, so that timers a little early still take their turn), and then it is marked as run. One
 * statement under the row's lock: of instances asking together, one is told yes.
 */
export async function claimRun(db: Tx, name: string, everyMs: number): Promise<boolean> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      insert into job_runs (name, at) values (${name}, clock_timestamp())
      on conflict (name) do update set at = clock_timestamp()
        where job_runs.at < clock_timestamp() - make_interval(secs => ${(everyMs * 0.9) / 1000}::float8)
      returning name`),
  );
  return rows.length > 0;
}

/** Gives a run taken by `claimRun` back (it failed): the next instance whose timer comes takes it. */
export async function releaseRun(db: Tx, name: string): Promise<void> {
  await db.execute(sql`delete from job_runs where name = ${name}`);
}
