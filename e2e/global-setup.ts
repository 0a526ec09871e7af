import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import postgres from 'postgres';
import { startPostgres } from '../server/test/postgres';
import { startNextServer, type NextServer } from '../server/test/next-server';

export interface ServerInfo {
  name: 'pglite' | 'postgres';
  url: string;
  key: string;
  dataDir: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    servers: ServerInfo[];
    /** The servers with the demo loaded, on which the UI test files run: PGlite, and PostgreSQL. */
    uiServers: ServerInfo[];
  }
}

const KEY = 'e2e-key-0123456789abcdef';

/**
 * Starts the built app twice as `npm start` serves it: on embedded PGlite with the demo
 * (a fresh data directory), and on a private PostgreSQL server without the demo; and a third time on that
 * PostgreSQL server, with the demo in a database of its own, for the UI flows.
 */
export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, '..');
  if (!existsSync(path.join(root, '.next', 'BUILD_ID')))
    throw new Error('no build: run `npm run build` first (npm test does)');
  const pg = await startPostgres();
  const running: NextServer[] = [];
  const dirs: string[] = [];
  const servers: ServerInfo[] = [];
  for (const name of ['pglite', 'postgres'] as const) {
    const dataDir = name === 'pglite' ? mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-e2e-')) : null;
    if (dataDir) dirs.push(dataDir);
    const env: Record<string, string> = {
      MNEMOSCOPE_API_KEY: KEY,
      MNEMOSCOPE_DEMO: name === 'pglite' ? '1' : '0',
      // Small enough that the limits tests stay quick.
      MNEMOSCOPE_MAX_BODY_BYTES: String(2 * 1024 * 1024),
      MNEMOSCOPE_MAX_BATCH: '1000',
      ...(dataDir ? { MNEMOSCOPE_DATA_DIR: dataDir, DATABASE_URL: '' } : { DATABASE_URL: pg.url }),
    };
    const server = await startNextServer(env);
    running.push(server);
    servers.push({ name, url: server.url, key: KEY, dataDir });
  }
  project.provide('servers', servers);
  // The UI flows also run on PostgreSQL (e2e/on-postgres/), on a database of its own with the demo.
  const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
  await admin.unsafe('create database ui_demo');
  await admin.end();
  const pgDemo = await startNextServer({
    MNEMOSCOPE_API_KEY: KEY,
    MNEMOSCOPE_DEMO: '1',
    DATABASE_URL: pg.url.replace(/\/[^/]*$/, '/ui_demo'),
  });
  running.push(pgDemo);
  project.provide('uiServers', [servers[0]!, { name: 'postgres', url: pgDemo.url, key: KEY, dataDir: null }]);
  return () => {
    for (const s of running) s.kill();
    pg.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  };
}
