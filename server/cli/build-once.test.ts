import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_LOCK, buildIsStale, buildOnce, dateBuild } from './build-once';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A process as `npm start` runs one: a build that takes 1.5 s and marks the checkout built, logged with its pid. */
const SCRIPT = `
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { buildOnce } from ${JSON.stringify(path.join(ROOT, 'server/cli/build-once.ts'))};
const [root] = process.argv.slice(2);
const log = (s) => appendFileSync(root + '/log', s + '\\n');
const outcome = await buildOnce(
  root,
  () => !existsSync(root + '/BUILD_ID'),
  async () => {
    log('start ' + process.pid);
    await new Promise((r) => setTimeout(r, 1500));
    writeFileSync(root + '/BUILD_ID', String(process.pid));
    log('end ' + process.pid);
  },
  () => log('wait ' + process.pid),
);
console.log(outcome);
`;

async function start(): Promise<{ out: () => string; exited: Promise<unknown> }> {
  const p = spawn(process.execPath, ['--import', 'tsx', path.join(dir, 'start.mjs'), dir], { cwd: ROOT });
  let out = '';
  p.stdout.on('data', (d) => (out += d));
  p.stderr.on('data', (d) => (out += d));
  return { out: () => out.trim(), exited: once(p, 'exit') };
}

describe('building on start', () => {
  it('builds once when two processes start on one checkout together: the second waits, then serves it', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-build-'));
    writeFileSync(path.join(dir, 'start.mjs'), SCRIPT);
    const [a, b] = await Promise.all([start(), start()]);
    await Promise.all([a.exited, b.exited]);
    expect([a.out(), b.out()].sort()).toEqual(['built', 'fresh']);
    const log = readFileSync(path.join(dir, 'log'), 'utf8').trim().split('\n');
    const builder = readFileSync(path.join(dir, 'BUILD_ID'), 'utf8');
    // One build, whole, and the other process waited for it rather than starting its own.
    expect(log.filter((l) => !l.startsWith('wait'))).toEqual([`start ${builder}`, `end ${builder}`]);
    expect(log.filter((l) => l.startsWith('wait'))).toHaveLength(1);
    expect(existsSync(path.join(dir, BUILD_LOCK))).toBe(false);
  });

  it('takes over a lock its holder left when it died, and does not build a fresh checkout at all', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-build-'));
    const lock = path.join(dir, BUILD_LOCK);
    mkdirSync(lock);
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, minuteAgo, minuteAgo);
    let built = 0;
    const build = async () => {
      built++;
      writeFileSync(path.join(dir, 'BUILD_ID'), 'x');
    };
    const stale = () => !existsSync(path.join(dir, 'BUILD_ID'));
    expect(await buildOnce(dir, stale, build)).toBe('built');
    expect(await buildOnce(dir, stale, build)).toBe('fresh');
    expect(built).toBe(1);
    expect(existsSync(lock)).toBe(false);
  });
});

describe('a build and its sources', () => {
  it('is stale when a source was saved while it was building, once dated by its start', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mnemo-stale-'));
    mkdirSync(path.join(dir, 'app', 'page'), { recursive: true });
    mkdirSync(path.join(dir, '.next'));
    const source = path.join(dir, 'app', 'page', 'view.tsx');
    const buildId = path.join(dir, '.next', 'BUILD_ID');
    writeFileSync(source, 'x');
    writeFileSync(buildId, 'id');
    const at = (file: string, s: number) => utimesSync(file, s, s);
    const t0 = 1_800_000_000; // the build starts
    for (const d of [dir, path.join(dir, 'app'), path.join(dir, 'app', 'page')]) at(d, t0 - 60);
    at(source, t0 + 5); // saved while it builds
    at(buildId, t0 + 10); // the build ends
    expect(buildIsStale(dir, ['app'], buildId)).toBe(false); // what `npm start` saw: the edit never served
    dateBuild(buildId, t0 * 1000);
    expect(buildIsStale(dir, ['app'], buildId)).toBe(true);
    // Saved before it started: in the build, which stays fresh.
    at(source, t0 - 5);
    expect(buildIsStale(dir, ['app', 'missing'], buildId)).toBe(false);
    rmSync(buildId);
    expect(buildIsStale(dir, ['app'], buildId)).toBe(true);
  });
});
