import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
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
  }
}

const KEY = 'e2e-key-0123456789abcdef';

/**
 * Starts the built app twice with `next start`, as a user would: on embedded PGlite with the demo
 * (a fresh data directory), and on a private PostgreSQL server without the demo.
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
  return () => {
    for (const s of running) s.kill();
    pg.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  };
}
