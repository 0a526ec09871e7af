import { doublePrecision, integer, pgTable, text, timestamp, boolean } from 'drizzle-orm/pg-core';

/**
 * Token buckets for rate limits, in the database so that every app instance counts against the same
 * bucket (`server/services/limits.ts`). `key` is `<limit>:<subject>`, e.g. `ingest:<api key id>`.
 */
export const rateBuckets = pgTable('rate_buckets', {
  key: text('key').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  /** Whether the last take was granted (read back by the same statement that takes). */
  granted: boolean('granted').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Failed sign-ins per subject (`<username>@<client address>`, or `@<client address>`), for exponential backoff
 * (`server/services/limits.ts backoff`); a successful sign-in forgets its subject's row.
 */
export const signInFailures = pgTable('sign_in_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * When a periodic job that needs running once for the whole cluster last ran (`claimRun` in server/services/limits.ts):
 * every instance keeps the timer, and the first whose turn comes after the period takes the run.
 */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});
