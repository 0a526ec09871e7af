import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * The TypeScript SDK as a user gets it: built and packed (`npm pack`), installed from the tarball into a fresh project
 * outside the repository (with its one dependency, zod), type-checked there with strict settings, and run as an
 * agent against the live server.
 */
const srv = inject('servers')[0]!;
const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-sdk-pkg-'));
const project = path.join(work, 'agent');

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(cmd, args, { cwd, env: { ...process.env, ...env }, timeout: 180_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

/** The quickstart the README and the Connect page show, as it is; and a misuse that its types must refuse. */
const quickstart = readFileSync(path.join(root, 'sdk/typescript/examples/quickstart.ts'), 'utf8');
const misuse = `import { Mnemoscope } from '@mnemoscope/sdk';
const session = new Mnemoscope({ apiKey: 'k', flushOnExit: false }).acc({ id: 's', agent: 'a' });
// @ts-expect-error: a turn's input is text; the declarations say so, so this line must not type-check.
session.turn({ input: 42, output: '', ccs: {} });
`;

beforeAll(async () => {
  // The commands the README and the Connect page give.
  const built = await run('npm', ['run', 'sdk:build'], root);
  expect(built.out).toMatch(/built @mnemoscope\/sdk: index\.js \d+ KiB, index\.d\.ts \d+ bytes/);
  const packed = await run('npm', ['pack', '--pack-destination', work], path.join(root, 'sdk/typescript'));
  expect(packed.code, packed.out).toBe(0);
  mkdirSync(project);
  writeFileSync(
    path.join(project, 'package.json'),
    // As `npm init -y` writes it: CommonJS. The quickstart is saved as .mts, as the Connect page says.
    JSON.stringify({ name: 'an-agent', private: true, type: 'commonjs' }, null, 2),
  );
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        outDir: 'out',
        skipLibCheck: false,
        types: ['node'],
        lib: ['es2022', 'dom'],
      },
      include: ['quickstart.mts', 'misuse.mts'],
    }),
  );
  writeFileSync(path.join(project, 'quickstart.mts'), quickstart);
  writeFileSync(path.join(project, 'misuse.mts'), misuse);
}, 240_000);

describe('the TypeScript SDK package', () => {
  it('installs from its tarball into a fresh project, type-checks strictly, and runs an agent', async () => {
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
    expect(tarball).toBe('mnemoscope-sdk-0.1.0.tgz');
    // The package with its dependency (zod), and Node's types for the quickstart's process.env.
    const installed = await run(
      'npm',
      ['install', path.join(work, tarball), '@types/node@20.19.43', '--prefer-offline', '--no-audit', '--no-fund'],
      project,
    );
    expect(installed.code, installed.out).toBe(0);
    expect(readdirSync(path.join(project, 'node_modules/@mnemoscope/sdk')).sort()).toEqual([
      'README.md',
      'dist',
      'package.json',
    ]);
    expect(
      readdirSync(path.join(project, 'node_modules'))
        .filter((n) => !n.startsWith('.'))
        .sort(),
    ).toEqual(['@mnemoscope', '@types', 'undici-types', 'zod']);
    const tsc = await run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], project);
    expect(tsc.out).toBe('');
    expect(tsc.code).toBe(0);
    const env = { MNEMOSCOPE_URL: srv.url, MNEMOSCOPE_API_KEY: srv.key };
    const ran = await run(process.execPath, ['out/quickstart.mjs'], project, env);
    // Session, two turns and the event stored; the event waits for a reviewer.
    expect(ran.out).toBe('memory event proposed (final: false)\naccepted 4, already stored 0, rejected 0, dropped 0\n');
    // Run again as the Connect page says (tsx, the version this repository pins): the same records, duplicates now,
    // and another event.
    const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
    const again = await run(process.execPath, [tsx, 'quickstart.mts'], project, env);
    expect(again.out).toBe(
      'memory event proposed (final: false)\naccepted 1, already stored 3, rejected 0, dropped 0\n',
    );
    // The README shows the quickstart as it is.
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toContain(quickstart);
  });
});
