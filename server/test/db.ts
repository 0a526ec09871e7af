import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';
import { migrateDb, openDb, type DbHandle } from '@/server/db';
import { ensureProject } from '@/server/services/projects';

export const DRIVERS = ['pglite', 'postgres'] as const;
export type Driver = (typeof DRIVERS)[number];

/** A new, empty (unmigrated) database on the suite's PostgreSQL: its URL, and how to drop it. */
export async function emptyPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = inject('pgUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const sql = postgres(admin, { max: 1, onnotice: () => {} });
    await sql.unsafe(statement);
    await sql.end();
  };
  await run(`create database ${name}`);
  return {
    url: admin.replace(/\/[^/]*$/, `/${name}`),
    drop: () => run(`drop database if exists ${name} with (force)`),
  };
}

/** A freshly migrated database: in-memory PGlite, or a new database on the suite's PostgreSQL. */
export async function freshDb(driver: Driver): Promise<DbHandle> {
  let handle: DbHandle;
  if (driver === 'pglite') handle = await openDb({ dataDir: 'memory' });
  else {
    const database = await emptyPgDatabase();
    const h = await openDb({ url: database.url });
    handle = {
      ...h,
      close: async () => {
        await h.close();
        await database.drop();
      },
    };
  }
  await migrateDb(handle);
  await ensureProject(handle.db);
  return handle;
}
