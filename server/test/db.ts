import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';
import { migrateDb, openDb, type DbHandle } from '@/server/db';
import { ensureProject } from '@/server/services/projects';

export const DRIVERS = ['pglite', 'postgres'] as const;
export type Driver = (typeof DRIVERS)[number];

/** A freshly migrated database: in-memory PGlite, or a new database on the suite's PostgreSQL. */
export async function freshDb(driver: Driver): Promise<DbHandle> {
  let handle: DbHandle;
  if (driver === 'pglite') handle = await openDb({ dataDir: 'memory' });
  else {
    const admin = inject('pgUrl');
    const name = `t_${randomBytes(6).toString('hex')}`;
    const sql = postgres(admin, { max: 1, onnotice: () => {} });
    await sql.unsafe(`create database ${name}`);
    await sql.end();
    const url = admin.replace(/\/[^/]*$/, `/${name}`);
    const h = await openDb({ url });
    handle = {
      ...h,
      close: async () => {
        await h.close();
        const s = postgres(admin, { max: 1, onnotice: () => {} });
        await s.unsafe(`drop database if exists ${name} with (force)`);
        await s.end();
      },
    };
  }
  await migrateDb(handle);
  await ensureProject(handle.db);
  return handle;
}
