import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { env } from '@/server/env';
import * as projects from './schema/projects';
import * as sessions from './schema/sessions';
import * as curation from './schema/curation';
import * as substrate from './schema/substrate';
import * as limits from './schema/limits';
import * as annotations from './schema/annotations';

/** PostgreSQL's shared_buffers in the embedded database (see openDb). */
export const PGLITE_SHARED_BUFFERS = '32MB';

export const schema = { ...projects, ...sessions, ...curation, ...substrate, ...limits, ...annotations };
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
  /** Applies the migrations in `drizzle/` (on PostgreSQL under an advisory lock: one instance at a time). */
  migrate: () => Promise<void>;
  /**
   * LISTEN on a channel: `fn` gets the payload of every NOTIFY on it, from any instance on the same database (on
   * PGlite, from this process). Resolves to the function that stops listening.
   */
  listen: (
    channel: string,
    fn: (payload: string) => void,
    /** Called when a dropped connection listens again (PostgreSQL): NOTIFYs meanwhile were lost. */
    onRelisten?: () => void,
  ) => Promise<() => Promise<void>>;
}

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'drizzle');

/** pg_advisory_lock key that serializes migrations across instances ('mnem' in ASCII). */
const MIGRATION_LOCK = 0x6d6e656d;

export interface OpenOptions {
  /** A postgres:// URL; otherwise PGlite. */
  url?: string;
  /** PGlite data directory, or 'memory' for an in-memory database. */
  dataDir?: string;
}

/** The URL with its password masked (parsed, so a password holding `@` or `:` does not leak in part). */
export function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(a DATABASE_URL that is not a valid URL)';
  }
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
      location: withoutPassword(opts.url),
      close: () => client.end({ timeout: 5 }),
      // postgres.js keeps one connection for all its listeners, and reconnects it (listening again) if it drops.
      listen: async (channel, fn, onRelisten) => {
        let first = true;
        const l = await client.listen(channel, fn, () => {
          // NOTIFYs sent while the connection was down are lost: whoever listens checks for itself.
          if (!first) onRelisten?.();
          first = false;
        });
        return () => l.unlisten();
      },
      // Instances started together take turns: one migrates while the others wait on the lock, then find
      // nothing left to do. A client of one connection holds the lock and runs the migrations.
      migrate: async () => {
        const { migrate } = await import('drizzle-orm/postgres-js/migrator');
        const one = postgres(opts.url!, { max: 1, onnotice: () => {} });
        try {
          await one`select pg_advisory_lock(${MIGRATION_LOCK})`;
          try {
            await migrate(drizzle(one), { migrationsFolder: MIGRATIONS_FOLDER });
          } finally {
            await one`select pg_advisory_unlock(${MIGRATION_LOCK})`;
          }
        } finally {
          await one.end({ timeout: 5 });
        }
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const dir = opts.dataDir ?? 'memory';
  let client: InstanceType<typeof PGlite>;
  let unlock = () => {};
  // PostgreSQL's own buffer pool lives in PGlite's WASM memory, which never shrinks: PGlite's 128 MB default held
  // ~110 MB more of the server's RSS than 32 MB does; the pages it would cache are in the OS's file cache (a data
  // directory) or in memory already (the in-memory database).
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
  if (dir === 'memory') client = await PGlite.create({ startParams });
  else {
    const { lockDataDir } = await import('./dir-lock');
    unlock = await lockDataDir(path.resolve(/*turbopackIgnore: true*/ dir));
    const dataPath = path.resolve(/*turbopackIgnore: true*/ dir, 'pglite');
    mkdirSync(dataPath, { recursive: true });
    try {
      client = await PGlite.create({ dataDir: dataPath, startParams });
    } catch (e) {
      unlock();
      throw e;
    }
  }
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    location: dir === 'memory' ? 'memory' : path.resolve(/*turbopackIgnore: true*/ dir),
    close: async () => {
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
    listen: async (channel, fn) => {
      const stop = await client.listen(channel, fn);
      return () => stop();
    },
    migrate: async () => {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    },
  };
}

export async function migrateDb(handle: DbHandle): Promise<void> {
  await handle.migrate();
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
