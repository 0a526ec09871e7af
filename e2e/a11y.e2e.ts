import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { launch } from './browser';
import { open, replayKeysReady } from './page';
import { uiServer } from './ui-server';

const PAGES = [
  '/sessions',
  '/sessions/itops-nginx-502?turn=9',
  '/curation',
  '/curation/entries',
  '/curation/read-as',
  '/curation/read-as?user=mara&team=sre&project=edge-platform&repo=itops-agent&task=inc-4471-nginx-502',
  '/curation/reports',
  '/curation/audit',
  '/curation/retrievals',
  '/curation/health',
  '/curation/simulator',
  '/curation/events',
  '/annotations',
  '/compare?a=itops-nginx-502&b=itops-nginx-502&shift=2&turn=20',
  '/hygiene',
  '/recall',
  '/connect',
  '/settings',
  '/substrate',
  '/substrate/aegis-demo',
  '/substrate/aegis-demo/dead-ends',
  '/substrate/aegis-demo/judgment',
  '/substrate/aegis-demo/audit',
];

const srv = uiServer();
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => browser?.close());

describe.each(['light', 'dark'] as const)('accessibility, %s theme', (scheme) => {
  it('every page has no serious or critical axe violation', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, colorScheme: scheme });
    const page = await context.newPage();
    const found: Record<string, string[]> = {};
    for (const path of PAGES) {
      await open(page, `${srv.url}${path}`);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
      // Loaded: no skeleton left.
      await page.waitForFunction(() => !document.querySelector('.skeleton'), null, { timeout: 15_000 });
      const v = await axeViolations(page);
      if (v.length) found[path] = v;
      // A tab or a bookmark tells the pages apart: each title names its page, not the product alone.
      if ((await page.title()) === 'Mnemoscope') found[path] = [...(found[path] ?? []), 'title: the product alone'];
    }
    await open(page, `${srv.url}/substrate/aegis-demo/judgment`);
    expect(await page.title()).toBe('Judgment · aegis-demo · Mnemoscope');
    // A dialog open: the annotate dialog (n in the replay).
    await open(page, `${srv.url}/sessions/itops-nginx-502?turn=9`);
    await replayKeysReady(page);
    await page.keyboard.press('n');
    await page.getByTestId('annotate-dialog').waitFor();
    const d = await axeViolations(page);
    if (d.length) found['annotate dialog'] = d;
    expect(found).toEqual({});
    await context.close();
  });
});

describe('layout at 1024×768', () => {
  it('no page scrolls sideways, and the sidebar is a rail that opens and stays open', async () => {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    const wide: Record<string, number> = {};
    for (const path of PAGES) {
      await open(page, `${srv.url}${path}`);
      await page.waitForFunction(() => !document.querySelector('.skeleton'), null, { timeout: 15_000 });
      // Charts take their width from a ResizeObserver a frame after they mount: the page settles, then it is measured.
      const width = () => page.evaluate(() => document.documentElement.scrollWidth);
      await expect
        .poll(width)
        .toBeLessThanOrEqual(1024)
        .catch(() => {});
      const w = await width();
      if (w > 1024) wide[path] = w;
    }
    expect(wide).toEqual({});
    // A chip whose term wraps keeps its turn number on one line (it split into "3" over "1", read as two numbers).
    await open(page, `${srv.url}/sessions/itops-nginx-502?turn=50`);
    const badges = page.getByTestId('ccs-panel').locator('.chip-badge');
    await badges.first().waitFor();
    const split = await badges.evaluateAll((els) =>
      els
        .filter((el) => {
          const text = document.createRange();
          text.selectNodeContents(el);
          return new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size > 1;
        })
        .map((el) => el.textContent),
    );
    expect(split).toEqual([]);
    // Narrow: the sidebar is a rail of 56 px; its links keep their names.
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    expect(Math.round((await sidebar.boundingBox())!.width)).toBe(56);
    expect(await page.getByRole('link', { name: 'Curation' }).count()).toBe(1);
    // Its counts stay in sight on the rail (proposals waiting), not only for screen readers.
    const waiting = page.getByRole('link', { name: 'Curation' }).locator('.count');
    expect((await waiting.boundingBox())!.width).toBeGreaterThan(10);
    // Each item is told apart by its own icon (two-letter stubs read alike: "Se", "St"), its badge inside the rail.
    const icons = await sidebar.locator('.nav-item svg.nav-icon').evaluateAll((svgs) => svgs.map((g) => g.innerHTML));
    expect(icons).toHaveLength(9);
    expect(new Set(icons).size).toBe(9);
    for (const badge of await sidebar.locator('.nav-item:not(.palette-hint) .count').all())
      expect((await badge.boundingBox())!.x + (await badge.boundingBox())!.width).toBeLessThanOrEqual(56);
    const toggle = page.getByRole('button', { name: 'Expand the sidebar' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => Math.round((await sidebar.boundingBox())!.width)).toBe(212);
    await page.reload();
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    expect(Math.round((await sidebar.boundingBox())!.width)).toBe(212);
    expect(await page.getByRole('button', { name: 'Collapse the sidebar' }).getAttribute('aria-expanded')).toBe('true');
    // Closed again on a narrow window, it is back to "a rail when narrow": a wide window shows it open.
    await page.getByRole('button', { name: 'Collapse the sidebar' }).click();
    await expect.poll(async () => Math.round((await sidebar.boundingBox())!.width)).toBe(56);
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(async () => Math.round((await sidebar.boundingBox())!.width)).toBe(212);
    // A page that ends in notFound() (rendered afresh in the browser) is a rail on a narrow window too.
    await page.setViewportSize({ width: 1024, height: 768 });
    await open(page, `${srv.url}/sessions/does-not-exist`);
    await page.getByTestId('not-found').waitFor();
    await expect.poll(async () => Math.round((await sidebar.boundingBox())!.width)).toBe(56);
    await page.close();
  });
});

describe('keyboard', () => {
  it('the first Tab reaches a skip link that moves focus past the sidebar to the page', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await open(page, `${srv.url}/curation`);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await skip.evaluate((el) => el.getBoundingClientRect().top >= 0)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
    // The next Tab is in the page, not the sidebar.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);
    // An inbox row is a button: Enter on the second opens it.
    const second = page.locator('.inbox-row').nth(1);
    await second.locator('.row-pick').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => second.getAttribute('aria-current')).toBe('true');
    // Ctrl-K: focus goes into the search box, Tab stays in the palette, Escape gives focus back to the row.
    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: 'Search all memory' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    for (let k = 0; k < 4; k++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('.palette'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.palette').count()).toBe(0);
    expect(await second.locator('.row-pick').evaluate((el) => el === document.activeElement)).toBe(true);
    // Keys pressed in the palette, off its search box, do not reach the inbox behind it.
    await page.keyboard.press('Control+k');
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole('link', { name: /Recall page/ }).focus();
    await page.keyboard.press('j');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.palette').count()).toBe(0);
    expect(await second.getAttribute('aria-current')).toBe('true');
    await page.close();
  });

  it('lists pick by Enter and arrows, the constraint timeline and the file pickers are reached by Tab', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const focused = (sel: string) => page.locator(sel).evaluate((el) => el === document.activeElement);
    // A session opened from the list by Enter: the focus is in the replay's page, not on the body.
    await open(page, `${srv.url}/sessions`);
    await page.locator('a.cell-title').first().focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/sessions\/[^/?]+/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
    // Without a ring around the whole page ([tabindex]:focus-visible drew one).
    expect(await page.locator('#main').evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('none');
    // Hygiene: each item is a button; Enter picks it, ↓ the next row's (the rows were mouse-only).
    await open(page, `${srv.url}/hygiene`);
    const picks = page.getByTestId('items-table').locator('.link-btn');
    await picks.first().waitFor();
    const [first, second] = [await picks.nth(0).textContent(), await picks.nth(1).textContent()];
    await picks.nth(0).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('item') === first);
    await page.keyboard.press('ArrowDown');
    await page.waitForURL((u) => u.searchParams.get('item') === second);
    expect(await picks.nth(1).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await picks.nth(1).getAttribute('aria-current')).toBe('true');
    // Entries: ↓ / ↑ move through the list as in the inbox, each row opened as it is reached.
    await open(page, `${srv.url}/curation/entries`);
    const rows = page.locator('[data-entry]');
    await rows.first().waitFor();
    await rows.nth(0).locator('.row-pick').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.nth(0).getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => rows.nth(1).getAttribute('aria-current')).toBe('true');
    expect(await focused('[data-entry] >> nth=1 >> .row-pick')).toBe(true);
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => rows.nth(0).getAttribute('aria-current')).toBe('true');
    // Replay: a constraint's name is a button that goes to the next turn where it appears or is dropped.
    await open(page, `${srv.url}/sessions/itops-nginx-502?turn=10`);
    await replayKeysReady(page);
    const name = page.getByTestId('constraint-timeline').getByRole('button').first();
    await name.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('turn') !== '10');
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
    // Settings: the file pickers are inputs in the tab order (they were hidden, so only a mouse could open them).
    await open(page, `${srv.url}/settings`);
    const pickers = page.getByTestId('import-files').locator('input[type=file]');
    expect(await pickers.count()).toBe(2);
    for (const input of await pickers.all()) {
      await input.focus();
      expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    }
    await page.close();
  });
});
