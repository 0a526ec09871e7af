import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { launchPage } from './browser';
import { open } from './page';
import { uiDb, uiServer } from './ui-server';

/**
 * M6 end to end: an agent searches memory through the MCP endpoint, a reviewer labels the results on Curation →
 * Retrievals by keyboard and adds an entry the search missed with the combobox, and Health shows retrieval F1.
 */
const srv = uiServer();
let browser: Browser;
let page: Page;
let agent: Client;

/** A GitHub token's shape, pasted into a query: it must never reach the page (nor the database). */
const TOKEN = 'ghp_Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2';
const FOUND = [
  'Quokka ledger exports run nightly at two in the morning UTC.',
  'Compression of quokka ledger files uses zstd before upload to storage.',
  'The finance team reviews quokka ledger anomalies every Monday.',
];
const MISSED = 'Archive buckets for finance data live in the eu-west region.';

beforeAll(async () => {
  ({ browser, page } = await launchPage());
  agent = new Client({ name: 'e2e-retrievals', version: '1.0.0' });
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(`${srv.url}/api/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${srv.key}` } },
    }),
  );
});
afterAll(async () => {
  await agent?.close();
  await browser?.close();
});

const item = (i: number) => page.getByTestId('retrieval-item').nth(i);

describe(`retrieval F1 (M6) from labelled searches, on ${uiDb()}`, () => {
  it('labels an agent’s search by keyboard, adds a missed entry, and Health shows M6', async () => {
    for (const content of [...FOUND, MISSED]) {
      const r = (await agent.callTool({
        name: 'submit_memory_event',
        arguments: {
          content,
          memory_kind: 'fact',
          suggested_scope: 'project',
          source_agent: 'e2e-retrievals',
          task_id: 'T-M6',
          evidence_refs: ['commit:4e5f6a7'],
        },
      })) as unknown as { structuredContent: { disposition: string } };
      expect(r.structuredContent.disposition, content).toBe('written');
    }
    const found = (await agent.callTool({
      name: 'search_memory',
      arguments: { query: `quokka ledger ${TOKEN}`, mode: 'keyword', limit: 5 },
    })) as unknown as { structuredContent: { results: { content: string }[] } };
    const results = found.structuredContent.results.map((r) => r.content);
    expect(results.slice(0, 3).sort()).toEqual([...FOUND].sort());
    expect(results).not.toContain(MISSED);
    // Before any label (this file's server is shared: other files' reviewers may have decided proposals), Health says
    // what M6 waits for, not a blank day.
    await open(page, `${srv.url}/curation/health`);
    await expect.poll(() => page.getByTestId('latest-f1').textContent()).toBe('no search labelled yet');
    expect(await page.getByTestId('latest-p95').textContent()).toMatch(/^latest day \d{4}-\d\d-\d\d$/);
    // Each share with the counts behind it (a bare 6.3% left the reader to work out 1 of 16).
    const conflicts = (await page.locator('[data-metric=conflicts]').textContent())!;
    const [, share, n, of] = conflicts.match(/^([\d.]+)% ([\d,]+)\/([\d,]+)$/)!;
    expect(Number(share)).toBeCloseTo((Number(n!.replace(/,/g, '')) / Number(of!.replace(/,/g, ''))) * 100, 1);

    // Opened by the M6 card's link, which goes with the page: the focus is then put on the main region.
    await page.locator('main p').getByRole('link', { name: 'Retrievals', exact: true }).click();
    await page.waitForURL(`${srv.url}/curation/retrievals`);
    await page.locator('html[data-retrieval-keys]').waitFor({ state: 'attached' });
    const query = page.getByTestId('retrieval-query');
    await expect.poll(() => query.textContent()).toContain('quokka ledger');
    expect(await query.textContent()).toContain('••• github token');
    expect(await page.locator('main').textContent()).not.toContain(TOKEN);
    // Who searched: the agent's key by the name Settings shows, in the list and above the query.
    await expect
      .poll(() => page.locator('main').textContent())
      .toContain(`MNEMOSCOPE_API_KEY (environment) · key ${srv.key.slice(0, 4)}…`);
    expect(await page.locator('main').textContent()).not.toContain('api_key:');
    await expect.poll(() => page.getByTestId('retrieval-item').count()).toBe(results.length);
    expect(await axeViolations(page)).toEqual([]);
    // The arrows are the results list's with the focus on the main region, where the navigation left it (they
    // scrolled the page instead: only the body counted).
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => item(1).getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('Home');
    await expect.poll(() => item(0).getAttribute('aria-current')).toBe('true');

    // y on the first result, n on the next two: the cursor moves on after each label.
    await page.keyboard.press('y');
    await expect.poll(() => item(0).getAttribute('data-label')).toBe('relevant');
    await page.keyboard.press('n');
    await expect.poll(() => item(1).getAttribute('data-label')).toBe('not-relevant');
    await page.keyboard.press('n');
    await expect.poll(() => item(2).getAttribute('data-label')).toBe('not-relevant');
    // Home and the arrow keys move the cursor (and the focus); a relabel replaces the label.
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => item(1).getAttribute('aria-current')).toBe('true');
    expect(await item(1).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('y');
    await expect.poll(() => item(1).getAttribute('data-label')).toBe('relevant');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('n');
    await expect.poll(() => item(1).getAttribute('data-label')).toBe('not-relevant');

    // The entry the search missed, found with the combobox by its words and picked by keyboard.
    const combo = page.getByRole('combobox', { name: 'Add an entry the search missed' });
    await combo.fill('eu-west region');
    const option = page.getByRole('option').filter({ hasText: 'Archive buckets' });
    await option.waitFor();
    expect(await combo.getAttribute('aria-expanded')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await combo.press('Enter');
    const missed = page.getByTestId('retrieval-item').filter({ hasText: MISSED });
    await expect.poll(() => missed.getAttribute('data-label')).toBe('relevant');
    expect(await missed.textContent()).toContain('missed');
    await expect.poll(() => page.getByTestId('retrievals-list').textContent()).toContain('3 labelled · 1 missed');

    // 3 returned judged, 1 relevant; 1 relevant missed: precision 1/3, recall 1/2, F1 0.4.
    await open(page, `${srv.url}/curation/health`);
    const m6 = page.getByTestId('health-m6');
    await expect.poll(() => m6.locator('[data-metric=f1]').textContent()).toBe('40.0%');
    expect(await m6.locator('[data-metric=precision]').textContent()).toBe('33.3%');
    expect(await m6.locator('[data-metric=recall]').textContent()).toBe('50.0%');
    expect(await m6.locator('[data-metric=labelled]').textContent()).toBe('1 search labelled');
    expect(await m6.getByTestId('latest-f1').textContent()).toMatch(/^latest day \d{4}-\d\d-\d\d$/);
    // Labelled on one day: a single point is no trend, and the panel says so instead of drawing a dot.
    expect(await m6.getByTestId('trend-none').textContent()).toBe('one day: no trend yet');
    expect(await m6.locator('svg').count()).toBe(0);
    expect(await m6.getByRole('link', { name: 'Retrievals' }).getAttribute('href')).toBe('/curation/retrievals');
    expect(await page.locator('main').textContent()).not.toContain('needs relevance labels');
  });

  it('a search limited to a reader says whose, and an entry that reader does not read is no miss of it', async () => {
    // Another project's entry: a reader of the finance project does not read it.
    const payroll = 'Quokka ledger retention for the payroll project is seven years.';
    const sent = (await agent.callTool({
      name: 'submit_memory_event',
      arguments: {
        content: payroll,
        memory_kind: 'fact',
        suggested_scope: 'project',
        source_agent: 'e2e-retrievals',
        task_id: 'T-M6',
        project_id: 'payroll',
        evidence_refs: ['commit:5f6a7b8'],
      },
    })) as unknown as { structuredContent: { disposition: string } };
    expect(sent.structuredContent.disposition).toBe('written');
    const found = (await agent.callTool({
      name: 'search_memory',
      arguments: { query: 'quokka ledger retention', mode: 'keyword', reader: { project: 'finance', task: 'T-M6' } },
    })) as unknown as { structuredContent: { results: { content: string }[] } };
    expect(found.structuredContent.results.map((r) => r.content)).not.toContain(payroll);

    await open(page, `${srv.url}/curation/retrievals`);
    const row = page.getByTestId('retrievals-list').locator('.inbox-row').first();
    await expect.poll(() => row.textContent()).toContain('as project finance, task T-M6');
    await row.locator('.row-pick').click();
    const reader = page.getByTestId('retrieval-reader');
    await expect.poll(() => reader.textContent()).toContain('Searched as project finance, task T-M6');
    expect(await reader.getByRole('link', { name: 'Read as this reader' }).getAttribute('href')).toBe(
      '/curation/read-as?project=finance&task=T-M6',
    );
    // Picked as missed, the payroll entry is refused with the reason, and no label is added.
    const combo = page.getByRole('combobox', { name: 'Add an entry the search missed' });
    await combo.fill('payroll project');
    await page.getByRole('option').filter({ hasText: 'payroll project' }).waitFor();
    await combo.press('Enter');
    await expect
      .poll(() => page.getByTestId('retrieval-banner').textContent())
      .toMatch(/read as project finance, task T-M6, who does not read entry/);
    expect(await page.getByTestId('retrieval-item').filter({ hasText: payroll }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('a link to a search that is not there says so at once, not after retries', async () => {
    await open(page, `${srv.url}/curation/retrievals?retrieval=00000000-0000-4000-8000-000000000001`);
    const detail = page.getByTestId('retrieval-detail');
    // Three retries would take ~7 s: the answer is "not found", and it is shown within 2.5 s.
    await expect.poll(() => detail.getByTestId('error').textContent(), { timeout: 2500 }).toContain('not found');
  });
});
