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

/** Forgets buckets idle for an hour (full again by then for any limit of a token a minute or more). */
export async function pruneBuckets(db: Tx): Promise<number> {
  const rows = rowsOf<{ key: string }>(
    await db.execute(sql`delete from rate_buckets where at < clock_timestamp() - interval '1 hour' returning key`),
  );
  return rows.length;
}
