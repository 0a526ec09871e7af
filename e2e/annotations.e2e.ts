import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchPage } from './browser';
import { open, replayKeysReady } from './page';
import { uiServer } from './ui-server';

const srv = uiServer();
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ browser, page } = await launchPage({ baseURL: srv.url }));
});
afterAll(async () => browser?.close());

const dialog = () => page.getByTestId('annotate-dialog');
const turnNotes = () => page.getByTestId('turn-annotations');

describe('annotations', () => {
  it('an admin defines scores in Settings; a bad range is refused in words', async () => {
    await open(page, '/settings');
    const panel = page.getByTestId('score-definitions');
    await panel.getByLabel('Score name').fill('e2e_verdict');
    await panel.getByLabel('Score kind').selectOption('categorical');
    await panel.getByLabel('Categories').fill('right, wrong, unsure');
    // By keyboard: Enter defines it, and focus is back on the name, ready for the next.
    await panel.getByLabel('Categories').press('Enter');
    await panel.locator('[data-score-definition="e2e_verdict"]').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null))
      .toBe('Score name');
    await panel.getByLabel('Score name').fill('e2e_faithful');
    await panel.getByLabel('Score kind').selectOption('numeric');
    await panel.getByLabel('Lowest value').fill('1');
    await panel.getByLabel('Highest value').fill('0');
    await panel.getByRole('button', { name: 'Define score' }).click();
    // Said as the field and its reason, as a failure to define (not to load), not as the schema's issues in JSON.
    await expect
      .poll(() => panel.getByTestId('error').textContent())
      .toBe('Could not define the score: max: the highest value must be ≥ the lowest (1)');
    // The refusal is about what was sent: changing the form takes it away.
    await panel.getByLabel('Lowest value').fill('0');
    await expect.poll(() => panel.getByTestId('error').count()).toBe(0);
    await panel.getByLabel('Highest value').fill('1');
    await panel.getByRole('button', { name: 'Define score' }).click();
    expect(await panel.locator('[data-score-definition="e2e_faithful"]').textContent()).toContain('0 … 1');
  });

  it('n in the replay scores the turn and a term of its CCS; the timeline flags the turn', async () => {
    await open(page, '/sessions/itops-nginx-502?turn=12');
    await replayKeysReady(page);
    expect(await page.locator('.tl-note').count()).toBe(0);
    await page.keyboard.press('n');
    await dialog().waitFor();
    // Focus is in the dialog, and the player's keys are not: j does not step.
    await page.keyboard.press('j');
    expect(await page.getByTestId('turn-readout').textContent()).toContain('Turn 12');
    await dialog().getByTestId('annotate-score').selectOption('e2e_verdict');
    await dialog().getByLabel('wrong').check();
    await dialog().getByTestId('annotate-comment').fill('Restarted nginx although a constraint said not to.');
    await dialog().getByTestId('annotate-comment').press('Control+Enter');
    await dialog().waitFor({ state: 'detached' });
    await expect.poll(() => turnNotes().textContent()).toContain('e2e_verdict: wrong');
    expect(await turnNotes().textContent()).toContain('Restarted nginx although');
    await expect.poll(() => page.locator('.tl-note').count()).toBe(1);

    // A term: chosen in the dialog; a value out of the score's range is refused before it is sent.
    await page.getByTestId('annotate-turn').click();
    const target = dialog().getByTestId('annotate-target');
    const term = await target.locator('option[value^="term:constraints"]').first().getAttribute('value');
    await target.selectOption(term!);
    await dialog().getByTestId('annotate-score').selectOption('e2e_faithful');
    await dialog().getByTestId('annotate-value').fill('1.5');
    expect(await dialog().textContent()).toContain('must be ≤ 1 (score e2e_faithful)');
    expect(await dialog().getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog().getByTestId('annotate-value').fill('0.25');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => turnNotes().locator('[data-annotation]').count()).toBe(2);
    expect(await turnNotes().textContent()).toMatch(/e2e_faithful: 0\.25turn 12 · constraints: /);
    // Another turn has none of them.
    await page.keyboard.press('j');
    await expect.poll(() => page.getByTestId('turn-annotations-empty').count()).toBe(1);
  });

  it('n in the inbox comments on the proposal; its row counts the note', async () => {
    await open(page, '/curation');
    await page.locator('html[data-inbox-keys]').waitFor({ state: 'attached' });
    const row = page.locator('.inbox-row[aria-current="true"]');
    await row.waitFor();
    await page.getByTestId('proposal-content').waitFor();
    await page.keyboard.press('n');
    await dialog().waitFor();
    expect(await dialog().getByTestId('annotate-target').textContent()).toContain('proposal: ');
    const save = dialog().getByRole('button', { name: 'Save' });
    // Neither a score nor a comment: nothing to save.
    expect(await save.isDisabled()).toBe(true);
    await dialog().getByTestId('annotate-score').selectOption('');
    await dialog().getByTestId('annotate-comment').fill('Duplicate of the runbook entry; ask the team.');
    await save.click();
    await dialog().waitFor({ state: 'detached' });
    await expect.poll(() => row.getByTestId('annotation-count').textContent()).toBe('1 note');
    expect(await page.getByTestId('annotations-section').textContent()).toContain('Duplicate of the runbook entry');
  });

  it('a judge posts scores with the API key; the Annotations page filters them and links to the turn', async () => {
    const res = await fetch(`${srv.url}/api/v1/annotations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${srv.key}` },
      body: JSON.stringify([
        {
          id: 'e2e-judge-1',
          target: 'turn',
          session_id: 'itops-nginx-502',
          turn: 30,
          name: 'e2e_faithful',
          value: 0.9,
          author: 'e2e-judge',
        },
        {
          id: 'e2e-judge-2',
          target: 'turn',
          session_id: 'itops-nginx-502',
          turn: 31,
          name: 'e2e_faithful',
          value: 4,
          author: 'e2e-judge',
        },
        // A turn not stored (yet): kept, and listed as such, not linked.
        {
          id: 'e2e-judge-4',
          target: 'turn',
          session_id: 'itops-nginx-502',
          turn: 999,
          name: 'e2e_faithful',
          value: 0.5,
          author: 'e2e-judge-early',
        },
        // No author: the key that sent it.
        {
          id: 'e2e-judge-3',
          target: 'turn',
          session_id: 'itops-nginx-502',
          turn: 32,
          name: 'e2e_faithful',
          value: 0.7,
        },
      ]),
    });
    expect(res.status).toBe(207);
    expect((await res.json()).results[1].errors[0]).toEqual({
      path: 'data.value',
      message: 'must be ≤ 1 (score e2e_faithful)',
    });
    await open(page, '/annotations');
    const list = page.getByTestId('all-annotations');
    await list.waitFor();
    await page.getByLabel('Filter by author').selectOption('e2e-judge');
    await expect.poll(() => list.locator('[data-annotation]').count()).toBe(1);
    await expect.poll(() => page.url()).toContain('author=e2e-judge');
    expect(await list.textContent()).toContain('e2e_faithful: 0.9');
    await page.getByLabel('Filter by author').selectOption('e2e-judge-early');
    const early = list.locator('[data-annotation="e2e-judge-4"]');
    await expect
      .poll(() => early.getByTestId('target-missing').getAttribute('title'))
      .toBe('session "itops-nginx-502" has no turn 999 yet: the annotation is kept');
    expect(await early.getByRole('link').count()).toBe(0);
    await page.getByLabel('Filter by author').selectOption('e2e-judge');
    await list.getByRole('link', { name: /itops-nginx-502 · turn 30/ }).click();
    await expect.poll(() => page.getByTestId('turn-readout').textContent()).toContain('Turn 30');
    await expect.poll(() => turnNotes().textContent()).toContain('e2e-judge');
    // One sent without an author is the key's: named as Settings names it, in the filter and the row.
    await open(page, '/annotations');
    const byKey = page
      .getByLabel('Filter by author')
      .locator('option', { hasText: 'MNEMOSCOPE_API_KEY (environment)' });
    await byKey.waitFor({ state: 'attached' });
    await page.getByLabel('Filter by author').selectOption((await byKey.getAttribute('value'))!);
    await expect.poll(() => list.locator('[data-annotation]').count()).toBeGreaterThanOrEqual(1);
    expect(await list.textContent()).toContain(`MNEMOSCOPE_API_KEY (environment) · key ${srv.key.slice(0, 4)}…`);
    expect(await list.textContent()).not.toContain('api_key:');
    // Removing one says which, asks first (nothing brings it back), and keeps it when told no. Narrowed to this
    // score: other files' annotations by the same key would push it off the first page when the list refetches.
    await open(page, '/annotations?name=e2e_faithful');
    const row = list.locator('[data-annotation="e2e-judge-3"]');
    const key = `MNEMOSCOPE_API_KEY (environment) · key ${srv.key.slice(0, 4)}…`;
    const remove = row.getByRole('button', { name: `Remove e2e_faithful 0.7 on itops-nginx-502 · turn 32 by ${key}` });
    const asked: string[] = [];
    page.once('dialog', (d) => (asked.push(d.message()), void d.dismiss()));
    await remove.click();
    expect(asked).toEqual([expect.stringMatching(/^Remove e2e_faithful 0\.7 on .*It cannot be undone\.$/)]);
    expect(await row.count()).toBe(1);
    // Nor was it removed on the server (a delete sent in spite of the "no" would be there by the time of this read).
    await page.waitForLoadState('networkidle');
    const kept = await fetch(`${srv.url}/api/v1/annotations?session_id=itops-nginx-502&name=e2e_faithful`, {
      headers: { authorization: `Bearer ${srv.key}` },
    });
    expect(((await kept.json()) as { annotations: { id: string }[] }).annotations.map((a) => a.id)).toContain(
      'e2e-judge-3',
    );
    page.once('dialog', (d) => void d.accept());
    await remove.click();
    await expect.poll(() => row.count()).toBe(0);
  });

  it('says a target the address names that is none is not filtered by, not offering it as a choice', async () => {
    await open(page, '/annotations?target=bogus');
    await expect
      .poll(() => page.getByTestId('unknown-target').textContent())
      .toBe('target “bogus” is none of turn, term, artifact, proposal, entry: not filtered by it.');
    const select = page.getByLabel('Filter by target');
    expect(await select.inputValue()).toBe('');
    expect(await select.locator('option').allTextContents()).not.toContain('bogus (0)');
    // A known target with no annotation now is still a choice, with its count.
    await open(page, '/annotations?target=entry');
    await expect.poll(() => select.inputValue()).toBe('entry');
    expect(await page.getByTestId('unknown-target').count()).toBe(0);
  });
});
