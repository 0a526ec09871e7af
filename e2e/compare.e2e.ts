import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchPage } from './browser';
import { open, replayKeysReady } from './page';
import { uiServer } from './ui-server';

const srv = uiServer();
let browser: Browser;
let page: Page;
const A = 'itops-nginx-502';
const B = 'itops-nginx-502-rerun';

beforeAll(async () => {
  ({ browser, page } = await launchPage({ baseURL: srv.url }));
  // Run B: the demo incident run again, through the API, except that from turn 20 its CCS no longer holds the
  // no-restart constraint (the failure a reviewer compares runs to find).
  const auth = { authorization: `Bearer ${srv.key}` };
  const lines = (await (await fetch(`${srv.url}/api/v1/sessions/${A}/export`, { headers: auth })).text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
  const rerun = lines
    .filter((r) => r.type === 'session' || r.type === 'turn')
    .map((r) => {
      const data = { ...r.data };
      if (r.type === 'session') data.id = B;
      else {
        data.session_id = B;
        if ((data.turn as number) >= 20)
          data.ccs =
            typeof data.ccs === 'string'
              ? data.ccs.replace('no_restart(nginx)', '')
              : {
                  ...(data.ccs as Record<string, string[]>),
                  constraints: (data.ccs as Record<string, string[]>).constraints!.filter(
                    (t) => t !== 'no_restart(nginx)',
                  ),
                };
      }
      return { type: r.type, data };
    });
  const res = await fetch(`${srv.url}/api/v1/ingest`, { method: 'POST', headers: auth, body: JSON.stringify(rerun) });
  expect((await res.json()).rejected).toBe(0);
});
afterAll(async () => browser?.close());

const readout = () => page.getByTestId('compare-readout').textContent();
const onlyInA = (field: string) =>
  page
    .locator(`[data-testid=compare-ccs] tr[data-field=${field}] [data-side=a] [data-term]`)
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-term')));

describe('compare runs', () => {
  it('sets two runs side by side at a turn: the constraint only run A kept, both runs on each chart', async () => {
    await open(page, `/compare?a=${A}&b=${B}&turn=25`);
    await page.locator('html[data-compare-keys]').waitFor({ state: 'attached' });
    await expect.poll(readout).toBe('A turn 25 · B turn 25');
    await expect.poll(() => onlyInA('constraints')).toEqual(['no_restart(nginx)']);
    expect(await page.getByTestId('compare-ccs-summary').textContent()).toMatch(/ 1 only in A · 0 only in B$/);
    expect(await page.locator('[data-testid="chart-Hallucination H_t"] path').count()).toBe(2);
    // Before turn 20 the runs agree.
    await page.getByLabel('Position in run A').fill('10');
    await expect.poll(readout).toBe('A turn 11 · B turn 11');
    await expect.poll(() => page.getByTestId('compare-ccs-summary').textContent()).toMatch(/0 only in A · 0 only in B/);
  });

  it('steps with j/k, keeps the turn and the alignment in the URL, and shifts B', async () => {
    await open(page, `/compare?a=${A}&b=${B}&turn=25`);
    await page.locator('html[data-compare-keys]').waitFor({ state: 'attached' });
    await expect.poll(readout).toBe('A turn 25 · B turn 25');
    // The fields in the order the replay shows them: goal and constraints first.
    const fields = () =>
      page.locator('.compare-ccs tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-field')));
    await expect.poll(async () => (await fields()).slice(0, 2)).toEqual(['goal_orientation', 'constraints']);
    await page.keyboard.press('k');
    await expect.poll(readout).toBe('A turn 24 · B turn 24');
    await expect.poll(() => new URL(page.url()).searchParams.get('turn')).toBe('24');
    // ? lists these keys, as in the replay; Escape closes the list and the keys step again.
    await page.keyboard.press('?');
    const keys = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await keys.waitFor();
    expect(await keys.textContent()).toContain('→ / jnext turn of run A');
    await page.keyboard.press('Escape');
    await keys.waitFor({ state: 'detached' });
    await page.keyboard.press('j');
    await expect.poll(readout).toBe('A turn 25 · B turn 25');
    await page.keyboard.press('k');
    await expect.poll(readout).toBe('A turn 24 · B turn 24');
    // The turn goes to the address once stepping pauses (250 ms): let it land before the form is used.
    await page.waitForTimeout(400);
    await expect.poll(() => new URL(page.url()).searchParams.get('turn')).toBe('24');
    await page.getByLabel('B shifted by positions').fill('30');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('shift')).toBe('30');
    await expect.poll(readout).toBe('A turn 24 · B no turn here');
    expect(await page.getByTestId('compare-io-B').textContent()).toContain('no turn beside');
    // Some turns still pair up at +30; none at −100, and the page says so instead of listing every term as removed.
    expect(await page.getByTestId('no-overlap').count()).toBe(0);
    await page.getByLabel('B shifted by positions').fill('-100');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('no-overlap').textContent())
      .toMatch(/^Shifted by −100, no turn of B is beside a turn of A \(A has \d+ turns, B \d+ turns\)/);
    await page.getByLabel('B shifted by positions').fill('two');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    expect(await page.getByTestId('compare-form').getByRole('alert').textContent()).toBe(
      'shift: "two" is not a whole number',
    );
    expect(new URL(page.url()).searchParams.get('shift')).toBe('-100');
  });

  it('names what it cannot use: a missing session, a turn that is not a number', async () => {
    await open(page, `/compare?a=${A}&b=no-such-run&turn=x`);
    await expect
      .poll(() => page.getByTestId('compare-problems').textContent())
      .toContain('turn: "x" is not a whole number');
    await expect.poll(() => page.getByTestId('compare-error').textContent()).toContain('B: ');
    expect(await page.getByTestId('compare-error').textContent()).toContain('no-such-run');
    // One run named, and it does not exist: said before the other is picked, whichever side it is on.
    await open(page, `/compare?a=no-such-run`);
    await expect.poll(() => page.getByTestId('compare-error').textContent()).toMatch(/^A: .*no-such-run/);
    await open(page, `/compare?b=no-such-run`);
    await expect.poll(() => page.getByTestId('compare-error').textContent()).toMatch(/^B: .*no-such-run/);
    // A turn run A does not hold: said with the turns it holds.
    await open(page, `/compare?a=${A}&b=${B}&turn=999`);
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'Run A has no turn 999' }).textContent())
      .toBe('Run A has no turn 999 (turns 1–50); showing its first turn.');
  });

  it('compares two runs that carry a graph state instead of a CCS (LangGraph) path by path', async () => {
    const run = (id: string, plan: { step: string; done: boolean }[], extra: Record<string, unknown> = {}) => [
      { type: 'session', data: { id, agent: 'graph-agent', domain: 'langgraph' } },
      ...[1, 2].map((turn) => ({
        type: 'turn',
        data: {
          session_id: id,
          agent: 'graph-agent',
          turn,
          input: 'go',
          output: '',
          ccs: {},
          state: { plan, ...extra },
        },
      })),
    ];
    const plan = [
      { step: 'inspect the WAL', done: true },
      { step: 'drop the stale slot', done: false },
    ];
    const body = [
      ...run('graph-a', plan),
      ...run('graph-b', [{ ...plan[0]! }, { ...plan[1]!, done: true }, { step: 'verify disk', done: false }], {
        notes: 'slot dropped',
      }),
    ];
    const res = await fetch(`${srv.url}/api/v1/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${srv.key}` },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    await open(page, '/compare?a=graph-a&b=graph-b&turn=2');
    const rows = page.locator('[data-testid=compare-state] tbody tr');
    await expect
      .poll(() =>
        rows.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-path')} ${e.getAttribute('data-kind')}`)),
      )
      .toEqual(['plan[1].done changed', 'plan[2] added', 'notes added']);
    expect(await page.getByTestId('compare-state-summary').textContent()).toBe('1 changed · 0 only in A · 2 only in B');
    expect(await page.getByTestId('compare-ccs').count()).toBe(0);
    // Runs in which nothing went wrong say so; one agent's runs are not said to be of different agents.
    const flagged = page.getByTestId('compare-runs').locator('tbody tr');
    expect(await flagged.evaluateAll((trs) => trs.map((tr) => tr.children[4]!.textContent))).toEqual([
      'nothing flagged',
      'nothing flagged',
    ]);
    expect(await page.getByTestId('different-agents').count()).toBe(0);
    // Beside a run with figures, one that reports none is named in each chart's legend, not just left out.
    await open(page, `/compare?a=${A}&b=graph-a`);
    const h = page.getByTestId('chart-Hallucination H_t');
    await expect.poll(() => h.getByTestId('not-reported').textContent()).toBe('B H_t: not reported');
    // Two agents' sessions: likely two tasks, which the page says.
    expect(await page.getByTestId('different-agents').textContent()).toBe(
      'A and B come from different agents (acc-itops, graph-agent): if they are not runs of the same task, few ' +
        'terms will meet turn by turn.',
    );
  });

  it('opens from a replay with run A and its turn filled in', async () => {
    await open(page, `/sessions/${A}?turn=12`);
    await replayKeysReady(page);
    await page.getByTestId('compare-runs-link').click();
    await expect.poll(() => page.url()).toContain(`/compare?a=${A}&turn=12`);
    expect(await page.getByLabel('Run A').inputValue()).toBe(A);
    // The field to fill has the focus: typed, then Enter.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null))
      .toBe('Run B');
    await page.keyboard.type(B);
    await page.keyboard.press('Enter');
    await expect.poll(readout).toBe('A turn 12 · B turn 12');
  });
});
