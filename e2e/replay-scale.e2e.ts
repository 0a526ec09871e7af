import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNextServer, type NextServer } from '../server/test/next-server';
import { launchPage } from './browser';
import { markedTerms, open, replayKeysReady, turnReadout } from './page';

/**
 * A 100,000-turn session, generated here, on a server of its own (the embedded database, no demo): the shared UI
 * servers keep their size, so the other tests' pages (recall embeds every turn in the browser) are not measured
 * against it.
 */
const KEY = 'e2e-scale-key-0123456789abcdef';
let server: NextServer;
let browser: Browser;
let page: Page;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-scale-'));
  server = await startNextServer({ MNEMOSCOPE_API_KEY: KEY, MNEMOSCOPE_DATA_DIR: dir, DATABASE_URL: '' });
  ({ browser, page } = await launchPage({ baseURL: server.url }));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const ingest = (rows: unknown[]) =>
  fetch(`${server.url}/api/v1/ingest`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}` },
    body: JSON.stringify(rows),
  });
const keysReady = () => replayKeysReady(page);
const readout = () => turnReadout(page);
const marked = (field: string, mark: string) => markedTerms(page, field, mark);

describe('a 100,000-turn session', () => {
  it('replays by keyboard at turns 1, 50,000 and 100,000, and shows turns appended live', async () => {
    const row = (t: number) => ({
      type: 'turn',
      data: {
        session_id: 'huge',
        agent: 'a',
        turn: t,
        input: `q${t}`,
        output: `a${t}`,
        ccs: {
          goal_orientation: [`phase(${Math.floor(t / 1000)})`],
          constraints: ['keep(x)'],
          episodic_trace: [`step(${t})`],
        },
        hallucination: (t % 100) / 100,
      },
    });
    const t0 = Date.now();
    for (let from = 1; from <= 100_000; from += 5000)
      expect((await ingest(Array.from({ length: 5000 }, (_, k) => row(from + k)))).status).toBe(200);
    const ingested = Date.now() - t0;
    const terms = (field: string) =>
      page
        .locator(`[data-testid=ccs-state] [data-field=${field}] .chip:not([data-mark=removed])`)
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-term')));
    await open(page, '/sessions/huge');
    await expect.poll(readout, { timeout: 60_000 }).toBe('Turn 1 (1 of 100,000)');
    const opened = Date.now() - t0 - ingested;
    await keysReady();
    expect(await terms('episodic_trace')).toEqual(['step(1)']);
    await page.keyboard.press('g');
    await page.keyboard.type('50000');
    await page.keyboard.press('Enter');
    await expect.poll(readout).toBe('Turn 50,000 (50,000 of 100,000)');
    await expect.poll(() => terms('episodic_trace')).toEqual(['step(50000)']);
    expect(await terms('goal_orientation')).toEqual(['phase(50)']);
    // The chip says which turn brought the term in: phase(50) came at turn 50,000 itself, keep(x) at turn 1.
    await expect
      .poll(() => page.locator('[data-field=constraints] [data-term="keep(x)"] .chip-badge').textContent())
      .toBe('1');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => terms('episodic_trace')).toEqual(['step(49999)']);
    expect(await terms('goal_orientation')).toEqual(['phase(49)']);
    await page.keyboard.press('End');
    await expect.poll(readout).toBe('Turn 100,000 (100,000 of 100,000)');
    await expect.poll(() => terms('episodic_trace')).toEqual(['step(100000)']);
    // step(99999) → step(100000): one predicate, so a change against the turn before.
    expect(await marked('episodic_trace', 'changed')).toEqual(['step(100000)']);
    // Live: turns appended at the end appear, and following moves the player to them.
    await page.getByTestId('follow-live').check();
    expect((await ingest([row(100_001), row(100_002)])).status).toBe(200);
    await expect.poll(readout, { timeout: 15_000 }).toBe('Turn 100,002 (100,002 of 100,002)');
    await expect.poll(() => terms('episodic_trace')).toEqual(['step(100002)']);
    console.log(`[replay] 100,000 turns: ingested in ${ingested} ms, opened at turn 1 in ${opened} ms after that`);
  }, 240_000);
});
