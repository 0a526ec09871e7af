import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { env } from '@/server/env';
import * as projects from './schema/projects';
import * as sessions from './schema/sessions';
import * as curation from './schema/curation';
import * as substrate from './schema/substrate';

export const schema = { ...projects, ...sessions, ...curation, ...substrate };
export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: services take either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface DbHandle {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** Where the data lives: the data directory, `memory`, or the server URL without its password. */
  location: string;
  close: () => Promise<void>;
}

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'drizzle');

export interface OpenOptions {
  /** A postgres:// URL; otherwise PGlite. */
  url?: string;
  /** PGlite data directory, or 'memory' for an in-memory database. */
  dataDir?: string;
}

export async function openDb(opts: OpenOptions): Promise<DbHandle> {
  if (opts.url) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const client = postgres(opts.url, { max: 10, onnotice: () => {} });
    const db = drizzle(client, { schema }) as unknown as Db;
    return {
      db,
      driver: 'postgres',
      location: opts.url.replace(/:[^:@/]*@/, ':***@'),
      close: () => client.end({ timeout: 5 }),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const dir = opts.dataDir ?? 'memory';
  let client: InstanceType<typeof PGlite>;
  if (dir === 'memory') client = await PGlite.create();
  else {
    const dataPath = path.resolve(/*turbopackIgnore: true*/ dir, 'pglite');
    mkdirSync(dataPath, { recursive: true });
    client = await PGlite.create({ dataDir: dataPath });
  }
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    location: dir === 'memory' ? 'memory' : path.resolve(/*turbopackIgnore: true*/ dir),
    close: () => client.close(),
  };
}

export async function migrateDb(handle: DbHandle): Promise<void> {
  if (handle.driver === 'postgres') {
    const { migrate } = await import('drizzle-orm/postgres-js/migrator');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator wants the driver's own type
    await migrate(handle.db as any, { migrationsFolder: MIGRATIONS_FOLDER });
  } else {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator wants the driver's own type
    await migrate(handle.db as any, { migrationsFolder: MIGRATIONS_FOLDER });
  }
}

// One database per process, kept on globalThis so Next's separate bundles and hot reload share it.
const g = globalThis as unknown as { __mnemoscopeDb?: Promise<DbHandle> };

/** The process-wide database, opened and migrated once (PGlite in MNEMOSCOPE_DATA_DIR unless DATABASE_URL). */
export function getDbHandle(): Promise<DbHandle> {
  if (!g.__mnemoscopeDb) {
    const e = env();
    g.__mnemoscopeDb = (async () => {
      const handle = await openDb({ url: e.DATABASE_URL, dataDir: e.MNEMOSCOPE_DATA_DIR });
      await migrateDb(handle);
      return handle;
    })();
    g.__mnemoscopeDb.catch(() => {
      g.__mnemoscopeDb = undefined;
    });
  }
  return g.__mnemoscopeDb;
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

/** Rows of `db.execute`: postgres.js gives an array, PGlite an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
