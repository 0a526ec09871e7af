import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideAtOnce, launchPage } from './browser';
import { open } from './page';
import { uiServer } from './ui-server';

/** The memory hygiene lab on the demo, as a person uses it (PGlite server with the demo). */
const srv = uiServer();
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ browser, page } = await launchPage());
  await decideAtOnce(page);
});
afterAll(async () => browser?.close());

const text = (testId: string) => page.getByTestId(testId).textContent();

describe('memory hygiene lab', () => {
  it('finds the misaligned memory item and follows the error-propagation chain to the turn', async () => {
    await open(page, `${srv.url}/hygiene`);
    await expect.poll(() => text('lab-summary'), { timeout: 20_000 }).toMatch(/96 turns in 2 sessions/);
    expect(await page.getByLabel('Agent').inputValue()).toBe('ehr-sql-agent');
    // Misaligned: recalled on near-identical questions, never followed.
    const mis = page.getByTestId('misaligned-item');
    await expect.poll(() => mis.count()).toBe(1);
    expect(await mis.textContent()).toMatch(/rec_hr_monitor\s*22× · in 0\.9\d · out 0\.5\d · utility 0\.32/);
    await mis.getByRole('button', { name: 'rec_hr_monitor', exact: true }).click();
    await expect.poll(() => text('item-detail')).toContain('vitals_api.fetch');
    expect(await page.getByTestId('item-detail').locator('tbody tr').count()).toBe(22);
    // D_t is undefined at a session's first turn (ACC §5.3): no figure there, as D̄ leaves it out.
    const firstRow = page
      .getByTestId('item-detail')
      .locator('tbody tr')
      .filter({ has: page.getByRole('link', { name: 'ehr-agent-day-1 #1', exact: true }) });
    expect(await firstRow.locator('td').last().textContent()).toBe('—');
    await expect.poll(() => page.url()).toContain('item=rec_hr_monitor');
    expect(page.url()).not.toContain('record=');
    // Picked far above it (at 1,280 × 720 the detail opens below the fold), the detail comes into sight with the
    // focus on its name; Escape closes it.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('item-detail').count()).toBe(0);
    await expect.poll(() => page.url()).not.toContain('item=');
    // The focus goes back to the link that picked it, not to the page's start.
    await expect
      .poll(() =>
        page.evaluate(() =>
          document.activeElement?.closest('[data-testid=misaligned-item]') ? document.activeElement.textContent : null,
        ),
      )
      .toBe('rec_hr_monitor');
    // A filter nothing matches says so (the table was headers only).
    await page.getByLabel('Filter memory items').fill('zzzznomatch');
    await expect.poll(() => text('items-none')).toBe('No memory item matches “zzzznomatch”.');
    await page.getByLabel('Filter memory items').fill('');
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await mis.getByRole('button', { name: 'rec_hr_monitor', exact: true }).click();
    await expect.poll(() => page.getByTestId('item-detail').count()).toBe(1);
    const top = await page.getByTestId('item-detail').evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(720);
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid=item-detail]'))).toBe(true);
    await page.setViewportSize({ width: 1440, height: 1000 });
    // The scatter has one dot per retrieval.
    expect(await page.getByTestId('scatter').locator('circle').count()).toBe(96);
    // A threshold typed out of range is said, and the one in use stays (the tab once gave way to an error and lost its
    // inputs); at its bound it is used.
    const inputMin = page.getByLabel('Input similarity at least');
    const before = await inputMin.inputValue();
    await inputMin.fill('5');
    await expect
      .poll(() => text('number-problem'))
      .toBe(`Input similarity at least: a number from 0 to 1; ${before} is used.`);
    expect(await inputMin.inputValue()).toBe('5');
    expect(await mis.count()).toBe(1);
    await inputMin.fill('1');
    await expect.poll(() => mis.count()).toBe(0);
    expect(await page.getByTestId('number-problem').count()).toBe(0);
    await inputMin.fill(before);
    await expect.poll(() => mis.count()).toBe(1);
    // How many misaligned retrievals make an item misaligned is set here too (rec_hr_monitor has 22), in the URL.
    const hits = page.getByLabel('Misaligned retrievals at least');
    await hits.fill('30');
    await expect.poll(() => mis.count()).toBe(0);
    await expect.poll(() => new URL(page.url()).searchParams.get('min_hits')).toBe('30');
    await hits.fill('2');
    await expect.poll(() => mis.count()).toBe(1);
    // The paper's cumulative curves run in time order and double back: where each starts and ends is marked.
    for (const curve of ['cumulative-output', 'cumulative-performance']) {
      const ends = page.getByTestId(curve).locator('[data-end]');
      expect(await ends.allTextContents(), curve).toEqual(['after 1 turn', 'after 96 turns']);
    }

    // The chain: the seed's wrong query → a wrong turn → stored → recalled into the next wrong turn…
    const chain = page.getByTestId('chain').first();
    expect(await chain.textContent()).toMatch(
      /rec_los_seed.*ehr-agent-day-1 #6.*rec_day-1_06.*ehr-agent-day-1 #14.*rec_day-1_14.*#23/,
    );
    // Chains that differ only in their last wrong turn are shown as one, with both turns.
    expect(await page.getByTestId('chain').count()).toBe(1);
    expect(await chain.textContent()).toMatch(/rec_day-1_35→ ehr-agent-day-2 #3 · u 0\.00and ehr-agent-day-2 #10/);
    // No arrow ends a line alone: each sits on the line of what it points at.
    const lonely = await chain.evaluate(
      (el) =>
        [...el.querySelectorAll('.chain-arrow')].filter((a) => {
          const next = a.nextElementSibling;
          return !next || Math.abs(next.getBoundingClientRect().top - a.getBoundingClientRect().top) > 4;
        }).length,
    );
    expect(lonely).toBe(0);
    await chain.getByRole('link', { name: /ehr-agent-day-1 #14/ }).click();
    await page.waitForURL(/\/sessions\/ehr-agent-day-1\?turn=14/);
    await expect.poll(() => page.locator('main').textContent()).toContain('FROM transfers');
  });

  it('compares the deletion policies and reacts to their parameters', async () => {
    await open(page, `${srv.url}/hygiene?tab=deletion`);
    const history = page.getByTestId('remove-history');
    await expect
      .poll(() => history.textContent(), { timeout: 20_000 })
      .toMatch(/removes 1 of \d+ today.*rec_hr_monitor.*mean utility 0\.32 over 22 retrievals/);
    const periodic = Number((await page.getByTestId('remove-periodic').textContent())!.match(/removes (\d+)/)![1]);
    const combined = Number((await page.getByTestId('remove-combined').textContent())!.match(/removes (\d+)/)![1]);
    expect(periodic).toBeGreaterThan(10);
    expect(combined).toBe(periodic + 1);
    expect(await page.getByTestId('deletion-params').textContent()).toContain(
      'How Memory Management Impacts LLM Agents: An Empirical Study of Experience-Following Behavior ' +
        '(§5.1, §6.2, Appendix A.2) uses P = ',
    );
    // The printed product φ_period × φ_history removes only what both rules remove: nothing here.
    expect(await page.getByTestId('remove-product').textContent()).toMatch(/removes 0 of/);
    expect(await page.getByTestId('size-chart').locator('path').count()).toBe(6);
    // The legend's figures (memory after the last step) and the cards' (one pass over today's items) are told apart.
    const today = (await history.textContent())!.match(/removes \d+ of (\d+) today/)![1];
    expect(await page.getByTestId('size-note').textContent()).toContain(
      `to the ${today} items in the agent's store today`,
    );
    // β below the item's mean utility: history-based deletion keeps it.
    await page.getByLabel('β (mean utility ≤)').fill('0.3');
    await expect.poll(() => history.textContent()).toMatch(/removes 0 of/);
    await page.getByLabel('β (mean utility ≤)').fill('0.5');
    await expect.poll(() => history.textContent()).toMatch(/removes 1 of/);
    // The server cannot be reached while a parameter changes: the last result and the inputs stay, the error above.
    await page.route(/\/api\/trpc\/[^?]*hygiene\.lab/, (r) => r.abort());
    await page.getByLabel('β (mean utility ≤)').fill('0.4');
    // While the failed request is tried again, the head says so and why (it said "computing…" for ~3 s).
    await expect.poll(() => text('lab-status')).toMatch(/^computing… attempt 2 of 3 \(Failed to fetch\)$/);
    await expect
      .poll(() => text('error'), { timeout: 15_000 })
      .toMatch(/^Could not recompute with these settings \(the last result is shown\): /);
    expect(await history.textContent()).toMatch(/removes 1 of/);
    expect(await page.getByLabel('β (mean utility ≤)').inputValue()).toBe('0.4');
    await page.unroute(/\/api\/trpc\/[^?]*hygiene\.lab/);
    // Asked again by its button once the server answers: the error goes, with nothing else changed.
    await page.getByTestId('error').getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.getByTestId('error').count()).toBe(0);
    await page.getByLabel('β (mean utility ≤)').fill('0.3');
    await expect.poll(() => history.textContent()).toMatch(/removes 0 of/);
    expect(await page.getByTestId('error').count()).toBe(0);
    await page.getByLabel('β (mean utility ≤)').fill('0.5');
    await expect.poll(() => history.textContent()).toMatch(/removes 1 of/);
    // The paper's P on a history shorter than it: said, since periodic deletion then removes nothing.
    expect(await page.getByTestId('period-note').count()).toBe(0);
    // A click on the button beside a field whose draft cannot be used lands the first time: the field's message is
    // shown over what follows it, so nothing moves when leaving the field takes it away.
    const period = page.getByLabel('Period P (steps)');
    await period.press('Control+a');
    await period.pressSequentially('-5');
    await expect.poll(() => page.getByTestId('number-problem').count()).toBe(1);
    await page.getByRole('button', { name: "Paper's values" }).click();
    await expect.poll(() => text('period-note')).toMatch(/^P = 200 is longer than this agent's history \(\d+ steps\)/);
    // A number that does not fit is said, and the one in use stays; an emptied field stays empty while it is typed
    // in (it once put the old value back, so that "200" typed after clearing "24" became 24200).
    await period.fill('5000000');
    await expect
      .poll(() => text('number-problem'))
      .toBe('Period P (steps): a whole number from 1 to 1,000,000; 200 is used.');
    expect(await period.getAttribute('aria-invalid')).toBe('true');
    await period.press('Control+a');
    await period.press('Backspace');
    expect(await period.inputValue()).toBe('');
    await period.pressSequentially('10');
    expect(await period.inputValue()).toBe('10');
    expect(await page.getByTestId('number-problem').count()).toBe(0);
    // Typed key by key, 5000 passes through 500, which fits: it is not kept once the draft does not fit.
    const alpha = page.getByLabel('α (max recalls in P)');
    const alphaBefore = await alpha.inputValue();
    await alpha.press('Control+a');
    await alpha.pressSequentially('5000');
    await expect
      .poll(() => text('number-problem'))
      .toBe(`α (max recalls in P): a whole number from 0 to 1,000; ${alphaBefore} is used.`);
    await alpha.press('Tab');
    expect(await alpha.inputValue()).toBe(alphaBefore);
    await expect.poll(() => new URL(page.url()).searchParams.get('alpha') ?? alphaBefore).toBe(alphaBefore);
    await expect.poll(() => page.getByTestId('period-note').count()).toBe(0);
    // The settings are in the URL: a reload (or the link, sent on) shows the same figures.
    await expect.poll(() => page.getByText('computing…').count()).toBe(0);
    const periodicAt10 = await page.getByTestId('remove-periodic').textContent();
    await expect.poll(() => new URL(page.url()).searchParams.get('period')).toBe('10');
    await page.reload();
    await expect.poll(() => page.getByLabel('Period P (steps)').inputValue(), { timeout: 20_000 }).toBe('10');
    await expect.poll(() => page.getByTestId('remove-periodic').textContent()).toBe(periodicAt10);
    await page.getByLabel('β (mean utility ≤)').fill('0.5');
    // An item named in a policy's list opens its health, on the item health tab.
    await history.getByRole('button', { name: 'rec_hr_monitor', exact: true }).click();
    await expect.poll(() => text('item-detail')).toContain('vitals_api.fetch');
    await expect.poll(() => page.url()).toMatch(/tab=items/);
  });

  it('shows the four consolidation policies side by side under a budget', async () => {
    await open(page, `${srv.url}/hygiene?tab=consolidation`);
    await expect
      .poll(() => page.getByTestId('sigma-note').textContent(), { timeout: 20_000 })
      .toMatch(/σ is estimated as embedding novelty/);
    for (const p of ['recency', 'frequency', 'surprise'])
      expect(await page.getByTestId(`keep-${p}`).locator('tbody tr').count()).toBe(16);
    // Sleep-replay merges into the paper's k = 8 atoms; fact recall on the labelled probes tells the policies apart.
    expect(await page.getByTestId('keep-sleep').locator('tbody tr').count()).toBe(8);
    const compare = page.getByTestId('consolidation-compare');
    expect(await compare.locator('tbody tr').count()).toBe(4);
    expect(await text('recall-recency')).toMatch(/^7% \(5\/71\)/);
    expect(await text('recall-frequency')).toMatch(/^49% \(35\/71\)/);
    expect(await text('recall-sleep')).toMatch(/^100% \(71\/71\)/);
    // The same probes before any consolidation: what retrieval alone finds, beside which the policies are read.
    expect(await text('recall-baseline')).toMatch(
      /^Before any consolidation, all \d+ atoms: fact recall \d+% \(\d+\/71\)/,
    );
    expect(await compare.locator('tr[data-policy="recency"]').textContent()).toContain('metadata only');
    // Facts lost: the first four atoms and how many more (the list stopped at four without saying so).
    expect(await text('lost-recency')).toMatch(/^[\w-]+ \(\d+\), .* and \d+ more$/);
    expect(await page.getByTestId('budget-holds-all').count()).toBe(0);
    await page.getByLabel('Sleep-replay clusters k').fill('4');
    await expect.poll(() => page.getByTestId('keep-sleep').locator('tbody tr').count()).toBe(4);
    // The paper is named by its title, and its k told apart from the one in use.
    const intro = page.getByTestId('consolidation-intro');
    expect(await intro.textContent()).toContain('Memory Consolidation Strategies for Long-Running AI Agents (§2, §3)');
    await expect.poll(() => intro.textContent()).toContain('(the paper sets k = 8, here k = 4)');
    await page.getByLabel('Budget B (atoms kept)').fill('8');
    await expect.poll(() => page.getByTestId('keep-recency').locator('tbody tr').count()).toBe(8);
    expect(await page.getByTestId('keep-frequency').locator('tbody tr').first().textContent()).toContain(
      'rec_hr_monitor',
    );
    expect(await page.getByTestId('overlap').locator('tbody tr').count()).toBe(4);
    // Sleep-replay keeps to the budget too (it kept k = 4 atoms under B = 2), and says why it merged into fewer.
    await page.getByLabel('Budget B (atoms kept)').fill('2');
    await expect.poll(() => page.getByTestId('keep-sleep').locator('tbody tr').count()).toBe(2);
    expect(await text('sleep-k-capped')).toBe(
      'Sleep-replay merges into 2 clusters, not k = 4: no policy may keep more than B = 2 atoms.',
    );
    // A budget that holds every atom removes none: it says so, and no policy lost a fact (the column listed the
    // facts retrieval misses with nothing removed as lost by each).
    await page.getByLabel('Budget B (atoms kept)').fill('500');
    await expect
      .poll(() => text('budget-holds-all'))
      .toMatch(/^The budget holds all (\d+) atoms \(B ≥ \1\): recency, frequency and surprise-weighted keep every/);
    for (const p of ['recency', 'frequency', 'surprise']) expect(await text(`lost-${p}`)).toBe('none');

    await open(page, `${srv.url}/hygiene?tab=addition`);
    await expect.poll(() => text('addition-stats'), { timeout: 20_000 }).toMatch(/Executions \(add-all\)96/);
  });

  it('says what a link names that it cannot use, instead of showing defaults in silence', async () => {
    await open(page, `${srv.url}/hygiene?period=abc&budget=-3&item=does-not-exist`);
    await expect
      .poll(() => text('link-problems'), { timeout: 20_000 })
      .toBe(
        'Not used from the link: period: “abc” is not a whole number from 1 to 1000000; budget: “-3” is not a ' +
          'whole number from 1 to 100000; item: “does-not-exist” is not an item of ehr-sql-agent’s memory.',
      );
  });

  it('raises a deprecation proposal from the lab, which a reviewer approves in the inbox', async () => {
    await open(page, `${srv.url}/hygiene?tab=deletion`);
    const button = page.getByTestId('propose-history-rec_hr_monitor');
    await button.waitFor({ timeout: 20_000 });
    // An item removed by several policies has a button in each panel, each named by its policy (all were "Propose").
    const names = await page.locator('[data-testid^=propose-]').evaluateAll((els) => els.map((el) => el.ariaLabel));
    expect(names.length).toBeGreaterThan(1);
    expect(new Set(names).size).toBe(names.length);
    expect(await button.getAttribute('aria-label')).toBe('Propose deprecation (history-based): rec_hr_monitor');
    const waiting = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Curation/ });
    await expect.poll(() => waiting.locator('.count').count()).toBe(1);
    const before = await waiting.locator('.count').textContent();
    // By keyboard: the focus stays in the row, on the link that replaces the button (it fell to the page's body).
    await button.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => text('raised')).toContain('Deprecation of rec_hr_monitor proposed');
    // Where it was raised, and in every other list that holds the item: in review, a link to it, not "Propose" again.
    await expect.poll(() => page.getByTestId('proposed-history-rec_hr_monitor').count()).toBe(1);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('proposed-history-rec_hr_monitor');
    // The sidebar's count of proposals waiting has it (it stayed at the old count until a reload).
    await expect.poll(() => waiting.locator('.count').textContent()).not.toBe(before);
    expect(await button.count()).toBe(0);
    expect(await page.getByTestId('proposed-history-rec_hr_monitor').getAttribute('aria-label')).toBe(
      'Deprecation of rec_hr_monitor waits for review: open it in the inbox',
    );
    await page.getByTestId('raised').getByRole('link', { name: 'open it in the inbox' }).click();
    await page.waitForURL(/\/curation\?proposal=/);
    await expect.poll(() => text('target-artifact'), { timeout: 20_000 }).toContain('rec_hr_monitor');
    expect(await text('steps')).toMatch(/history-based deletion.*mean utility 0\.32 over 22 retrievals/);
    await page.getByRole('button', { name: /^Approve/ }).click();
    await expect.poll(() => page.getByTestId('target-artifact').count()).toBe(0);

    // A bookmark from before the rename (`tab=records&record=…`) still opens the item.
    await open(page, `${srv.url}/hygiene?tab=records&record=rec_hr_monitor`);
    await expect
      .poll(() => text('item-detail'), { timeout: 20_000 })
      .toMatch(/artifact of the external store · experience · deprecated/);
    expect(await page.getByTestId('items-table').locator('tr', { hasText: 'rec_hr_monitor' }).textContent()).toContain(
      'deprecated',
    );
  });
});
