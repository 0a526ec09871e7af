import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchPage } from './browser';
import { holdRequests, markedTerms, open, replayKeysReady, turnReadout } from './page';
import { uiServer } from './ui-server';

const srv = uiServer();
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ browser, page } = await launchPage({ baseURL: srv.url }));
});
afterAll(async () => browser?.close());

const keysReady = () => replayKeysReady(page);
const readout = () => turnReadout(page);
const marked = (field: string, mark: string) => markedTerms(page, field, mark);
const ingest = (rows: unknown[]) =>
  fetch(`${srv.url}/api/v1/ingest`, {
    method: 'POST',
    headers: { authorization: `Bearer ${srv.key}` },
    body: JSON.stringify(rows),
  });

describe('session replay', () => {
  it('steps with the keyboard and shows the exact terms added and removed', async () => {
    await open(page, '/sessions/itops-nginx-502?turn=8');
    await expect.poll(readout).toBe('Turn 8 (8 of 50)');
    await keysReady();
    await page.keyboard.press('ArrowRight');
    await expect.poll(readout).toBe('Turn 9 (9 of 50)');
    expect(await marked('constraints', 'added')).toEqual(['retry_only(idempotent_requests)']);
    expect(await marked('episodic_trace', 'added')).toEqual([
      'verified(node keepAliveTimeout(5000ms) hosts(3))',
      'applied(reload nginx keepalive_timeout(4s))',
      'measured(502_rate 2.1%->0.4%)',
    ]);
    expect(await marked('episodic_trace', 'removed')).toEqual(['found(node keepAliveTimeout(5s))', 'turn(8 update)']);
    expect(await marked('uncertainty_signal', 'changed')).toEqual(['level(low)', 'gaps(residual_502 0.4%)']);
    await expect.poll(() => page.url()).toMatch(/\?turn=9$/);
    // An agent that reports its footprint, H_t, D_t and judge scores (and is not traced): its three charts, no note.
    expect(await page.locator('.charts-row .chart-title').allTextContents()).toEqual([
      'Memory footprint',
      'Hallucination and drift',
      'Judge',
    ]);
    expect(await page.getByTestId('charts-not-reported').count()).toBe(0);

    await page.keyboard.press('k');
    await expect.poll(readout).toBe('Turn 8 (8 of 50)');
    await page.keyboard.press('End');
    await expect.poll(readout).toBe('Turn 50 (50 of 50)');
    await page.keyboard.press('Home');
    await expect.poll(readout).toBe('Turn 1 (1 of 50)');
    await page.keyboard.press('g');
    await page.keyboard.type('32');
    await page.keyboard.press('Enter');
    await expect.poll(readout).toBe('Turn 32 (32 of 50)');
    expect(await marked('constraints', 'removed')).toEqual(['retry_only(idempotent_requests)']);
    // g again: the turn typed replaces the one the box held (not "3240").
    await page.keyboard.press('g');
    await page.keyboard.type('40');
    await page.keyboard.press('Enter');
    await expect.poll(readout).toBe('Turn 40 (40 of 50)');
    await page.keyboard.press('k');
    await expect.poll(readout).toBe('Turn 39 (39 of 50)');
  });

  it('paints the turn from the HTML the server sends, and draws the rest around it without moving it', async () => {
    // The HTML holds the turn's CCS, marked against the turn before, and the turn itself; not the timeline (the
    // digest's), which the browser fetches.
    const html = await (await fetch(`${srv.url}/sessions/itops-nginx-502?turn=9`)).text();
    expect(html).toMatch(/data-term="retry_only\(idempotent_requests\)"[^>]*data-mark="added"/);
    expect(html).toContain('Confirmed: keepAliveTimeout prints 5000 on all three upstream hosts.');
    expect(html).not.toContain('data-testid="timeline"');
    // Its digest is stored (a view builds it, or the background once ingest pauses): the page lays out from its shape.
    const input = encodeURIComponent(JSON.stringify({ json: { id: 'itops-nginx-502' } }));
    const built = await fetch(`${srv.url}/api/trpc/sessions.digest?input=${input}`, {
      headers: { authorization: `Bearer ${srv.key}` },
    });
    expect(built.status).toBe(200);
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 1000 });
      const digest = await holdRequests(page, /sessions\.digest/);
      let before: number | undefined;
      const top = () => page.getByTestId('ccs-panel').evaluate((e) => e.getBoundingClientRect().top);
      try {
        await page.goto('/sessions/itops-nginx-502?turn=9');
        await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
        before = await top();
        expect(await readout()).toBe('Turn 9 (9 of 50)');
        expect(await page.getByTestId('timeline').count()).toBe(0);
        // The player waits for the session's turns: its buttons are off, and a key leaves the turn where it is.
        expect(await page.getByRole('button', { name: 'Next turn' }).isDisabled()).toBe(true);
        await page.keyboard.press('ArrowRight');
        expect(await readout()).toBe('Turn 9 (9 of 50)');
        // The alerts' head is there already, from the shape of the stored digest.
        expect(await page.getByTestId('alerts').textContent()).toContain('1 drift spike');
      } finally {
        digest.release();
      }
      await page.locator('.replay[data-complete]').waitFor({ state: 'attached' });
      await page.getByTestId('timeline').waitFor();
      expect(await page.locator('[data-testid=alerts] [data-alert]').count()).toBeGreaterThan(0);
      expect(await top(), `at ${width} px`).toBe(before);
      await digest.stop();
    }
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  it('marks a turn that changed nothing, on the timeline and in the player', async () => {
    await open(page, '/sessions/itops-nginx-502?turn=7');
    await page.getByTestId('no-change').waitFor();
    expect(await page.locator('[data-testid=timeline] g[data-same]').count()).toBeGreaterThanOrEqual(5);
  });

  it('says what the agent asked its memory event to be, and where the curator put it instead', async () => {
    // The demo's decision for the project at turn 32 was written as a session hypothesis (it cites no evidence).
    await open(page, '/sessions/itops-nginx-502?turn=32');
    const row = page.getByTestId('turn-events-table').locator('tbody tr');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('td').first().textContent()).toBe('decisionasked for project');
    expect(await row.getByTestId('placed-as').textContent()).toBe('stored as hypothesis in session, not as asked');
    // An event stored as asked says nothing more (turn 9: a fact for the project).
    await open(page, '/sessions/itops-nginx-502?turn=9');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByTestId('event-outcome').getAttribute('data-disposition')).toBe('written');
    expect(await row.getByTestId('placed-as').count()).toBe(0);
    // Curation → Events says the same of it.
    await open(page, '/curation/events?focus=memevt_demo_0003');
    const focused = page.locator('[data-focus-id="memevt_demo_0003"]');
    expect(await focused.getByTestId('placed-as').textContent()).toBe('stored as hypothesis in session, not as asked');
    // Asked for `agent_team` (the older shape's name of team_memory) and proposed for team_memory: as asked.
    await open(page, '/curation/events?focus=evt-legacy-0002');
    const legacy = page.locator('[data-focus-id="evt-legacy-0002"]');
    expect(await legacy.getByTestId('event-outcome').count()).toBe(1);
    expect(await legacy.textContent()).toContain('agent_team');
    expect(await legacy.getByTestId('placed-as').count()).toBe(0);
  });

  it('a one-turn session: its figures in the charts’ legends, no one-point plot', async () => {
    const one = {
      session_id: 'replay-one-turn',
      agent: 'ops-bot',
      turn: 1,
      input: '502s after enabling HTTP/2',
      output: 'Checking upstream keep-alive first.',
      ccs: 'constraints: no_restart(nginx)',
      footprint: { ccs: 180, transcript: 950 },
      judge: { relevance: 9 },
      hallucination: 0,
    };
    expect((await ingest([{ type: 'turn', data: one }])).status).toBe(200);
    await open(page, '/sessions/replay-one-turn');
    const judge = page.getByTestId('chart-Judge');
    await expect.poll(() => judge.textContent()).toContain('relevance 9.0');
    expect(await page.getByTestId('chart-one-point').count()).toBe(3);
    expect(await page.locator('.charts-row .chart-plot').count()).toBe(0);
    expect(await page.getByTestId('chart-Memory footprint').textContent()).toMatch(/CCS 180 tok.*transcript 950 tok/);
  });

  it('follows a blame link to the turn that introduced a term', async () => {
    await open(page, '/sessions/itops-nginx-502?turn=20');
    const chip = page.locator(
      '[data-testid=ccs-state] [data-field=constraints] [data-term="retry_only(idempotent_requests)"]',
    );
    expect(await chip.getAttribute('title')).toContain('added at turn 9');
    // A term that came and went by changes says so from its own side.
    await open(page, '/sessions/itops-nginx-502?turn=40');
    const level = page.locator('[data-testid=ccs-state] [data-term="level(low)"]').first();
    expect(await level.getAttribute('title')).toContain(
      'in at turn 9, was level(medium) · out at turn 15, became level(medium) · in at turn 16, was level(medium)',
    );
    await open(page, '/sessions/itops-nginx-502?turn=20');
    await chip.click();
    await expect.poll(readout).toBe('Turn 9 (9 of 50)');
    await expect.poll(() => page.url()).toMatch(/\?turn=9$/);
    // The CCS's linked terms are one Tab stop: ↑ ↓ move among them, Tab leaves the CCS, Shift+Tab comes back to
    // the one last focused.
    await open(page, '/sessions/itops-nginx-502?turn=40');
    await keysReady();
    const links = page.locator('[data-testid=ccs-state] .chip-link');
    expect(await links.count()).toBeGreaterThan(5);
    expect(await page.locator('[data-testid=ccs-state] .chip-link[tabindex="0"]').count()).toBe(1);
    const focusedTerm = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.term ?? null);
    await links.first().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const third = (await links.nth(2).getAttribute('data-term'))!;
    await expect.poll(focusedTerm).toBe(third);
    await page.keyboard.press('ArrowUp');
    const second = (await links.nth(1).getAttribute('data-term'))!;
    await expect.poll(focusedTerm).toBe(second);
    expect(await readout()).toBe('Turn 40 (40 of 50)');
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => !!document.activeElement?.closest('[data-testid=ccs-state]')))
      .toBe(false);
    await page.keyboard.press('Shift+Tab');
    await expect.poll(focusedTerm).toBe(second);
    // By keyboard: Enter on a focused chip follows it too.
    await open(page, '/sessions/itops-nginx-502?turn=20');
    await keysReady();
    await chip.focus();
    // Its history is on the page, not only in the tooltip.
    await expect
      .poll(() => page.getByTestId('term-history').textContent())
      .toMatch(/^retry_only\(idempotent_requests\): .*added at turn 9/);
    await page.keyboard.press('Enter');
    await expect.poll(readout).toBe('Turn 9 (9 of 50)');
    // Focus stays on the term, now at the turn that introduced it (the link it was is gone there).
    await expect.poll(focusedTerm).toBe('retry_only(idempotent_requests)');
    // After ticking Follow live (focus on the checkbox), j and k still step; Space ticks the box, not the player.
    const follow = page.getByLabel('Follow live');
    await follow.click();
    await page.keyboard.press('k');
    await expect.poll(readout).toBe('Turn 8 (8 of 50)');
    await page.keyboard.press(' ');
    expect(await follow.isChecked()).toBe(false);
    // An artifact row takes focus and opens with Enter.
    const row = page.getByTestId('artifacts').locator('tr').first();
    await row.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('artifact-content').textContent())
      .toContain((await row.getAttribute('data-artifact'))!);
  });

  it('opens a shared ?turn= link at that moment, and compares any two turns', async () => {
    await open(page, '/sessions/secops-oauth-consent?turn=25');
    await expect.poll(readout).toBe('Turn 25 (25 of 50)');
    expect(
      await page
        .locator(
          '[data-testid=ccs-state] [data-field=episodic_trace] ' +
            '[data-term="detected(prompt_injection ' +
            'source(phishing_email))"]',
        )
        .count(),
    ).toBe(1);
    // A turn the session does not hold is refused in words; the comparison does not change.
    await page.getByLabel('Compare with turn').fill('999');
    await page.getByLabel('Compare with turn').press('Enter');
    await expect
      .poll(() => page.locator('#compare-error').textContent())
      .toBe('no turn 999 in this session (turns 1–50)');
    expect(await page.getByTestId('ccs-diff').count()).toBe(0);
    await page.getByLabel('Compare with turn').fill('1');
    await page.getByLabel('Compare with turn').press('Enter');
    await page.getByTestId('ccs-diff').waitFor();
    expect(await page.getByTestId('ccs-diff').textContent()).toContain('against turn 1');
    expect(await page.locator('#compare-error').count()).toBe(0);
    // The comparison is in the URL: the link opens it again.
    await expect.poll(() => page.url()).toMatch(/\?turn=25&compare=1$/);
    await open(page, '/sessions/secops-oauth-consent?turn=25&compare=1');
    await expect.poll(() => page.getByTestId('ccs-diff').textContent()).toContain('against turn 1');
    expect(await page.getByLabel('Compare with turn').inputValue()).toBe('1');
    // A refused turn's message goes when the comparison goes back to the previous turn.
    await page.getByLabel('Compare with turn').fill('0');
    await page.getByLabel('Compare with turn').press('Enter');
    await page.locator('#compare-error').waitFor();
    await page.getByRole('button', { name: 'vs previous' }).click();
    await expect.poll(() => page.locator('#compare-error').count()).toBe(0);
    expect(await page.getByLabel('Compare with turn').inputValue()).toBe('');
    await page.getByRole('tab', { name: 'Raw' }).click();
    expect(await page.getByTestId('ccs-raw').textContent()).toContain('"constraints"');
    // A link's turns the session does not hold are said, not silently replaced; dismissed, the notice goes.
    expect(await page.getByTestId('link-misses').count()).toBe(0);
    await open(page, '/sessions/secops-oauth-consent?turn=77&compare=999');
    await expect
      .poll(() => page.getByTestId('link-misses').textContent())
      .toBe(
        'The link asks for what this session does not hold (turns 1–50): no turn 77, so it opened at turn 50; ' +
          'no turn 999 to compare with, so each turn is compared with the one before.Dismiss',
      );
    expect(await page.getByTestId('turn-readout').textContent()).toBe('Turn 50 (50 of 50)');
    await page.getByTestId('link-misses').getByRole('button', { name: 'Dismiss' }).click();
    expect(await page.getByTestId('link-misses').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Go to turn');
    // A turn that is no number is said too, not read as the first.
    await open(page, '/sessions/secops-oauth-consent?turn=abc&compare=xyz');
    await expect
      .poll(() => page.getByTestId('link-misses').textContent())
      .toContain('“abc” is not a turn number, so it opened at turn 1');
    expect(await page.getByTestId('link-misses').textContent()).toContain(
      '“xyz” is not a turn number to compare with, so each turn is compared with the one before',
    );
  });

  it('lists what went wrong and opens each at its turn with the diff, by mouse or keyboard', async () => {
    await open(page, '/sessions/itops-nginx-502');
    const alerts = page.getByTestId('alerts');
    await alerts.waitFor();
    expect(await alerts.locator('.panel-head .badge').allTextContents()).toEqual([
      '1 constraint dropped',
      '1 drift spike',
      '3 stress turns',
    ]);
    // The dropped constraint, marked on the timeline too.
    expect(await page.getByTestId('timeline').locator('[data-alert=constraint_dropped]').count()).toBe(1);
    const dropped = alerts.locator('.alert-row[data-alert=constraint_dropped]');
    const at = Number(/turn (\d+)/.exec((await dropped.textContent())!)![1]);
    const term = (await dropped.locator('.mono').last().textContent())!;
    // Its retention counts the turns since it first appeared, not the whole session's.
    const kept = page.getByTestId('constraint-timeline').locator('.ct-row').filter({ hasText: term });
    const said = /^present in (\d+) of the (\d+) turns since it first appeared \(of 50 in the session\)$/.exec(
      (await kept.locator('.ct-label').getAttribute('title'))!,
    )!;
    expect(Number(said[2])).toBeLessThan(50);
    expect(await kept.locator('.ct-kept').textContent()).toBe(`${Math.round((100 * +said[1]!) / +said[2]!)}%`);
    await dropped.focus();
    await page.keyboard.press('Enter');
    await expect.poll(readout).toBe(`Turn ${at} (${at} of 50)`);
    expect(await page.getByRole('tab', { name: 'Diff' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByTestId('ccs-diff').textContent()).toContain(`against turn ${at - 1}`);
    expect(await page.getByTestId('ccs-diff').textContent()).toContain(term);
    expect(await dropped.getAttribute('aria-current')).toBe('true');
    // Filtered by kind.
    await alerts.getByLabel('Show alerts of kind').selectOption('stress');
    expect(await alerts.locator('.alert-row').count()).toBe(3);
    await alerts.locator('.alert-row').nth(1).click();
    await expect.poll(() => page.url()).toMatch(/\?turn=\d+$/);
    expect(await page.locator('[data-testid=player]').textContent()).toContain('stress');
  });

  it('lists the shortcuts on ?, in a dialog that holds focus and gives it back', async () => {
    await open(page, '/sessions/health-fhir-labs');
    await keysReady();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    const inDialog = () => page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'));
    expect(await inDialog()).toBe(true);
    // Tab stays in it, and the player behind it does not move.
    for (let k = 0; k < 3; k++) await page.keyboard.press('Tab');
    expect(await inDialog()).toBe(true);
    await page.keyboard.press('j');
    expect(await readout()).toBe('Turn 1 (1 of 50)');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // Opened from its button, it gives focus back to the button.
    const button = page.getByTitle('Keyboard shortcuts (?)');
    await button.click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => button.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('is told of new turns by push and, idle, sends no request at all', async () => {
    await open(page, '/sessions/health-fhir-labs?turn=5');
    await keysReady();
    await page.locator('[data-testid=ccs-state]').waitFor();
    await expect.poll(readout).toBe('Turn 5 (5 of 50)');
    await page.locator('.replay[data-live=push]').waitFor();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    // Next prefetches the sidebar's pages when the browser is idle: only the app's own API counts here.
    const api: string[] = [];
    const others = new Set<string>();
    let bytes = 0;
    cdp.on('Network.requestWillBeSent', (e) => {
      if (new URL(e.request.url).pathname.startsWith('/api/')) api.push(e.request.url);
      else others.add(e.requestId);
    });
    // The live stream was opened before this listener: its bytes arrive under an id never seen here.
    cdp.on('Network.dataReceived', (e) => {
      if (!others.has(e.requestId)) bytes += e.encodedDataLength;
    });
    await page.waitForTimeout(6000);
    await cdp.detach();
    // No polling: the open stream says when the session changes, and nothing changed.
    expect(api).toEqual([]);
    expect(bytes).toBeLessThan(100);
  });

  it('shows turns arriving live, a gap in turn numbers, and a malformed term raw with a warning', async () => {
    const turn = (n: number, ccs: unknown) => ({
      type: 'turn',
      data: { session_id: 'live', agent: 'a', turn: n, input: `i${n}`, output: `o${n}`, ccs },
    });
    expect(
      (await ingest([turn(1, 'constraints: keep(x)'), turn(2, 'constraints: keep(x) timing(502 after(x)')])).status,
    ).toBe(200);
    await open(page, '/sessions/live?turn=2');
    await expect.poll(readout).toBe('Turn 2 (2 of 2)');
    const bad = page.locator('[data-testid=ccs-state] .chip-bad');
    expect(await bad.count()).toBe(1);
    expect(await bad.getAttribute('title')).toContain('Could not parse this term');
    // Without following, the new turn appears and the player stays where it is.
    expect((await ingest([turn(5, 'constraints: keep(x) new(y)')])).status).toBe(200);
    await expect.poll(readout, { timeout: 10_000 }).toBe('Turn 2 (2 of 3)');
    await page.getByTestId('follow-live').check();
    expect((await ingest([turn(6, 'constraints: keep(x) new(y) newer(z)')])).status).toBe(200);
    await expect.poll(readout, { timeout: 10_000 }).toBe('Turn 6 (4 of 4)');
    await expect.poll(() => page.getByTestId('turn-panel').textContent()).toContain('i6');
    expect(await page.locator('[data-testid=timeline] .tl-gap').count()).toBe(1);
  });
});

describe('a long session', () => {
  it('loads full turns in windows around the playhead and steps across them', async () => {
    const rows: unknown[] = [];
    for (let t = 1; t <= 250; t++)
      rows.push({
        type: 'turn',
        data: {
          session_id: 'long',
          agent: 'a',
          turn: t,
          input: `question ${t}`,
          output: `answer ${t}`,
          ccs: { constraints: ['keep(x)', ...(t % 2 ? ['odd(turn)'] : [])] },
          judge: { relevance: 8 + (t % 3) / 2 },
        },
      });
    expect((await ingest(rows)).status).toBe(200);
    // The HTML carries the window of full turns the player opens at, not the session's digest (the browser fetches
    // that itself): turn 150's window is in it, the digest's runs of turn numbers are not.
    const html = await (await fetch(`${srv.url}/sessions/long?turn=150`)).text();
    expect(html).toContain('question 150');
    expect(html).not.toContain('"runs"');
    await open(page, '/sessions/long?turn=150');
    await expect.poll(readout).toBe('Turn 150 (150 of 250)');
    await expect.poll(() => page.getByTestId('turn-panel').textContent()).toContain('question 150');
    await keysReady();
    await page.keyboard.press('End');
    await expect.poll(() => page.getByTestId('turn-panel').textContent()).toContain('question 250');
    expect(await marked('constraints', 'removed')).toEqual(['odd(turn)']);
    await page.keyboard.press('Home');
    await expect.poll(() => page.getByTestId('turn-panel').textContent()).toContain('question 1');
    await page.keyboard.press('ArrowRight');
    await expect.poll(readout).toBe('Turn 2 (2 of 250)');
    expect(await marked('constraints', 'removed')).toEqual(['odd(turn)']);
  });
});
