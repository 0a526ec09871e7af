/**
 * `npm start`, its first half: checks the settings, builds the app when there is no build or the sources are newer
 * than it, and bundles the server (serve-bundle.ts); then package.json's script runs that bundle with plain `node`
 * (`exec`, so signals reach the server itself), which serves on HOST:PORT. The database is opened, migrated and (on
 * first start) given the demo by the server.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { env } from '@/server/env';
import { isLoopback } from '@/lib/net/loopback';
import { getDbHandle } from '@/server/db';
import { userCount } from '@/server/services/auth';
import { buildIsStale, buildOnce, dateBuild } from './build-once';
import { bundleServe } from './serve-bundle';

const root = process.cwd();
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const childEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

const buildId = path.join(root, '.next', 'BUILD_ID');
const sources = [
  'app',
  'components',
  'lib',
  'server',
  'public',
  'drizzle',
  'next.config.js',
  'package-lock.json',
  'instrumentation.ts',
];
const stale = () => buildIsStale(root, sources, buildId);

let config;
try {
  config = env();
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}

// Local single-user mode has no sign-in: it must not be reachable from another machine.
if (!isLoopback(config.HOST) && config.MNEMOSCOPE_AUTH !== 'users') {
  console.error(
    `[mnemoscope] refusing to listen on ${config.HOST}: in local single-user mode (the default) there is no sign-in, ` +
      'so Mnemoscope only binds to this machine. Set HOST=127.0.0.1, or turn on sign-in with MNEMOSCOPE_AUTH=users ' +
      'and MNEMOSCOPE_ADMIN_USER / MNEMOSCOPE_ADMIN_PASSWORD (12+ characters) for the first admin.',
  );
  process.exit(2);
}
// Sign-in is on: someone must be able to sign in.
if (config.MNEMOSCOPE_AUTH === 'users' && !(config.MNEMOSCOPE_ADMIN_USER && config.MNEMOSCOPE_ADMIN_PASSWORD)) {
  const handle = await getDbHandle();
  const users = await userCount(handle.db);
  await handle.close();
  if (!users) {
    console.error(
      '[mnemoscope] refusing to start: MNEMOSCOPE_AUTH=users but no user can sign in. Set MNEMOSCOPE_ADMIN_USER ' +
        'and MNEMOSCOPE_ADMIN_PASSWORD (12+ characters) to create the first admin.',
    );
    process.exit(2);
  }
}

// Built by one process at a time: another instance started on this checkout at the same moment waits, then serves.
await buildOnce(
  root,
  stale,
  async () => {
    console.log('[mnemoscope] building the app (first start or sources changed)…');
    const started = Date.now();
    const child = spawn(process.execPath, [nextBin, 'build'], { stdio: 'inherit', env: childEnv });
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) process.exit(code ?? 1);
    dateBuild(buildId, started);
  },
  () => console.log('[mnemoscope] another process is building the app; waiting for it…'),
);

await bundleServe(root);
console.log(
  `[mnemoscope] starting on http://${config.HOST}:${config.PORT} ` +
    `(${config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${config.MNEMOSCOPE_DATA_DIR}`})`,
);
// Nothing of this process is needed any more: the script's next command is the server.
process.exit(0);
