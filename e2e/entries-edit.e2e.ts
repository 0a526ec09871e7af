import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchPage } from './browser';
import { open } from './page';
import { uiServer } from './ui-server';

const srv = uiServer();
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ browser, page } = await launchPage({ baseURL: srv.url }));
});
afterAll(async () => browser?.close());

const detail = () => page.getByTestId('entry-detail');

async function newEntry(scope: string, content: string) {
  await page.getByTestId('new-entry').click();
  const d = page.getByTestId('new-entry-dialog');
  await d.getByLabel('Entry scope').selectOption(scope);
  await d.getByLabel('Entry kind').selectOption('procedure');
  // Deprecations and conflicts are written by Deprecate… and Link…, naming the entries they are about.
  expect(await d.getByLabel('Entry kind').locator('option').allTextContents()).toEqual([
    'fact',
    'decision',
    'preference',
    'risk',
    'procedure',
    'hypothesis',
    'evidence',
  ]);
  await d.getByLabel('Entry content').fill(content);
  await d.getByRole('button', { name: 'Write entry' }).click();
  await d.waitFor({ state: 'detached' });
  await expect.poll(() => detail().textContent()).toContain(content.slice(0, 30));
  return new URL(page.url()).searchParams.get('entry')!;
}

describe('a reviewer edits memory directly', () => {
  it('writes an entry, edits it with a reason kept in its history, and links it to another', async () => {
    await open(page, '/curation/entries');
    await newEntry('team_memory', 'Page the database on-call before failing over the primary.');
    expect(await detail().getByTestId('versions').textContent()).toMatch(/v1append\s*local-user/);

    await detail().getByTestId('edit-entry-open').click();
    const form = detail().getByTestId('edit-entry');
    await form.getByLabel('Entry content').fill('Page the database on-call and wait 5 minutes before failing over.');
    expect(await form.getByRole('button', { name: 'Save version 2' }).isDisabled()).toBe(true);
    await form.getByLabel('Why it changes').fill('the runbook says wait five minutes');
    await form.getByRole('button', { name: 'Save version 2' }).click();
    await expect.poll(() => detail().getByTestId('versions').textContent()).toMatch(/v2update/);
    expect(await detail().getByTestId('version-note').textContent()).toContain('the runbook says wait five minutes');

    const first = new URL(page.url()).searchParams.get('entry')!;
    await newEntry('team_memory', 'Failover drills run on the first Tuesday of each month.');
    await detail().getByRole('button', { name: 'Link…' }).click();
    const link = detail().getByTestId('link-entry');
    await link.getByLabel('Relation').selectOption('supports');
    await link.getByLabel('Find the other entry').fill('failing over');
    await expect
      .poll(() => link.getByLabel('Other entry', { exact: true }).locator('option').count())
      .toBeGreaterThan(1);
    await link.getByLabel('Other entry', { exact: true }).selectOption(first);
    await link.getByRole('button', { name: 'Link' }).click();
    // The form names both ("supports" in its select, the other entry in its options): read the entry once it is gone.
    await link.waitFor({ state: 'detached' });
    await expect.poll(() => detail().textContent()).toContain('wait 5 minutes before failing over');
    expect(await detail().textContent()).toContain('supports');

    // An edit begun on one entry does not follow the reviewer to another of the same version.
    await newEntry('team_memory', 'Replica lag above 30 seconds blocks a failover.');
    await detail().getByTestId('edit-entry-open').click();
    await detail().getByTestId('edit-entry').getByLabel('Entry content').fill('Half-typed words of the lag entry.');
    await page.getByTestId('entries').locator('.inbox-row', { hasText: 'Failover drills run' }).click();
    await expect.poll(() => detail().textContent()).toContain('Failover drills run on the first Tuesday');
    expect(await detail().getByTestId('edit-entry').count()).toBe(0);
    await detail().getByTestId('edit-entry-open').click();
    expect(await detail().getByTestId('edit-entry').getByLabel('Entry content').inputValue()).toBe(
      'Failover drills run on the first Tuesday of each month.',
    );
  });

  it('by keyboard: Edit… puts the focus in its form, Escape closes a form and gives it back to Edit…', async () => {
    await open(page, '/curation/entries');
    await newEntry('team_memory', 'Rotate the deploy key every 90 days.');
    const active = () =>
      page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent);
    const editButton = detail().getByTestId('edit-entry-open');
    await editButton.focus();
    await page.keyboard.press('Enter');
    // The button went with the form's opening: the focus is in the form (it fell to the body).
    await expect.poll(active).toBe('Entry content');
    await page.keyboard.press('Escape');
    await detail().getByTestId('edit-entry').waitFor({ state: 'detached' });
    await expect.poll(active).toBe('Edit…');
    await detail().getByRole('button', { name: 'Deprecate…' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(active).toBe('Why deprecate');
    await page.keyboard.press('Escape');
    await expect.poll(() => detail().getByLabel('Why deprecate').count()).toBe(0);
    await expect.poll(active).toBe('Edit…');
    expect(await detail().textContent()).toContain('active');
  });

  it('says how long a pasted entry is against the limit; a long one is two lines in the list', async () => {
    await open(page, '/curation/entries');
    await page.getByTestId('new-entry').click();
    const d = page.getByTestId('new-entry-dialog');
    const sentence = 'The nginx keepalive timeout and its upstream value are set together. ';
    const long = sentence.repeat(60); // 4,140 characters: a maxLength would have cut it without a word
    await d.getByLabel('Entry content').fill(long);
    // The note's live region is in the page from the start, empty: wait for its words.
    const note = () => d.getByTestId('length-note').textContent();
    await expect.poll(note).toBe('4,140 characters: 140 over the limit of 4,000');
    expect(await d.getByRole('button', { name: 'Write entry' }).isDisabled()).toBe(true);
    expect(await d.getByLabel('Entry content').getAttribute('aria-invalid')).toBe('true');
    await d.getByLabel('Entry content').fill(long.slice(0, 4000));
    await expect.poll(note).toBe('4,000 of 4,000 characters');
    await d.getByLabel('Entry scope').selectOption('project');
    await d.getByRole('button', { name: 'Write entry' }).click();
    await d.waitFor({ state: 'detached' });
    const row = page.getByTestId('entries').locator('.inbox-row[aria-current="true"] .clip');
    const { height, lineHeight } = await row.evaluate((el) => ({
      height: el.getBoundingClientRect().height,
      lineHeight: parseFloat(getComputedStyle(el).lineHeight),
    }));
    expect(height).toBeLessThanOrEqual(2 * lineHeight + 1);

    // The filters live in the address: a reload shows the same list; a search that finds nothing says so.
    await page
      .getByRole('group', { name: 'Scope' })
      .getByRole('button', { name: /^project/ })
      .click();
    await page.getByLabel('Status').selectOption('deprecated');
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('deprecated');
    expect(new URL(page.url()).searchParams.get('scope')).toBe('project');
    await page.reload();
    await page.waitForSelector('html[data-hydrated]');
    expect(await page.getByLabel('Status').inputValue()).toBe('deprecated');
    await page.getByLabel('Status').selectOption('');
    // Opening an entry keeps the list's filters in the address (the row's link dropped them).
    await page.getByTestId('entries').locator('.row-pick').first().click();
    await expect.poll(() => new URL(page.url()).searchParams.get('entry')).not.toBeNull();
    expect(new URL(page.url()).searchParams.get('scope')).toBe('project');
    await page.getByLabel('Search entries').fill('nothingmatcheshere');
    await expect
      .poll(() => page.getByTestId('entries').textContent())
      .toContain('No entry in project matches “nothingmatcheshere”');
  });
});
