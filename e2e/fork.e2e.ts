import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchPage } from './browser';
import { open, replayKeysReady, turnReadout } from './page';
import { uiServer } from './ui-server';

const srv = uiServer();
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ browser, page } = await launchPage({ baseURL: srv.url }));
});
afterAll(async () => browser?.close());

const dialog = () => page.getByTestId('fork-dialog');

describe('fork from a turn', () => {
  it('corrects the CCS (the parser names a bad term); the saved fork is what the agent resumes from', async () => {
    await open(page, '/sessions/itops-nginx-502?turn=20');
    await replayKeysReady(page);
    await expect.poll(() => turnReadout(page)).toContain('Turn 20');
    await page.getByTestId('fork-open').click();
    const box = dialog().getByTestId('fork-ccs');
    const original = await box.inputValue();
    // Goal and constraints first, as the state shows them: what a correction is most often about.
    expect(original).toMatch(/^goal_orientation:\n(?: {2}.+\n)*constraints:\n/);
    expect(original).toMatch(/^constraints:\n(?: {2}.+\n)* {2}no_restart\(nginx\)$/m);
    await box.fill(`${original}\nreviewer_note: checked(by_oncall`);
    await expect
      .poll(() => dialog().getByTestId('fork-problems').textContent())
      .toContain('reviewer_note: checked(by_oncall — ');
    expect(await dialog().getByRole('button', { name: 'Save fork' }).isDisabled()).toBe(true);
    await box.fill(`${original}\nreviewer_note: checked(by_oncall)`);
    await dialog().getByRole('button', { name: 'Save fork' }).click();
    await dialog().getByTestId('fork-done').waitFor();
    const id = (await dialog().getByTestId('fork-done').locator('b.mono').textContent())!;
    expect(id).toMatch(/^itops-nginx-502~fork-\d+$/);

    // What the agent reads to resume: the corrected state, and where it came from.
    const res = await fetch(`${srv.url}/api/v1/sessions/${encodeURIComponent(id)}/state`, {
      headers: { authorization: `Bearer ${srv.key}` },
    });
    const state = await res.json();
    expect(state).toMatchObject({ turn: 20, turns: 1, forked_from: { session: 'itops-nginx-502', turn: 20 } });
    expect(state.ccs.reviewer_note).toEqual(['checked(by_oncall)']);

    await dialog().getByRole('link', { name: 'Open the fork' }).click();
    await page.getByTestId('fork-origin').waitFor();
    expect(await page.getByTestId('fork-origin').textContent()).toContain('A fork of itops-nginx-502 at turn 20');
    await expect.poll(() => turnReadout(page)).toBe('Turn 20 (1 of 1)');
    // Compared with the session it came from: by position its turn 20 would stand beside turn 1; the link names no
    // alignment, so the page aligns them at the fork point, where it stands beside turn 20.
    await page.getByTestId('fork-origin').getByRole('link', { name: 'Compare with it' }).click();
    const aligned = page.getByTestId('fork-align');
    await expect.poll(() => aligned.textContent()).toContain('B is a fork of A at turn 20');
    await expect
      .poll(() => aligned.textContent())
      .toContain('aligned there, each turn beside the turn of the same number (B shifted by');
    await expect.poll(() => page.getByTestId('compare-readout').textContent()).toBe('A turn 20 · B turn 20');
    await expect.poll(() => page.url()).toContain('shift=-19');
    // Put back by position (a shift the reviewer names in the form), it stays so, and offers the fork point again.
    await page.getByLabel('B shifted by positions').fill('0');
    await page.getByLabel('B shifted by positions').press('Enter');
    await expect.poll(() => page.getByTestId('compare-readout').textContent()).toBe('A turn 20 · B no turn here');
    // The field Enter was pressed in keeps the focus (the form is drawn anew for the address it wrote).
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null))
      .toBe('B shifted by positions');
    await new Promise((r) => setTimeout(r, 500));
    expect(await page.getByTestId('compare-readout').textContent()).toBe('A turn 20 · B no turn here');
    await aligned.getByRole('button', { name: /^Align at the fork point \(shift −19\)/ }).click();
    await expect.poll(() => page.getByTestId('compare-readout').textContent()).toBe('A turn 20 · B turn 20');
    await expect.poll(() => page.url()).toContain('shift=-19');
    await page.goBack();
    await page.getByTestId('fork-origin').waitFor();
    await page.getByTestId('fork-origin').getByRole('link', { name: 'itops-nginx-502' }).click();
    await expect.poll(() => page.getByTestId('forks').textContent()).toContain(`${id} (turn 20)`);
  });
});
