import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch } from './browser';
import { holdRequests, open } from './page';
import { MODEL_CHOICE_KEY } from '@/lib/recall/model';
import { uiServer } from './ui-server';

const srv = uiServer();
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => browser?.close());

async function fresh(): Promise<{ context: BrowserContext; page: Page; requests: Request[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const requests: Request[] = [];
  context.on('request', (r) => requests.push(r));
  return { context, page: await context.newPage(), requests };
}

/** Waits until the model is loaded and every item has its vector. */
async function indexReady(page: Page) {
  await page
    .locator('[data-testid=recall-status][data-model=ready][data-corpus=ready][data-building="0"]')
    .first()
    .waitFor({ timeout: 60_000 });
}

/** Searches from the palette (Ctrl-K) and opens all its results on the Recall page (its footer link). */
async function paletteToRecall(page: Page, q: string) {
  await page.keyboard.press('Control+k');
  await page.getByLabel('Search all memory').fill(q);
  // A hit of memory, not a page (every page is listed before a word is typed).
  await page.getByTestId('palette-results').locator('li[data-kind]').first().waitFor();
  await page.getByRole('link', { name: /^All results, filters and “more like this” on the Recall page/ }).click();
}

describe('recall', () => {
  it('Ctrl-K finds the nginx 502 turns by meaning with the network cut off, and sends the query nowhere', async () => {
    const { context, page, requests } = await fresh();
    await open(page, `${srv.url}/sessions`);
    await page.keyboard.press('Control+k');
    await indexReady(page);
    // The 26 MB model is fetched once (its size is probed with a one-byte range request for the progress bar).
    const whole = requests.filter((r) => /\/models\/.*\.onnx$/.test(r.url()) && !r.headers()['range']);
    expect(whole.map((r) => r.url())).toEqual([`${srv.url}/models/mnemoscope/static-en-256/onnx/model_quantized.onnx`]);
    await context.setOffline(true);
    const query = 'the web server keeps returning bad gateway';
    await page.getByLabel('Search all memory').fill(query);
    const results = page.getByTestId('palette-results').locator('li');
    await results.first().waitFor();
    const hrefs = await results.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-href') ?? ''));
    expect(hrefs.slice(0, 5).filter((h) => h.startsWith('/sessions/itops-nginx-502')).length).toBeGreaterThanOrEqual(3);
    // The highlighted row is the combobox's active descendant (a screen reader announces it); ↓ moves it.
    const box = page.getByLabel('Search all memory');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await results.first().getAttribute('id'));
    await box.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await results.nth(1).getAttribute('id'));
    await box.press('ArrowUp');
    // Each row says why it ranks where it does: its keyword rank and its cosine, as the fused order used them.
    for (const why of await page.getByTestId('palette-why').allTextContents())
      expect(why).toMatch(/^(keyword #\d+ · cos 0\.\d\d|keyword #\d+|cos 0\.\d\d)$/);
    expect((await page.getByTestId('palette-why').allTextContents()).some((w) => w.startsWith('keyword'))).toBe(true);
    // Each row says where it comes from: its agent and session.
    const placed = results.filter({ has: page.getByTestId('palette-place').filter({ hasText: 'itops-nginx-502' }) });
    expect(await placed.count()).toBeGreaterThanOrEqual(3);
    // None of the query's words travel: not in a URL, not in a body, not from a worker.
    const words = ['bad gateway', 'bad%20gateway', 'bad+gateway', 'returning'];
    for (const r of requests) {
      const text = `${r.url()} ${r.postData() ?? ''}`;
      for (const w of words) expect(text, `${r.method()} ${r.url()}`).not.toContain(w);
    }
    // Back online, Enter opens the exact turn.
    await context.setOffline(false);
    const top = hrefs[0]!;
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => `${u.pathname}${u.search}` === top);
    await page.locator('html[data-replay-keys]').waitFor({ state: 'attached' });
    // The focus is in the page opened (it fell to the body with the palette's old page), and Tab goes on from there.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('#main'))).toBe(true);
    await context.close();
  });

  it('finds exact identifiers through the keyword side, and opens a hit at its turn', async () => {
    const { context, page } = await fresh();
    // Every value the model download's progress bar takes, as the page shows it.
    await page.addInitScript(() => {
      const seen: number[] = [];
      (window as unknown as { seen: number[] }).seen = seen;
      new MutationObserver(() => {
        const v = document
          .querySelector('[role=progressbar][aria-label="Model download"]')
          ?.getAttribute('aria-valuenow');
        if (v != null && seen.at(-1) !== Number(v)) seen.push(Number(v));
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    await open(page, `${srv.url}/recall`);
    await indexReady(page);
    // It only goes forward (it fell back to 0 when a second file began: 0, 100, 0, 1, …).
    const seen = await page.evaluate(() => (window as unknown as { seen: number[] }).seen);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    await page.getByLabel('Search memory').fill('Mail.ReadWrite');
    const first = page.getByTestId('hit-link').first();
    await expect.poll(() => first.textContent()).toContain('Mail.ReadWrite');
    const href = (await first.getAttribute('href'))!;
    expect(href).toMatch(/^\/sessions\/secops-oauth-consent\?turn=\d+$/);
    await first.click();
    await page.waitForURL((u) => `${u.pathname}${u.search}` === href);
    await context.close();
  });

  it('filters by kind, finds more like an item, and clusters near-duplicates', async () => {
    const { context, page } = await fresh();
    await open(page, `${srv.url}/recall`);
    await indexReady(page);
    // Gibberish shares no word with anything: the nearest by meaning are listed, and said to be only that.
    await page.getByLabel('Search memory').fill('zzqxv');
    await expect
      .poll(() => page.getByTestId('meaning-only').textContent())
      .toMatch(
        /^No result shares a word with “zzqxv”: these are only the nearest by meaning \(cosine at most 0\.\d\d\)/,
      );
    await page.getByLabel('Search memory').fill('keepalive');
    await expect.poll(() => page.getByTestId('meaning-only').count()).toBe(0);
    // Meaning ranks every item: the best 50 are listed, and said to be the top of more, not all there is.
    await expect
      .poll(() => page.getByTestId('recall-count').textContent())
      .toBe('The top 50 results · more match: show more below, or add words or filters to narrow');
    expect(await page.getByTestId('hit-link').count()).toBe(50);
    // The next 50 by keyboard: listed under the first, and the focus goes on to the first of them.
    const fifty = await page.getByTestId('hit-link').allTextContents();
    await page.getByTestId('recall-show-more').focus();
    await page.keyboard.press('Enter');
    // Meaning ranks items down to a floor of cosine: the next ones above it are listed under the first 50, in the same
    // order, and counted (how many depends on what the other tests stored before this one).
    await expect.poll(async () => (await page.getByTestId('hit-link').count()) > 50).toBe(true);
    const listed = await page.getByTestId('hit-link').count();
    expect((await page.getByTestId('hit-link').allTextContents()).slice(0, 50)).toEqual(fifty);
    await expect
      .poll(() => page.getByTestId('recall-count').textContent())
      .toMatch(listed > 100 ? /^The top 100 results · more match/ : new RegExp(`^${listed} results$`));
    await expect
      .poll(() =>
        page.evaluate(() => [...document.querySelectorAll('[data-testid=hit-link]')].indexOf(document.activeElement!)),
      )
      .toBe(50);
    // Other words start again from the best 50.
    await page.getByLabel('Search memory').fill('keepalive timeout');
    await expect.poll(() => page.getByTestId('hit-link').count()).toBe(50);
    await page.getByLabel('Search memory').fill('keepalive');
    await expect.poll(() => page.getByTestId('hit-link').count()).toBe(50);
    // By keywords alone fewer match: all of them, counted.
    await page.getByRole('button', { name: 'Keyword', exact: true }).click();
    await expect.poll(() => page.getByTestId('recall-count').textContent()).toMatch(/^([2-9]|[1-4]\d) results$/);
    const n = Number((await page.getByTestId('recall-count').textContent())!.split(' ')[0]);
    expect(await page.getByTestId('hit-link').count()).toBe(n);
    await page.getByRole('button', { name: 'Hybrid', exact: true }).click();
    await expect.poll(() => page.getByTestId('more-match').count()).toBe(1);
    // The rows of the answer before stay on screen, dimmed and aria-busy, until the words and the kind are searched.
    const body = page.getByTestId('recall-results').locator('tbody');
    await page.getByLabel('Search memory').fill('flaky ingestion job');
    await expect.poll(() => body.getAttribute('aria-busy')).toBeNull();
    await page.getByRole('button', { name: /^dead end/ }).click();
    const rows = page.getByTestId('recall-results').locator('tr');
    await expect.poll(() => body.getAttribute('aria-busy')).toBeNull();
    expect(new Set(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-kind'))))).toEqual(
      new Set(['dead_end']),
    );
    const firstText = await page.getByTestId('hit-link').first().textContent();
    await page.getByRole('button', { name: 'More like this' }).first().click();
    await page.getByText('Back to results').waitFor();
    await expect.poll(async () => (await rows.count()) > 0).toBe(true);
    expect(await page.getByTestId('hit-link').first().textContent()).not.toBe(firstText);
    expect(await page.getByTestId('recall-results').textContent()).toMatch(/cos 0\.\d\d/);
    // "More like this" is in the address: a reload, or the link sent to a colleague, shows the same similar items.
    expect(new URL(page.url()).hash).toMatch(/^#q=flaky\+ingestion\+job&kind=dead_end&like=dead_end%3A/);
    const similar = await page.getByTestId('hit-link').allTextContents();
    await page.reload();
    await indexReady(page);
    await expect.poll(() => page.getByTestId('more-like').textContent()).toMatch(/^More like dead end \S/);
    await expect.poll(() => page.getByTestId('hit-link').allTextContents()).toEqual(similar);
    await page.getByText('Back to results').click();
    await expect.poll(() => page.getByTestId('hit-link').first().textContent()).toBe(firstText);
    expect(new URL(page.url()).hash).toBe('#q=flaky+ingestion+job&kind=dead_end');
    // A link to more like an item memory no longer holds says so.
    await open(page, `${srv.url}/recall#like=dead_end%3Anobody%2Fgone`);
    await page.getByText("That item is not in this project's memory").waitFor();
    expect(await page.getByTestId('more-like').textContent()).toBe('More like dead_end:nobody/goneBack to results');
    // Duplicates: the demo's CCS terms repeat across turns and sessions.
    await page.getByRole('button', { name: /^dead end/ }).click();
    await page.getByRole('button', { name: 'Duplicates' }).click();
    const clusters = page.getByTestId('duplicate-clusters').locator('.cluster');
    await clusters.first().waitFor();
    expect(await clusters.count()).toBeGreaterThan(0);
    // Alike wording is not the same fact: the EHR agent's records for different patients are marked apart, with the
    // words that differ; the panel's title counts them.
    const other = page.getByTestId('duplicate-clusters').locator('[data-verdict=distinct]');
    await expect.poll(() => other.count()).toBeGreaterThan(0);
    expect(await other.first().textContent()).toMatch(/^another fact \S.* ≠ \S/);
    expect(await page.locator('main').textContent()).toMatch(/shown state a different fact than their cluster's first/);
    await context.close();
  });

  it('narrows to one session picked by typing part of its name, and back to all when the text is cleared', async () => {
    const { context, page } = await fresh();
    await open(page, `${srv.url}/recall`);
    await indexReady(page);
    await page.getByLabel('Search memory').fill('502');
    const links = page.getByTestId('hit-link');
    const sessionsOf = async () =>
      new Set(
        (await links.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))).map(
          (h) => h.match(/^\/sessions\/([^?/]+)/)?.[1] ?? h,
        ),
      );
    await expect.poll(async () => (await sessionsOf()).size).toBeGreaterThan(1);
    const combo = page.getByRole('combobox', { name: 'Session' });
    expect(await combo.getAttribute('placeholder')).toMatch(/^all \d+ sessions$/);
    await combo.focus();
    await page.keyboard.type('NGINX');
    const options = page.getByRole('listbox', { name: 'Sessions' }).getByRole('option');
    await expect.poll(() => options.allTextContents()).toEqual(['itops-nginx-502']);
    await page.keyboard.press('Enter');
    expect(await combo.inputValue()).toBe('itops-nginx-502');
    await expect.poll(async () => [...(await sessionsOf())]).toEqual(['itops-nginx-502']);
    // Half-typed and left: the session picked before stays.
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Tab');
    expect(await combo.inputValue()).toBe('itops-nginx-502');
    await combo.fill('');
    await expect.poll(async () => (await sessionsOf()).size).toBeGreaterThan(1);
    await context.close();
  });

  it('keeps its search in the address, after the # that the server never sees: a reload shows it again', async () => {
    const { context, page, requests } = await fresh();
    await open(page, `${srv.url}/recall`);
    await indexReady(page);
    await page.getByLabel('Search memory').fill('keepalive timeout');
    await page.getByRole('button', { name: 'Keyword', exact: true }).click();
    await page.getByRole('button', { name: /^turn \d/ }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#q=keepalive+timeout&mode=keyword&kind=turn');
    const kindsShown = () =>
      page
        .getByTestId('recall-results')
        .locator('tbody tr')
        .evaluateAll((trs) => [...new Set(trs.map((tr) => tr.getAttribute('data-kind')))]);
    await expect.poll(kindsShown).toEqual(['turn']);
    await page.reload();
    await indexReady(page);
    expect(await page.getByLabel('Search memory').inputValue()).toBe('keepalive timeout');
    expect(await page.getByRole('button', { name: 'Keyword', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('button', { name: /^turn \d/ }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(kindsShown).toEqual(['turn']);
    expect(await page.getByTestId('hit-link').first().textContent()).toMatch(/keepalive/i);
    // From the palette, on this page: its search replaces the page's (and the filters go back to their defaults).
    await paletteToRecall(page, 'bad gateway');
    await expect.poll(() => page.getByLabel('Search memory').inputValue()).toBe('bad gateway');
    expect(new URL(page.url()).hash).toBe('#q=bad+gateway');
    // The same search from the palette again is no new entry in the history.
    const before = await page.evaluate(() => history.length);
    await paletteToRecall(page, 'bad gateway');
    await page.getByLabel('Search all memory').waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => history.length)).toBe(before);
    // Back returns to the search before it, its words and filters.
    await page.goBack();
    await expect.poll(() => page.getByLabel('Search memory').inputValue()).toBe('keepalive timeout');
    expect(new URL(page.url()).hash).toBe('#q=keepalive+timeout&mode=keyword&kind=turn');
    expect(await page.getByRole('button', { name: 'Keyword', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(kindsShown).toEqual(['turn']);
    // A search typed after a pause is a new entry: Back from it returns here, not to each letter of it.
    await page.getByLabel('Search memory').fill('bad gate');
    await page.getByLabel('Search memory').press('w');
    await page.getByLabel('Search memory').press('a');
    await expect.poll(() => new URL(page.url()).hash).toBe('#q=bad+gatewa&mode=keyword&kind=turn');
    await page.goBack();
    await expect.poll(() => page.getByLabel('Search memory').inputValue()).toBe('keepalive timeout');
    // An address changed with no hashchange (history.replaceState; Next's links push it so) is read at once, not
    // written over with the search shown: a click right after it acts on that search.
    await expect.poll(kindsShown).toEqual(['turn']);
    await expect.poll(() => page.getByTestId('recall-results').locator('tbody').getAttribute('aria-busy')).toBeNull();
    await page.evaluate(() => {
      history.replaceState(history.state, '', '#q=bad+gateway');
      [...document.querySelectorAll('button')].find((b) => b.textContent === 'Meaning')!.click();
    });
    await expect.poll(() => page.getByLabel('Search memory').inputValue()).toBe('bad gateway');
    await expect.poll(() => new URL(page.url()).hash).toBe('#q=bad+gateway&mode=vector');
    expect(await page.getByRole('button', { name: 'Meaning', exact: true }).getAttribute('aria-pressed')).toBe('true');
    // A link's address in another form than the page writes (%20, defaults spelled out) is rewritten in place, not
    // pushed: Back from it leaves the page rather than landing on it again.
    await open(page, `${srv.url}/recall#mode=hybrid&q=bad%20gateway`);
    const entries = await page.evaluate(() => history.length);
    await expect.poll(() => new URL(page.url()).hash).toBe('#q=bad+gateway');
    expect(await page.evaluate(() => history.length)).toBe(entries);
    // The searches were never sent: not in the reload's address, not in any request (the hits' links hold ids).
    for (const r of requests) {
      const text = `${r.url()} ${r.postData() ?? ''}`;
      for (const q of ['keepalive timeout', 'bad gateway'])
        for (const w of [q, q.replace(' ', '+'), q.replace(' ', '%20')]) expect(text).not.toContain(w);
    }
    await context.close();
  });

  it('shows an agent or scope a link names that nothing has as the filter it is, which can be undone', async () => {
    const { context, page } = await fresh();
    await open(page, `${srv.url}/recall#q=bad+gateway&agent=nobody&scope=nowhere`);
    await indexReady(page);
    const agent = page.getByLabel('Agent');
    await expect.poll(() => agent.locator('option:checked').textContent()).toBe('nobody (nothing stored)');
    const scope = page.getByLabel('Scope', { exact: true });
    expect(await scope.locator('option:checked').textContent()).toBe('nowhere (nothing stored)');
    await expect.poll(() => page.getByTestId('recall-results').count()).toBe(0);
    await agent.selectOption('');
    await scope.selectOption('');
    await expect.poll(() => page.getByTestId('recall-results').locator('tbody tr').count()).toBeGreaterThan(0);
    await expect.poll(() => new URL(page.url()).hash).toBe('#q=bad+gateway');
    await context.close();
  });

  it('without the Navigation API, an address changed with no hashchange is read, not written over', async () => {
    // Where the browser cannot say that the address changed (no `navigation`), the page finds out when it next
    // writes: the address wins over the search shown. Without that check, the old search was written over it.
    const { context, page } = await fresh();
    await context.addInitScript(() => Object.defineProperty(window, 'navigation', { value: undefined }));
    await open(page, `${srv.url}/recall`);
    await indexReady(page);
    expect(await page.evaluate(() => 'navigation' in window && window.navigation)).toBeFalsy();
    await page.getByLabel('Search memory').fill('keepalive timeout');
    await page.getByRole('button', { name: 'Keyword', exact: true }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#q=keepalive+timeout&mode=keyword');
    await expect.poll(() => page.getByTestId('recall-results').locator('tbody').getAttribute('aria-busy')).toBeNull();
    await page.evaluate(() => {
      history.replaceState(history.state, '', '#q=bad+gateway');
      [...document.querySelectorAll('button')].find((b) => b.textContent === 'Meaning')!.click();
    });
    await expect.poll(() => page.getByLabel('Search memory').inputValue()).toBe('bad gateway');
    expect(new URL(page.url()).hash).toBe('#q=bad+gateway');
    await context.close();
  });

  it('opened at a search, the sidebar link still starts a new search and the palette shows its own', async () => {
    // Next.js took the first address, fragment and all, as the route's (vercel/next.js#96714): the sidebar's Recall
    // link brought the first search back, and the palette's search was joined to it (#q=keepalive+timeout%23q%3Dbad…).
    const { context, page } = await fresh();
    await open(page, `${srv.url}/recall#q=keepalive+timeout`);
    await indexReady(page);
    expect(await page.getByLabel('Search memory').inputValue()).toBe('keepalive timeout');
    expect(new URL(page.url()).hash).toBe('#q=keepalive+timeout');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: /^Sessions/ }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/sessions');
    await paletteToRecall(page, 'bad gateway');
    await expect.poll(() => page.getByLabel('Search memory').inputValue()).toBe('bad gateway');
    expect(new URL(page.url()).hash).toBe('#q=bad+gateway');
    // On the Recall page, its sidebar link is a new search; Back returns to the one before.
    await nav.getByRole('link', { name: /^Recall/ }).click();
    await expect.poll(() => page.getByLabel('Search memory').inputValue()).toBe('');
    expect(page.url()).toBe(`${srv.url}/recall`);
    await page.goBack();
    await expect.poll(() => page.getByLabel('Search memory').inputValue()).toBe('bad gateway');
    expect(new URL(page.url()).hash).toBe('#q=bad+gateway');
    // Reloaded at a search, then Back and the sidebar's link: a new search again.
    await page.reload();
    await indexReady(page);
    // The fragment is put back once Next.js has started (held-fragment.ts), and then read by the page.
    await expect.poll(() => page.getByLabel('Search memory').inputValue()).toBe('bad gateway');
    await nav.getByRole('link', { name: /^Sessions/ }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/sessions');
    await page.goBack();
    await expect.poll(() => page.getByLabel('Search memory').inputValue()).toBe('bad gateway');
    await nav.getByRole('link', { name: /^Recall/ }).click();
    await expect.poll(() => page.getByLabel('Search memory').inputValue()).toBe('');
    expect(page.url()).toBe(`${srv.url}/recall`);
    await context.close();
  });

  it('the palette goes to a page by its name and finds a session by its title', async () => {
    const { context, page, requests } = await fresh();
    await open(page, `${srv.url}/sessions`);
    await page.keyboard.press('Control+k');
    // Before a word is typed, every page is offered.
    const rows = page.getByTestId('palette-results').locator('li');
    await expect
      .poll(() => rows.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-page'))))
      .toContain('/curation/health');
    // A few letters name the page (first, above any memory); Enter goes there.
    const box = page.getByLabel('Search all memory');
    await box.fill('heal');
    await expect.poll(() => rows.first().getAttribute('data-page')).toBe('/curation/health');
    expect(await rows.first().textContent()).toContain('Curator health');
    await box.press('Enter');
    await page.waitForURL(`${srv.url}/curation/health`);
    // A session by words of its title, which leave the browser no more than any other query's.
    await page.keyboard.press('Control+k');
    await indexReady(page);
    await box.fill('intermittent http/2');
    const session = rows.and(page.locator('li[data-kind=session]'));
    await session.first().waitFor();
    expect(await session.first().getAttribute('data-href')).toBe('/sessions/itops-nginx-502');
    expect(await session.first().textContent()).toContain('Intermittent 502s in Nginx after enabling HTTP/2');
    for (const r of requests) expect(`${r.url()} ${r.postData() ?? ''}`).not.toMatch(/intermittent/i);
    await session.first().click();
    await page.waitForURL(`${srv.url}/sessions/itops-nginx-502`);
    await context.close();
  });

  it('the palette shows three hits of a kind from one place at most, the rest on the Recall page', async () => {
    const { context, page } = await fresh();
    await open(page, `${srv.url}/sessions`);
    await page.keyboard.press('Control+k');
    await indexReady(page);
    // The demo's judge wrote a dozen alike judgments of this one task: they filled the palette.
    await page.getByLabel('Search all memory').fill('research the 502 errors');
    // Other files import the same UCS workspace under other agents' names (one server for the run): per agent.
    const aegis = page.getByTestId('palette-results').locator('li[data-more]').filter({ hasText: 'from aegis-demo' });
    await aegis.waitFor();
    const rows = page.getByTestId('palette-results').locator('li');
    const shown = await rows.evaluateAll((lis) =>
      lis.map((li) => {
        if (li.hasAttribute('data-more')) return `more ${/from (\S+),/.exec(li.textContent ?? '')?.[1]}`;
        const agent = li.querySelector('[data-testid=palette-place]')?.textContent?.split(' · ')[0];
        return `${li.getAttribute('data-kind')} ${agent}`;
      }),
    );
    const judgedBy = new Map<string, number>();
    for (const r of shown.filter((x) => x.startsWith('judgment '))) judgedBy.set(r, (judgedBy.get(r) ?? 0) + 1);
    expect(judgedBy.get('judgment aegis-demo')).toBe(3);
    expect(Math.max(...judgedBy.values())).toBeLessThanOrEqual(3);
    const count = Number(await aegis.getAttribute('data-more'));
    expect(count).toBeGreaterThan(3);
    expect(await aegis.textContent()).toMatch(new RegExp(`${count} more judgments from aegis-demo, on the Recall`));
    // Chosen by keyboard, it opens the Recall page on that kind from that agent.
    const at = shown.indexOf('more aegis-demo');
    for (let i = 0; i < at; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/recall');
    expect(new URL(page.url()).hash).toBe('#q=research+the+502+errors&kind=judgment&agent=aegis-demo');
    await indexReady(page);
    const body = page.getByTestId('recall-results').locator('tbody');
    await expect.poll(() => body.locator('tr').count()).toBeGreaterThanOrEqual(3 + count);
    const kinds = await body.locator('tr').evaluateAll((trs) => [...new Set(trs.map((tr) => tr.dataset.kind))]);
    expect(kinds).toEqual(['judgment']);
    expect(await page.getByLabel('Agent').inputValue()).toBe('aegis-demo');
    await context.close();
  });

  it('picks up memory that arrives while the page is open, and embeds only that on the next visit', async () => {
    const { context, page } = await fresh();
    await open(page, `${srv.url}/recall`);
    await indexReady(page);
    const before = Number(
      (await page.getByTestId('recall-status').textContent())!.match(/([\d,]+) items/)![1]!.replace(/,/g, ''),
    );
    const event = {
      event_id: `memevt_recall_${Date.now()}`,
      timestamp: '2026-11-21T08:00:00Z',
      source_agent: 'acc-itops',
      task_id: 'task_hangar',
      memory_kind: 'fact',
      content: 'The zeppelin hangar thermostat drifts two degrees every night',
      suggested_scope: 'project',
      sensitivity: 'internal',
      confidence: 'medium',
      evidence_refs: ['ops/hangar.md'],
      ttl: 'durable',
    };
    const res = await fetch(`${srv.url}/api/v1/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${srv.key}`, 'content-type': 'application/x-ndjson' },
      body: `${JSON.stringify({ type: 'memory_event', data: event })}\n`,
    });
    expect(res.status).toBe(200);
    // Opening the palette asks the worker for what is new.
    await page.keyboard.press('Control+k');
    // The event, and the entry the curator wrote from it.
    const count = async () =>
      Number(
        (await page.getByTestId('recall-status').first().textContent())!.match(/([\d,]+) items/)![1]!.replace(/,/g, ''),
      );
    await expect.poll(count, { timeout: 20_000 }).toBe(before + 2);
    await indexReady(page);
    const after = await count();
    await page.getByLabel('Search all memory').fill('airship hangar temperature');
    const top2 = () =>
      page
        .getByTestId('palette-results')
        .locator('li')
        .evaluateAll((lis) => lis.slice(0, 2).map((li) => li.getAttribute('data-href')));
    await expect.poll(top2, { timeout: 10_000 }).toContain(`/curation/events?focus=${event.event_id}`);
    expect((await top2()).some((h) => h?.startsWith('/curation/entries?entry='))).toBe(true);
    // A second visit in the same browser takes every vector from IndexedDB.
    const again = await context.newPage();
    await open(again, `${srv.url}/recall`);
    await indexReady(again);
    expect(await again.getByTestId('recall-status').textContent()).toMatch(
      new RegExp(`all embedded \\(${after.toLocaleString('en-US')} from cache\\)`),
    );
    // The hit opens the event itself, marked.
    await again.keyboard.press('Control+k');
    await again.getByLabel('Search all memory').fill('zeppelin thermostat');
    const eventHit = again
      .getByTestId('palette-results')
      .locator(`li[data-href="/curation/events?focus=${event.event_id}"]`);
    await eventHit.waitFor();
    await eventHit.click();
    await again.locator(`tr.focus-target[data-focus-id="${event.event_id}"]`).waitFor();
    await context.close();
  });

  it('opens a dead end from its hit, marked on the dead ends page', async () => {
    const { context, page } = await fresh();
    await open(page, `${srv.url}/recall`);
    await indexReady(page);
    await page.getByRole('button', { name: /^dead end/ }).click();
    await page.getByLabel('Search memory').fill('no measurable improvement');
    const first = page.getByTestId('hit-link').first();
    await first.waitFor();
    const href = (await first.getAttribute('href'))!;
    const id = decodeURIComponent(href.split('focus=')[1]!);
    await first.click();
    await page.locator(`tr.focus-target[data-focus-id="${id}"]`).waitFor();
    await expect.poll(() => page.url()).toContain('/substrate/aegis-demo/dead-ends?focus=');
    await context.close();
  });

  it('falls back to keyword search, and says so, when the model cannot load', async () => {
    const { context, page } = await fresh();
    await context.route('**/models/**', (route) => route.abort());
    await open(page, `${srv.url}/recall`);
    await page.getByTestId('recall-fallback').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('recall-fallback').textContent()).toContain('keyword matches only');
    await page.getByLabel('Search memory').fill('keepalive');
    await expect.poll(() => page.getByTestId('recall-timing').textContent()).toContain('keyword');
    expect(await page.getByTestId('hit-link').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('says an answer is by keyword only while the model loads, and searches again by meaning once it has', async () => {
    const { context, page } = await fresh();
    const model = await holdRequests(context, '**/models/**');
    try {
      await open(page, `${srv.url}/recall`);
      await page.locator('[data-testid=recall-status][data-model=loading][data-corpus=ready]').first().waitFor();
      await page.getByLabel('Search memory').fill('zzqxv');
      await page.getByText('Nothing matches “zzqxv”').waitFor();
      expect(await page.getByTestId('recall-partial').textContent()).toBe(
        'Meaning search starts once the model has loaded: until then, this is by keyword only. ',
      );
    } finally {
      model.release();
    }
    // The same words, searched again once every item has its vector: the nearest by meaning, said to be only that.
    await indexReady(page);
    await expect
      .poll(() => page.getByTestId('meaning-only').textContent())
      .toMatch(/^No result shares a word with “zzqxv”: these are only the nearest by meaning/);
    expect(await page.getByTestId('meaning-only').textContent()).not.toContain('Meaning search');
    await context.close();
  });

  it('says a hub model could not be downloaded, and where to go back to the bundled one', async () => {
    const { context, page } = await fresh();
    // Offline: nothing but this app answers (a hub model is one a person chose to download, and cannot be).
    await context.route(
      (url) => url.origin !== new URL(srv.url).origin,
      (route) => route.abort(),
    );
    await context.addInitScript((key) => localStorage.setItem(key, 'Xenova/all-MiniLM-L6-v2'), MODEL_CHOICE_KEY);
    await open(page, `${srv.url}/recall`);
    const fallback = page.getByTestId('recall-fallback');
    await fallback.waitFor({ timeout: 30_000 });
    expect(await fallback.textContent()).toMatch(
      new RegExp(
        String.raw`^Semantic search is unavailable \(it could not be downloaded from the Hugging Face hub: .+\); ` +
          String.raw`results are keyword matches only\. Settings → Recall model can go back to the bundled one`,
      ),
    );
    await fallback.getByRole('link', { name: 'Settings → Recall model' }).click();
    await page.waitForURL(/\/settings#recall-model$/);
    await page.getByRole('radio', { name: /^Mnemoscope static/ }).check();
    await page.locator('[data-testid=recall-status][data-model=ready]').first().waitFor({ timeout: 60_000 });
    await context.close();
  });
});
