import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function pgBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  throw new Error(
    'PostgreSQL server binaries not found under /usr/lib/postgresql: install the "postgresql" package (npm test ' +
      'does), or set TEST_DATABASE_URL',
  );
}

/**
 * A private PostgreSQL server in a temporary directory on a free loopback port, for tests.
 * Run as root (as CI does), it runs as the postgres user. Returns its URL and a stop function.
 */
export async function startPostgres(): Promise<{ url: string; stop: () => void }> {
  const bin = pgBin();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    if (asRoot) {
      const line = [cmd, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
      const r = spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', line], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`${path.basename(cmd)} failed: ${r.stderr || r.stdout}`);
    } else execFileSync(cmd, args, { stdio: 'pipe' });
  };
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const port = await freePort();
  run(path.join(bin, 'initdb'), ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  // fsync stays on: tests include durability; the server is small and private.
  run(path.join(bin, 'pg_ctl'), [
    '-D',
    dir,
    '-l',
    path.join(dir, 'log'),
    '-o',
    `-h 127.0.0.1 -p ${port} -k ${dir} -c max_connections=200`,
    '-w',
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', dir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
