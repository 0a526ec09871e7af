/**
 * `npm start`: builds the app when there is no build or the sources are newer than it, then runs
 * `next start` on HOST:PORT. The database is opened, migrated and (on first start) given the demo
 * by the server itself.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { env } from '@/server/env';
import { isLoopback } from '@/lib/net/loopback';

const root = process.cwd();
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const childEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

function newest(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(p).reduce((m, n) => (n === 'node_modules' || n === 'demo' ? m : Math.max(m, newest(path.join(p, n)))), st.mtimeMs);
}

const buildId = path.join(root, '.next', 'BUILD_ID');
const sources = ['app', 'components', 'lib', 'server', 'public', 'drizzle', 'next.config.js', 'package-lock.json', 'instrumentation.ts'];
const stale = !existsSync(buildId) || Math.max(...sources.map((s) => newest(path.join(root, s)))) > statSync(buildId).mtimeMs;

let config;
try {
  config = env();
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}

// Local single-user mode has no sign-in: it must not be reachable from another machine.
if (!isLoopback(config.HOST)) {
  console.error(
    `[mnemoscope] refusing to listen on ${config.HOST}: Mnemoscope runs in local single-user mode, without sign-in, ` +
      'so it only binds to this machine. Set HOST=127.0.0.1 (the default), or reach it through an SSH tunnel.',
  );
  process.exit(2);
}

if (stale) {
  console.log('[mnemoscope] building the app (first start or sources changed)…');
  const r = spawnSync(process.execPath, [nextBin, 'build'], { stdio: 'inherit', env: childEnv });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

console.log(`[mnemoscope] starting on http://${config.HOST}:${config.PORT} (${config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${config.MNEMOSCOPE_DATA_DIR}`})`);
const child = spawn(process.execPath, [nextBin, 'start', '-H', config.HOST, '-p', String(config.PORT)], { stdio: 'inherit', env: childEnv });
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
