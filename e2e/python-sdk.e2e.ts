import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchPage } from './browser';
import { open } from './page';

/**
 * The Python SDK as a user gets it: copied out of the repository, installed with pip into a fresh virtual environment
 * of Debian's Python (no network: the package needs nothing but the standard library), its own tests run against the
 * installed package, and the example agent run against both live servers, its session then shown in Chromium.
 */
const servers = inject('servers');
const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-py-'));
const pkg = path.join(work, 'mnemoscope-sdk');
const venv = path.join(work, 'venv');
const python = path.join(venv, 'bin/python');
let browser: Browser;
let page: Page;

function run(cmd: string, args: string[], env: Record<string, string> = {}, timeout = 180_000) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(cmd, args, { cwd: work, env: { ...process.env, ...env }, timeout }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

beforeAll(async () => {
  ({ browser, page } = await launchPage());
  cpSync(path.join(root, 'sdk/python'), pkg, { recursive: true });
  // Debian's Python (.ci/system-deps.sh installs python3-venv where it is missing).
  const made = await run('/usr/bin/python3', ['-m', 'venv', venv]);
  expect(made.out).toBe('');
  const installed = await run(path.join(venv, 'bin/pip'), ['install', '--no-input', pkg]);
  expect(installed.out).toMatch(/Successfully installed mnemoscope-0\.1\.0/);
}, 240_000);
afterAll(async () => browser?.close());

describe('the Python SDK, installed with pip', () => {
  it('passes its own tests (batches, retries, 413 split, rejections, buffer, exit flush, webhooks)', async () => {
    const r = await run(python, ['-m', 'unittest', 'discover', '-s', path.join(pkg, 'tests')]);
    expect(r.out).toMatch(/Ran 13 tests[\s\S]*\nOK\n?$/);
    expect(r.code).toBe(0);
    // The installed copy is the one tested, not the source tree.
    const where = await run(python, ['-c', 'import mnemoscope; print(mnemoscope.__file__)']);
    expect(where.out).toContain(path.join(venv, 'lib'));
  });

  describe.each(servers)('on the live server on $name', (srv) => {
    it('sends an agent’s turns and memory; the curator’s decisions come back; the session is in the UI', async () => {
      const sid = `python-sdk-${srv.name}`;
      const r = await run(python, [path.join(pkg, 'examples/triage_agent.py'), sid], {
        MNEMOSCOPE_URL: srv.url,
        MNEMOSCOPE_API_KEY: srv.key,
      });
      expect(r.out).toMatch(/accepted 7, already stored 0, rejected 0, dropped 0/);
      const decisions = r.out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { event_id: string; disposition: string; final: boolean });
      expect(decisions.map((d) => [d.disposition, d.final])).toEqual([
        ['written', true],
        ['proposed', false],
      ]);
      // Waiting on the open review: a long poll that nobody answers ends at its limit, still open.
      const wait = await run(
        python,
        [
          '-c',
          'import sys, time, json; from mnemoscope import Mnemoscope; t = time.monotonic(); ' +
            'd = Mnemoscope().decision(sys.argv[1], timeout=2); ' +
            'print(json.dumps([d["disposition"], d["final"], round(time.monotonic() - t)]))',
          decisions[1]!.event_id,
        ],
        { MNEMOSCOPE_URL: srv.url, MNEMOSCOPE_API_KEY: srv.key },
      );
      expect(JSON.parse(wait.out.trim().split('\n').at(-1)!)).toEqual(['proposed', false, 2]);
      await open(page, `${srv.url}/sessions/${sid}`);
      await expect.poll(() => page.locator('h1').textContent()).toBe('Queue consumer lag after the broker upgrade');
      await expect.poll(() => page.locator('main').textContent()).toContain('3 turns');
    });
  });
});
