import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startPostgres } from '../server/test/postgres';

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

async function waitFor(url: string, proc: ChildProcess, log: () => string) {
  const until = Date.now() + 90_000;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`server exited early:\n${log()}`);
    try {
      const r = await fetch(`${url}/api/trpc/system.info`);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server at ${url} did not become ready:\n${log()}`);
}

/**
 * Starts the built app twice with `next start`, as a user would: on embedded PGlite with the demo
 * (a fresh data directory), and on a private PostgreSQL server without the demo.
 */
export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, '..');
  if (!existsSync(path.join(root, '.next', 'BUILD_ID'))) throw new Error('no build: run `npm run build` first (npm test does)');
  const pg = await startPostgres();
  const procs: ChildProcess[] = [];
  const dirs: string[] = [];
  const servers: ServerInfo[] = [];
  for (const name of ['pglite', 'postgres'] as const) {
    const port = await freePort();
    const dataDir = name === 'pglite' ? mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-e2e-')) : null;
    if (dataDir) dirs.push(dataDir);
    const env = {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      MNEMOSCOPE_API_KEY: KEY,
      MNEMOSCOPE_DEMO: name === 'pglite' ? '1' : '0',
      // Small enough that the limits tests stay quick.
      MNEMOSCOPE_MAX_BODY_BYTES: String(2 * 1024 * 1024),
      MNEMOSCOPE_MAX_BATCH: '1000',
      ...(dataDir ? { MNEMOSCOPE_DATA_DIR: dataDir, DATABASE_URL: '' } : { DATABASE_URL: pg.url.replace(/\/postgres$/, '/postgres') }),
    };
    let out = '';
    const proc = spawn(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'start', '-H', '127.0.0.1', '-p', String(port)], { cwd: root, env, detached: true });
    proc.stdout?.on('data', (d) => (out += d));
    proc.stderr?.on('data', (d) => (out += d));
    procs.push(proc);
    const url = `http://127.0.0.1:${port}`;
    await waitFor(url, proc, () => out);
    servers.push({ name, url, key: KEY, dataDir });
  }
  project.provide('servers', servers);
  return () => {
    for (const p of procs) {
      try {
        process.kill(-p.pid!, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }
    pg.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  };
}
