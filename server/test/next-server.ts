import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { bundleServe } from '@/server/cli/serve-bundle';
import { freePort } from './postgres';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface NextServer {
  url: string;
  port: number;
  proc: ChildProcess;
  /** What the server printed, for error messages. */
  output: () => string;
  /** Stops the server and everything it started (its process group). */
  kill: (signal?: NodeJS.Signals) => void;
}

let bundled: Promise<string> | null = null;

/**
 * Starts the built app as `npm start` serves it (the server's bundle under plain `node`, without the build step:
 * serve-bundle.ts, made once per process) on a free loopback
 * port (or `port`), with the demo off unless env says otherwise, and resolves once it answers. Used by the
 * end-to-end setup, the crash, operations and cluster tests, and the benchmarks.
 */
export async function startNextServer(
  env: Record<string, string>,
  port?: number,
  timeoutMs = 90_000,
): Promise<NextServer> {
  const p = port ?? (await freePort());
  let out = '';
  bundled ??= bundleServe(ROOT);
  const proc = spawn(process.execPath, [await bundled], {
    cwd: ROOT,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      MNEMOSCOPE_DEMO: '0',
      MNEMOSCOPE_LOG_LEVEL: 'info', // the server logs as in production, though started from a test
      HOST: '127.0.0.1',
      PORT: String(p),
      ...env,
    },
    detached: true,
  });
  proc.stdout?.on('data', (d) => (out += d));
  proc.stderr?.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${p}`;
  const kill = (signal: NodeJS.Signals = 'SIGTERM') => {
    try {
      process.kill(-proc.pid!, signal);
    } catch {
      /* already gone */
    }
  };
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      // Answered by the app once it has started (database migrated, demo loaded): 200 without
      // sign-in, 401 from the tRPC context with it (the probe cookie gets past proxy.ts to it).
      const r = await fetch(`${url}/api/trpc/system.info`, { headers: { cookie: 'mnemoscope_session=probe' } });
      if (
        r.ok ||
        (r.status === 401 &&
          (r.headers.get('content-type') ?? '').includes('json') &&
          (await r.text()).includes('UNAUTHORIZED'))
      )
        return { url, port: p, proc, output: () => out, kill };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  kill('SIGKILL');
  throw new Error(`server at ${url} did not become ready:\n${out}`);
}
