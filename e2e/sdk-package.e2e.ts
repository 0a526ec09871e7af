import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { buildSdkPackage } from '../server/build/sdk-package';

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

const agent = `import { Mnemoscope, type MemoryDecision, type TurnInput } from '@mnemoscope/sdk';

declare const process: { env: Record<string, string | undefined> };

const mnemo = new Mnemoscope({ url: process.env.MNEMOSCOPE_URL, apiKey: process.env.MNEMOSCOPE_API_KEY });
const session = mnemo.acc({ id: 'sdk-package-agent', agent: 'packaged-bot', title: 'Installed from the tarball' });
const turns: TurnInput[] = [
  { input: 'Disk 91% on db-2', output: 'Looking at WAL retention.', ccs: { goal_orientation: ['free(disk)'] } },
  {
    input: 'WAL is 40 GB',
    output: 'Lowering wal_keep_size.',
    ccs: 'goal_orientation: free(disk)\\nconstraints: no_restart(db)',
  },
];
for (const t of turns) session.turn(t);
const eventId = mnemo.curator({ sourceAgent: 'packaged-bot', taskId: 'DISK-1' }).emit({
  memory_kind: 'fact',
  content: 'The storage team owns WAL retention settings on the db fleet.',
  suggested_scope: 'team_memory',
  evidence_refs: ['message:DISK-1'],
  confidence: 'high',
});
const d: MemoryDecision | null = await mnemo.decision(eventId);
// @ts-expect-error: a turn's input is text; the declarations say so, so this line must not type-check.
session.turn({ input: 42, output: '', ccs: {} });
const stats = await mnemo.shutdown();
const { accepted, invalid } = stats;
console.log(JSON.stringify({ disposition: d?.disposition, final: d?.final, accepted, invalid }));
`;

beforeAll(async () => {
  await buildSdkPackage();
  const packed = await run('npm', ['pack', '--pack-destination', work], path.join(root, 'sdk/typescript'));
  expect(packed.code, packed.out).toBe(0);
  mkdirSync(project);
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'an-agent', private: true, type: 'module' }, null, 2),
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
        types: [],
        lib: ['es2022', 'dom'],
      },
      include: ['agent.ts'],
    }),
  );
  writeFileSync(path.join(project, 'agent.ts'), agent);
}, 240_000);

describe('the TypeScript SDK package', () => {
  it('installs from its tarball into a fresh project, type-checks strictly, and runs an agent', async () => {
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
    expect(tarball).toBe('mnemoscope-sdk-0.1.0.tgz');
    const installed = await run(
      'npm',
      ['install', path.join(work, tarball), '--prefer-offline', '--no-audit', '--no-fund'],
      project,
    );
    expect(installed.code, installed.out).toBe(0);
    expect(readdirSync(path.join(project, 'node_modules/@mnemoscope/sdk')).sort()).toEqual([
      'README.md',
      'dist',
      'package.json',
    ]);
    const tsc = await run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], project);
    expect(tsc.out).toBe('');
    expect(tsc.code).toBe(0);
    const ran = await run(process.execPath, ['out/agent.js'], project, {
      MNEMOSCOPE_URL: srv.url,
      MNEMOSCOPE_API_KEY: srv.key,
    });
    expect(ran.out).toMatch(/mnemoscope: turn refused before sending: data\.input: /);
    const last = JSON.parse(ran.out.split('\n').find((l) => l.startsWith('{'))!) as Record<string, unknown>;
    // Session, two turns and the event stored; the ill-typed turn refused before sending.
    expect(last).toEqual({ disposition: 'proposed', final: false, accepted: 4, invalid: 1 });
  });
});
