import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchPage } from './browser';
import { open } from './page';
import { uiServer } from './ui-server';
import { referenceReopen } from '../lib/ucs/reopen';
import { bridgeIndexOf, routeContext, substrateFromFiles } from '../lib/ucs/substrate-sim';
import dynamics from '../lib/ucs/fixtures/reference-dynamics.json';
import routing from '../lib/ucs/fixtures/reference-routing.json';
import reopenRef from '../lib/ucs/fixtures/reference-reopen.json';
import auditRef from '../lib/ucs/fixtures/reference-audit.json';

const srv = uiServer();
const root = path.resolve(import.meta.dirname, '..');
const readJson = (p: string) => JSON.parse(readFileSync(path.resolve(root, p), 'utf8'));
const state = readJson('server/demo/ucs-workspace/ucs/state/torusfield_state.json');
const demoIndex = readJson('server/demo/ucs-workspace/ucs/state/ucs_index.json');
const OPS = 'lib/ucs/fixtures/ops-workspace';
let browser: Browser;
let page: Page;

/** `npx mnemoscope import`, as the README tells a user to import a workspace. */
function importWorkspace(dir: string, agent: string) {
  const r = spawnSync('npx', ['--offline', 'mnemoscope', 'import', dir, '--agent', agent, '--url', srv.url], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, MNEMOSCOPE_API_KEY: srv.key },
  });
  expect(r.status, r.stderr + r.stdout).toBe(0);
}

beforeAll(async () => {
  ({ browser, page } = await launchPage());
  // A second real workspace, written by the reference bridge (its README), and a copy with two stored values changed.
  importWorkspace(OPS, 'ops-copilot');
  const tampered = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-ucs-tampered-'));
  cpSync(path.resolve(root, OPS), tampered, { recursive: true });
  const file = path.join(tampered, 'ucs/state/torusfield_state.json');
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  doc.graph.edges[218].w = 3.1;
  doc.policy.edge_bias['5'] = 1;
  writeFileSync(file, JSON.stringify(doc));
  importWorkspace(tampered, 'ops-tampered');
}, 120_000);
afterAll(async () => browser?.close());

describe('substrate field', () => {
  it('shows the value of the cell under the pointer, as stored', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo`);
    const canvas = page.locator('[data-testid=heatmap] canvas');
    const box = (await canvas.boundingBox())!;
    const cell = box.width / 32;
    // θ 3, φ 7 of the latest snapshot (t 600, the live state file).
    await page.mouse.move(box.x + 7.5 * cell, box.y + 3.5 * cell);
    await page.getByTestId('heatmap-tooltip').waitFor();
    expect(await page.getByTestId('heatmap-tooltip').textContent()).toContain('θ 3 · φ 7');
    // The value as stored (9 significant digits), not the legend's 4.
    const shown = Number(await page.getByTestId('cell-value').textContent());
    expect(shown).toBeCloseTo(state.state.fields.energy[3 * 32 + 7], 6);
    expect(await page.getByTestId('cursor-ring').count()).toBe(1);
  });

  it('is inspected and panned by keyboard, with the same values as the pointer reads', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo`);
    const stage = page.getByTestId('heatmap-stage');
    await stage.focus();
    // Focus starts at the cursor's cell; arrows move the inspected cell around the torus (wrapping at the seam).
    const announced = () => page.getByTestId('heatmap-announce').textContent();
    await expect.poll(announced).toMatch(/^θ \d+ · φ \d+, energy /);
    const [, t0, p0] = (await announced())!.match(/^θ (\d+) · φ (\d+)/)!.map(Number);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowLeft');
    const theta = (t0! + 1) % 32;
    const phi = (p0! + 31) % 32;
    await expect.poll(announced).toMatch(new RegExp(`^θ ${theta} · φ ${phi}, energy `));
    expect(Number(await page.getByTestId('cell-value').textContent())).toBeCloseTo(
      state.state.fields.energy[theta * 32 + phi],
      3,
    );
    // Shift+arrows pan: the cell drawn at the top-left corner is then θ 0, φ 1; Home recentres.
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => page.getByRole('button', { name: 'recentre' }).count()).toBe(1);
    const box = (await page.locator('[data-testid=heatmap] canvas').boundingBox())!;
    const cell = box.width / 32;
    await page.mouse.move(box.x + 0.5 * cell, box.y + 0.5 * cell);
    await expect.poll(() => page.getByTestId('heatmap-tooltip').textContent()).toContain('θ 0 · φ 1');
    await page.mouse.move(box.x - 40, box.y - 40);
    await page.keyboard.press('Home');
    await expect.poll(() => page.getByRole('button', { name: 'recentre' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(announced).toBe('');
  });

  it('plays the snapshot series from the first step to the last', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo`);
    await page.getByLabel('Snapshot').fill('0');
    await expect.poll(() => page.getByTestId('snapshot-readout').textContent()).toBe('step 201 (1 of 21)');
    await page.getByRole('button', { name: 'Play' }).click();
    await expect
      .poll(() => page.getByTestId('snapshot-readout').textContent(), { timeout: 15_000 })
      .toBe('step 600 (21 of 21)');
  });

  it('simulates bridge ticks from the snapshot shown, by the reference dynamics, and says what a tick is', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo`);
    const advisory = dynamics.scenarios.find((x) => x.name === 'advisory')!;
    const at = (n: number) => advisory.checkpoints.find((c) => c.n === n)!;
    // The colour bar's ends span every snapshot (comparable frames), and it says so beside the snapshot's own figures.
    await expect.poll(() => page.getByTestId('scale-over').textContent()).toBe(', scale over all 21 snapshots');
    // One tick: the reference's figure for the cell θ 3, φ 7 after one consult (no context) and one report.
    await page.getByLabel('Ticks to simulate').fill('1');
    const button = page.getByTestId('simulate');
    expect(await button.getAttribute('title')).toMatch(/^One tick is one bridge consult then one report.*“neutral”/);
    await button.click();
    await expect
      .poll(() => page.getByTestId('simulated').textContent())
      .toContain(
        '+1 bridge tick from t 600, the latest state (snapshots/torusfield_state.00399.json) → t 601, cursor web_fetch',
      );
    const canvas = page.locator('[data-testid=heatmap] canvas');
    const box = (await canvas.boundingBox())!;
    const cell = box.width / 32;
    await page.mouse.move(box.x + 7.5 * cell, box.y + 3.5 * cell);
    await page.getByTestId('heatmap-tooltip').waitFor();
    expect(Number(await page.getByTestId('cell-value').textContent())).toBeCloseTo(at(1).fields.energy[3 * 32 + 7]!, 3);
    // 34 more: the field after 35 ticks, as the reference left it.
    await page.getByLabel('Ticks to simulate').fill('34');
    await button.click();
    await expect.poll(() => page.getByTestId('simulated').textContent()).toContain('→ t 635, cursor foundry_research');
    const energy = at(35).fields.energy;
    const sum = energy.reduce((x, y) => x + y, 0);
    expect(await page.getByTestId('field-stats').textContent()).toBe(
      `energy: min ${Math.min(...energy).toFixed(3)} · max ${Math.max(...energy).toFixed(3)} · Σ ` +
        `${Math.round(sum).toLocaleString('en-US')}`,
    );
    expect(await page.getByTestId('simulated').textContent()).toContain(
      '35 reports along an edge, 0 jumps, 7 φ-cycles',
    );
    // The consult below advises on the state shown: the simulated one, with its cursor.
    await expect
      .poll(() => page.getByTestId('consult-state').textContent())
      .toMatch(/^As the bridge’s consult would advise it on the simulated state, t 635 \(\+35 ticks from t 600, /);
    expect(await page.getByTestId('consult-state').textContent()).toContain(', cursor foundry_research (');
    // A count the run cannot take is refused with the reason, not rounded into another.
    for (const bad of ['-3', '2.5', '466']) {
      await page.getByLabel('Ticks to simulate').fill(bad);
      expect(await button.isDisabled()).toBe(true);
      expect(await page.getByTestId('ticks-problem').textContent()).toBe('Ticks: a whole number from 1 to 465.');
    }
    await page.getByLabel('Ticks to simulate').fill('465');
    expect(await button.textContent()).toBe('Simulate +465');
    await button.click();
    await expect.poll(() => page.getByTestId('simulated').textContent()).toContain('+500 bridge ticks');
    expect(await button.isDisabled()).toBe(true);
    expect(await page.getByTestId('ticks-problem').textContent()).toBe(
      'A run holds at most 500 ticks: go back to stored to start again.',
    );
    await page.getByRole('button', { name: 'back to stored' }).click();
    expect(await page.getByTestId('simulated').count()).toBe(0);
    expect(await page.getByTestId('ticks-problem').count()).toBe(0);
    await expect
      .poll(() => page.getByTestId('consult-state').textContent())
      .toMatch(/^As the bridge’s consult would advise it on t 600, the latest state/);
  });

  it('simulates from an older snapshot and names it', async () => {
    await open(page, `${srv.url}/substrate/ops-copilot`);
    await page.getByLabel('Snapshot').fill('5');
    await expect.poll(() => page.getByTestId('snapshot-readout').textContent()).toBe('step 250 (6 of 7)');
    await page.getByLabel('Ticks to simulate').fill('10');
    await page.getByTestId('simulate').click();
    await expect
      .poll(() => page.getByTestId('simulated').textContent())
      .toMatch(/^simulated \+10 bridge ticks from snapshot t 250 \(snapshots\/torusfield_state\.00250\.json\) → t 260/);
    // The readout beside the slider says the same: the state shown is the simulated t 260, not the stored step.
    expect(await page.getByTestId('snapshot-readout').textContent()).toBe('t 260 simulated from step 250 (6 of 7)');
    // Its difference from another snapshot names both states.
    const from = page.getByLabel('Difference from');
    await from.selectOption({ index: 1 });
    const first = await from.locator('option:checked').textContent();
    expect(first).toMatch(/^t \d+$/);
    await expect
      .poll(() => page.locator('.heatmap-legend').textContent())
      .toContain(`energy(t 260, simulated) − energy(${first})`);
  });

  it('keeps the field, the snapshots, the scale and the consult’s context in the address', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo`);
    await page.getByLabel('Field').selectOption('salience');
    // The demo's salience is 0 in every cell of every snapshot: one colour, said so.
    await expect.poll(() => page.getByTestId('flat-field').textContent()).toBe('every cell 0 in all 21 snapshots');
    await page.getByLabel('√ scale').check();
    await page.getByLabel('Difference from').selectOption({ label: 't 201' });
    await page.getByLabel('Snapshot').fill('5');
    await page.getByLabel('Context the agent consults with').fill('research the 502 errors in nginx logs');
    await page.waitForURL((u) => u.searchParams.get('context') === 'research the 502 errors in nginx logs');
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ field: 'salience', diff: '201', scale: 'sqrt' });
    const t = url.searchParams.get('t');
    expect(Number(t)).toBeGreaterThan(201);
    // A reload (or the link, sent on) shows the same.
    await page.reload();
    await page.locator('html[data-hydrated]').waitFor();
    expect(await page.getByLabel('Field').inputValue()).toBe('salience');
    expect(await page.getByLabel('√ scale').isChecked()).toBe(true);
    expect(await page.getByLabel('Difference from').locator('option:checked').textContent()).toBe('t 201');
    await expect.poll(() => page.getByTestId('snapshot-readout').textContent()).toBe(`step ${t} (6 of 21)`);
    await expect
      .poll(() => page.getByLabel('Context the agent consults with').inputValue())
      .toBe('research the 502 errors in nginx logs');
    // A context holding a secret stays out of the address; steps and fields that are none are said.
    await page
      .getByLabel('Context the agent consults with')
      .fill('rotate ghp_0123456789abcdefghijklmnopqrstuvwxyzAB now');
    await page.waitForURL((u) => !u.searchParams.has('context'));
    await open(page, `${srv.url}/substrate/aegis-demo?t=999&field=nope`);
    const problems = (await page.getByTestId('field-link-problems').textContent())!;
    expect(problems).toContain('t=999: no snapshot at that step (the steps are 201,');
    expect(problems).toContain('field=nope: not a field of these snapshots (');
    await expect.poll(() => page.getByTestId('snapshot-readout').textContent()).toBe('step 600 (21 of 21)');
  });

  it('shows the difference of two snapshots on a diverging scale', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo`);
    await page.getByLabel('Difference from').selectOption({ label: 't 201' });
    await expect.poll(() => page.locator('.heatmap-legend').textContent()).toContain('energy(t 600) − energy(t 201)');
    const canvas = page.locator('[data-testid=heatmap] canvas');
    const box = (await canvas.boundingBox())!;
    const cell = box.width / 32;
    await page.mouse.move(box.x + 0.5 * cell, box.y + 0.5 * cell);
    const first = JSON.parse(
      readFileSync(
        path.resolve(import.meta.dirname, '../server/demo/ucs-workspace/snapshots/torusfield_state.00000.json'),
        'utf8',
      ),
    );
    const shown = Number(await page.getByTestId('cell-value').textContent());
    expect(shown).toBeCloseTo(state.state.fields.energy[0] - first.state.fields.energy[0], 2);
  });
});

describe('artifacts and the capability graph', () => {
  it('opens a wormhole from the artifact list and shows it on the graph and the field', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo`);
    const row = page.locator('[data-testid=artifacts] tr[data-artifact=c6b826111c1d656d]');
    await row.waitFor();
    expect(await row.textContent()).toContain('read before write'); // its annotation
    expect(await page.locator('[data-testid=artifacts] .badge.danger').count()).toBe(8); // unannotated
    // Stale as the bridge's status counts it (stale_artifact_count 1): not detected for over 500 steps.
    await expect.poll(() => page.getByTestId('artifacts-counts').textContent()).toBe('9 · 8 unannotated · 1 stale');
    const stale = page.locator('[data-testid=artifacts] tr[data-artifact="628c630d9f0e77c6"]');
    expect(await stale.getByTestId('stale').textContent()).toBe('stale · 525 steps');
    // The reference's saved state keeps no later detection (its meta is {}): the row does not call creation one.
    expect(await stale.textContent()).toContain('no later detection stored');
    expect(await stale.textContent()).not.toContain('last detected');
    expect(await page.getByTestId('stale').count()).toBe(1);
    // An annotation's condition that names itself is not labelled twice.
    const panel = (await page.getByTestId('artifacts').textContent())!;
    expect(panel).toContain('fails when upstream data is stale');
    expect(panel).not.toContain('fails when: fails when');
    await row.click();
    await page.getByTestId('edge-detail').waitFor();
    const edge = state.graph.edges[120];
    expect(await page.getByTestId('edge-detail').textContent()).toContain(`${edge.src} → ${edge.dst}`);
    expect(await page.getByTestId('edge-detail').textContent()).toContain('wormhole');
    expect(await page.locator('[data-testid=graph] line[data-edge="120"]').getAttribute('stroke-opacity')).toBe('1');
    expect(await page.getByTestId('heatmap-highlight').count()).toBe(2);
    // By keyboard: the artifact is a toggle button (pressed while shown); Enter lets it go, Space takes it again.
    const button = row.locator('button[aria-pressed]');
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    await button.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('heatmap-highlight').count()).toBe(0);
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    await page.keyboard.press(' ');
    await expect.poll(() => page.getByTestId('heatmap-highlight').count()).toBe(2);
    expect(await button.getAttribute('aria-pressed')).toBe('true');
  });

  it('works by keyboard: a node takes focus, Enter selects it, its edges are buttons; no labels overlap', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo`);
    const graph = page.getByTestId('graph');
    await graph.locator('g[data-node]').first().waitFor();
    // The labels drawn: none covers another, none leaves the drawing; and the share of capabilities in view that
    // carry their label.
    const labels = () =>
      graph.evaluate((el) => {
        const svg = el.querySelector('svg.graph')!.getBoundingClientRect();
        const boxes = [...el.querySelectorAll('text.graph-label')].map((e) => {
          const r = e.getBoundingClientRect();
          return [r.left, r.top, r.right, r.bottom];
        });
        const overlaps = boxes.filter((a, i) =>
          boxes.some(
            (b, j) => j > i && a[0]! < b[2]! - 1 && a[2]! > b[0]! + 1 && a[1]! < b[3]! - 1 && a[3]! > b[1]! + 1,
          ),
        ).length;
        const outside = boxes.filter((b) => b[0]! < svg.left - 1 || b[2]! > svg.right + 1).length;
        const inView = [...el.querySelectorAll('g[data-node]')].filter((g) => {
          const r = g.querySelector('circle:last-of-type')!.getBoundingClientRect();
          const [x, y] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
          return x >= svg.left && x <= svg.right && y >= svg.top && y <= svg.bottom;
        });
        const labelled = inView.filter((g) => g.querySelector('text.graph-label')).length;
        return { overlaps, outside, share: labelled / Math.max(1, inView.length) };
      });
    const before = await labels();
    expect([before.overlaps, before.outside]).toEqual([0, 0]);
    const node = state.graph.nodes[0] as string;
    const target = graph.locator(`g[data-node="${node}"]`);
    // The graph is one tab stop (45 capabilities were 45 stops); the arrow keys move between its capabilities.
    expect(await graph.locator('g[data-node][tabindex="0"]').count()).toBe(1);
    const focusedNode = () => page.evaluate(() => document.activeElement?.getAttribute('data-node'));
    await target.focus();
    await page.keyboard.press('ArrowRight');
    expect(await focusedNode()).toBe(state.graph.nodes[1]);
    await page.keyboard.press('End');
    expect(await focusedNode()).toBe(state.graph.nodes.at(-1));
    await page.keyboard.press('Home');
    expect(await focusedNode()).toBe(node);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('node-detail').textContent()).toContain(String(node));
    expect(await target.getAttribute('aria-pressed')).toBe('true');
    // Focus moves on to its edges (after the whole graph in the tab order); the incoming ones are listed too.
    const outgoing = state.graph.edges.filter((e: { src: string }) => e.src === node).length;
    const incoming = state.graph.edges.filter((e: { dst: string }) => e.dst === node).length;
    expect(await page.getByTestId('node-edges').textContent()).toMatch(new RegExp(`^${outgoing} outgoing`));
    expect(await page.getByTestId('node-edges-in').textContent()).toMatch(new RegExp(`^${incoming} incoming`));
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=node-edges]') !== null)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByTestId('edge-detail').waitFor();
    // And into the edge's detail, whose ends lead back to a capability.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(node);
    await page.keyboard.press('Enter');
    await page.getByTestId('node-detail').waitFor();
    await page.getByTestId('node-edges').getByRole('button').first().click();
    await page.getByTestId('edge-detail').waitFor();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(() => page.getByTestId('graph-zoom').textContent()).toMatch(/^225%/);
    // Closer, more of what is in view is named, still without overlap.
    const after = await labels();
    expect([after.overlaps, after.outside]).toEqual([0, 0]);
    expect(after.share).toBeGreaterThanOrEqual(before.share);
    // Over the graph the wheel scrolls the page; Ctrl + wheel (a pinch) zooms it.
    const overGraph = async () => {
      const box = (await page.locator('svg.graph').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    };
    await overGraph();
    await page.mouse.wheel(0, 240);
    await page.waitForTimeout(300);
    expect(await page.getByTestId('graph-zoom').textContent()).toMatch(/^225%/);
    await overGraph(); // the page may have scrolled under the pointer
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -240);
    await page.keyboard.up('Control');
    await expect.poll(() => page.getByTestId('graph-zoom').textContent()).not.toMatch(/^225%/);
  });
});

describe('consult samples', () => {
  it('shows every stored consult output with the terms of its scores', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo`);
    const panel = page.getByTestId('consult-samples');
    await panel.waitFor();
    expect(await panel.locator('.panel-head').textContent()).toContain('Stored consult outputs (8)');
    expect(await panel.locator('tr').first().textContent()).toContain('session_status1.452');
  });
});

describe('what would the substrate do?', () => {
  const demo = substrateFromFiles(state, demoIndex);
  const rows = () => page.locator('[data-testid=routing] tbody tr');

  it('without a context: the advice on the latest state, every edge out of the cursor, no penalty', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo`);
    await expect.poll(() => rows().count()).toBeGreaterThan(0);
    const state = page.getByTestId('consult-state');
    expect(await state.textContent()).toContain(
      'on t 600, the latest state (snapshots/torusfield_state.00399.json), cursor sessions_spawn',
    );
    const expected = routeContext(demo, '', { now: Date.now() });
    const printed = routing.cases.find((c) => c.input.context === '')!.printed.suggested_paths;
    expect(await rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-to')))).toEqual(
      expected.paths.map((p) => p.to),
    );
    expect(await rows().first().locator('[data-cell=score]').textContent()).toBe(printed[0]!.score.toFixed(4));
    expect(await page.getByTestId('resolved').textContent()).toContain('none');
    expect(new Set(await page.locator('[data-testid=routing] [data-cell=penalty]').allTextContents())).toEqual(
      new Set(['0.000']),
    );
    // No context and no dead end: every row says its score is the edge's own terms, none is left blank.
    expect(new Set(await page.locator('[data-testid=routing] [data-cell=why]').allTextContents())).toEqual(
      new Set(['edge terms only']),
    );
  });

  it('for a stored context: the reference’s routing, penalties and dead ends, beside the stored advisory', async () => {
    // At 1,280 px, where the comparison's title was squeezed.
    await page.setViewportSize({ width: 1280, height: 1000 });
    await open(page, `${srv.url}/substrate/aegis-demo`);
    const want = routing.cases.find((c) => c.input.context === 'research the 502 errors in nginx logs')!.printed;
    const sample = page.locator('option', { hasText: '#300 research the 502 errors in nginx logs' });
    await page.getByLabel('Pick a stored context').selectOption({ label: (await sample.textContent())! });
    expect(await page.getByLabel('Context the agent consults with').inputValue()).toBe(
      'research the 502 errors in nginx logs',
    );
    await expect.poll(() => rows().first().getAttribute('data-to')).toBe('subagents');
    const shown = await rows().evaluateAll((trs) =>
      trs
        .slice(0, 6)
        .map((tr) => [
          tr.getAttribute('data-to'),
          tr.querySelector('[data-cell=score]')!.textContent,
          tr.querySelector('[data-cell=penalty]')!.textContent,
        ]),
    );
    expect(shown.slice(0, want.suggested_paths.length)).toEqual(
      want.suggested_paths.map((p) => [p.to, p.score.toFixed(4), p.penalty ? `−${p.penalty.toFixed(3)}` : '0.000']),
    );
    expect(await page.locator('[data-testid=resolved] .chip').allTextContents()).toEqual(want.resolved_capabilities);
    const hits = page.locator('[data-testid=consult-dead-ends] li:not(.faint)');
    expect((await hits.allTextContents()).map((t) => t.split(' ')[0] + ' ' + t.split(' ')[1])).toEqual(
      want.dead_ends.map((d) => d.topic.split(' ').slice(0, 2).join(' ')),
    );
    // Which dead ends penalise an edge, and how, is said in its row (not only on hover): their numbers in the list.
    expect(await page.locator('tr[data-to=web_fetch] [data-cell=why]').innerText()).toBe(
      'in context dead ends #1, #2, #3\nkeyword research',
    );
    // Beside those badges the terms' bars keep a readable width (they were squeezed to ~35 px), and the table fits.
    const bars = await page
      .locator('[data-testid=routing] .terms-bar')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
    expect(bars.length).toBeGreaterThanOrEqual(5);
    expect(Math.min(...bars)).toBeGreaterThanOrEqual(90);
    for (const table of ['routing', 'stored-advisory'])
      expect(
        await page.getByTestId(table).evaluate((t) => {
          const right = (e: Element) => e.getBoundingClientRect().right;
          return right(t.querySelector('table') ?? t) - right(t.closest('.panel-body') ?? t.closest('.panel')!);
        }),
        table,
      ).toBeLessThanOrEqual(0);
    // The stored sample #300 was given from another cursor: the two advisories side by side, the difference said.
    const compare = page.getByTestId('stored-advisory');
    expect(await compare.textContent()).toContain('Beside the stored advisory #300');
    // Its title on one or two lines, not squeezed to a narrow column by the badge beside it (it took seven).
    expect((await compare.locator('.consult-compare-head .label-sm').boundingBox())!.height).toBeLessThan(40);
    // A decayed dead end's score is its base times the decay as printed (the decay had two decimals: 9.00 × 0.93 is
    // not 8.33; the dead ends tab gives it three).
    const decayed = (await hits.allTextContents()).map((t) => t.match(/([\d.]+) = ([\d.]+) × ([\d.]+)/)).find(Boolean);
    const [, score, base, decay] = decayed!.map(Number);
    expect(decayed![3]).toMatch(/^\d\.\d{3}$/);
    expect(Math.abs(base! * decay! - score!)).toBeLessThan(0.006);
    await page.setViewportSize({ width: 1440, height: 1000 });
    expect(await page.getByTestId('advice-match').textContent()).toBe(
      'differs: it was given from edit, the cursor is now sessions_spawn',
    );
  });

  it('on an imported workspace, recomputes the stored advisory to the printed digit', async () => {
    await open(page, `${srv.url}/substrate/ops-copilot`);
    const sample = page.locator('option', { hasText: '#65 audit who changed the firewall rules' });
    await page.getByLabel('Pick a stored context').selectOption({ label: (await sample.textContent())! });
    await expect.poll(() => page.getByTestId('advice-match').textContent()).toBe('same paths and printed scores');
    const penalised = rows().filter({ has: page.locator('[data-cell=penalty]', { hasText: '−' }) });
    expect(await penalised.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-to')))).toEqual([
      'foundry_track_outcome',
    ]);
    expect(await penalised.locator('[data-cell=penalty]').textContent()).toBe('−0.750');
    expect(await rows().first().locator('[data-cell=score]').textContent()).toBe('1.4542');
    // Typed by keyboard: the advice follows the text.
    await page.getByLabel('Context the agent consults with').fill('monitor queue depth and consumer lag');
    await expect.poll(() => rows().first().getAttribute('data-to')).toBe('foundry_metrics');
    expect(await page.getByTestId('advice-match').textContent()).toBe('same paths and printed scores');
  });
});

describe('dead ends', () => {
  it('finds a dead end by its reopen condition, with the matched words marked', async () => {
    // Reached from the agents' card by a link that says what it counts (its name was only "9").
    await open(page, `${srv.url}/substrate`);
    await page.getByRole('link', { name: '9 dead ends of aegis-demo' }).click();
    await page.waitForURL(`${srv.url}/substrate/aegis-demo/dead-ends`);
    // The tabs stay in one place from tab to tab (here the search box in the head pushed them down 65 px).
    const tabsAt = async (tab: string) => {
      await open(page, `${srv.url}/substrate/aegis-demo${tab}`);
      return (await page.getByRole('navigation', { name: 'Substrate of aegis-demo' }).boundingBox())!.y;
    };
    const ys = [await tabsAt(''), await tabsAt('/judgment'), await tabsAt('/dead-ends'), await tabsAt('/audit')];
    expect(new Set(ys).size, ys.join(' / ')).toBe(1);
    await open(page, `${srv.url}/substrate/aegis-demo/dead-ends`);
    expect(await page.locator('[data-testid=dead-ends] tbody tr').count()).toBe(9);
    // One is recorded twice: the list shows it once, the bridge's consult (its verdict below) counts both records.
    expect(await page.getByTestId('dead-end-count').textContent()).toBe(
      '9 recorded, 1 of them more than once: 10 records, each of which the bridge’s consult counts',
    );
    await page.getByLabel('Would this reopen?').fill('foundry_get_insights output changed after the upgrade');
    await expect
      .poll(() => page.getByTestId('reopen-summary').textContent())
      .toBe('Mnemoscope’s relevance: 1 dead end could reopen');
    const first = page.locator('[data-testid=dead-ends] tbody tr').first();
    expect(await first.textContent()).toContain('foundry_get_insights for research');
    // Only its own words are marked and counted: "output changed" is in every dead end's reopen conditions.
    expect(await first.locator('mark.hit').allTextContents()).toEqual(['foundry_get_insights']);
    expect(await first.getByTestId('reopen-match').textContent()).toBe(
      'could reopen · 100% of its conditions’ own words',
    );
    // Naming only a dead end's keywords (not shown in the row) relates it, says by what, and does not claim it reopens.
    await page.getByLabel('Would this reopen?').fill('that flaky ingestion job');
    await expect
      .poll(() => page.getByTestId('reopen-summary').textContent())
      .toMatch(
        new RegExp(
          '^Mnemoscope’s relevance: No dead end’s reopen conditions match this\\. · [1-9]\\d* related by a ' +
            'capability or keyword only$',
        ),
      );
    expect(await first.getByTestId('reopen-match').textContent()).toBe('related · names its flaky, ingestion, job');
    expect(await page.getByText(/could reopen ·/).count()).toBe(0);
    await page.getByLabel('Search dead ends').fill('flaky');
    await expect.poll(() => page.locator('[data-testid=dead-ends] tbody tr').count()).toBe(3);
  });
});

describe('would this reopen? — the bridge’s verdict and, apart, the app’s relevance', () => {
  it('shows the dead ends the bridge matches, flags, scores and returns, and the penalty on routing', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo/dead-ends`);
    const probe = reopenRef.probes.find((p) => p.context === 'we have new evidence')!;
    await page.getByLabel('Would this reopen?').fill(probe.context);
    const verdict = page.getByTestId('reference-verdict');
    await expect
      .poll(() => page.getByTestId('verdict-summary').textContent())
      .toMatch(/^Consult would return 3 of 10 matching dead ends, 3 flagged as reopened\./);
    expect(await verdict.getByTestId('reopen-flag').allTextContents()).toEqual(
      probe.matches.map(() => 'reopen: evidence, new'),
    );
    expect(await verdict.locator('tbody tr:not(.dim)').count()).toBe(3);
    // Many reopen words wrap in their cell: at 1,024 px the page does not scroll sideways.
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.getByLabel('Would this reopen?').fill('output changed after upgrade, new evidence from logs');
    await expect.poll(() => verdict.getByTestId('reopen-flag').first().textContent()).toContain('output');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    // Capability chips wrap at their joints ("foundry_|add_|tool"), never inside a part ("foundry_add_to|ol").
    const brokenParts = await page.evaluate(() =>
      [...document.querySelectorAll('.chip-words')].flatMap((chip) =>
        [...chip.childNodes]
          .filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent)
          .filter((n) => {
            const r = document.createRange();
            r.selectNodeContents(n);
            return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1;
          })
          .map((n) => `${chip.textContent}: ${n.textContent}`),
      ),
    );
    expect(await page.locator('.chip-words').count()).toBeGreaterThan(0);
    expect(brokenParts).toEqual([]);
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.getByLabel('Would this reopen?').fill(probe.context);
    await expect
      .poll(() => verdict.getByTestId('reopen-flag').allTextContents())
      .toEqual(probe.matches.map(() => 'reopen: evidence, new'));
    const penalties = Object.entries(probe.routingPenalty!)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([c, p]) => `${c} −${p.toFixed(2)}`);
    expect(await page.locator('[data-testid=verdict-penalty] .chip').allTextContents()).toEqual(penalties);
    // The app's own ranking, labelled apart, finds nothing in these words.
    expect(await page.getByTestId('reopen-summary').textContent()).toBe(
      'Mnemoscope’s relevance: No dead end’s reopen conditions match this.',
    );
  });

  it('resolves capabilities through the keyword map and decays by age, as the bridge does today', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo/dead-ends`);
    await page.getByLabel('Would this reopen?').fill('time for an audit');
    const v = referenceReopen('time for an audit', bridgeIndexOf(demoIndex).deadEnds, { now: Date.now() });
    await expect
      .poll(() => page.getByTestId('verdict-summary').textContent())
      .toContain(`Consult would return 3 of ${v.matches.length} matching dead ends, none flagged as reopened.`);
    expect(await page.getByTestId('verdict-summary').textContent()).toContain(
      `resolved capabilities: ${v.resolvedCapabilities.join(', ')}`,
    );
    const first = page.locator('[data-testid=reference-verdict] tbody tr').first();
    expect(await first.locator('td').nth(7).textContent()).toBe(v.matches[0]!.score.toFixed(3));
  });
});

describe('audit', () => {
  it('replays the demo’s action log by the reference’s rules: 0 disagreements, and its differentiation', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo/audit`);
    expect(await page.getByTestId('audit-verdict').textContent()).toBe(
      '0 disagreements across 21 states and 400 log lines',
    );
    const replayed = await page.getByTestId('audit-replayed').textContent();
    expect(replayed).toContain('t 201');
    expect(replayed).toMatch(/Log lines replayed399/);
    // The banner's 400 and the 399 replayed agree on the page: the one line before is in the base state.
    expect(replayed).toContain('1 of the 400 at or before t 201, already in the state replayed from');
    expect(replayed).toMatch(/φ-cycles80/);
    const stored = page.getByTestId('differentiation-stored');
    const want = auditRef.differentiation.storedSamples;
    expect(await stored.getByTestId('differentiation-verdict').textContent()).toBe('works');
    // Eight outputs of four contexts, each at its own state: said, since the paper compares contexts at one state.
    expect(await stored.textContent()).toContain(
      `advisory variance ${want.variance.toFixed(4)} · distinct top-1 ${want.uniqueTop1} of ${want.contexts} ` +
        'consult outputs, of 4 distinct contexts · each output from its own state',
    );
    expect(await page.getByTestId('disagreements').count()).toBe(0);
  });

  it('on imported workspaces: none in the bridge’s own, each changed value in the tampered copy', async () => {
    await open(page, `${srv.url}/substrate/ops-copilot/audit`);
    expect(await page.getByTestId('audit-verdict').textContent()).toBe(
      '0 disagreements across 7 states and 60 log lines',
    );
    expect(await page.getByTestId('differentiation-current').textContent()).toContain('distinct top-1 3 of 7 contexts');
    await open(page, `${srv.url}/substrate/ops-tampered/audit`);
    expect(await page.getByTestId('audit-verdict').textContent()).toBe(
      '3 disagreements across 7 states and 60 log lines',
    );
    const rows = page.locator('[data-testid=disagreements] tbody tr');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-kind')))).toEqual([
      'weight_clamp',
      'edge_weight',
      'policy_bias',
    ]);
    expect(await rows.first().textContent()).toContain('3.1');
    await page.getByRole('button', { name: /^policy bias 1$/ }).click();
    await expect.poll(() => rows.count()).toBe(1);
  });
});

describe('judgment', () => {
  it('lists the action log, methodology and judgment nodes, and filters actions', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo/judgment`);
    await page.getByTestId('actions').waitFor();
    // A page at a time, newest first, with how many of how many; never a silent cap.
    const rows = page.locator('[data-testid=actions] tbody tr');
    const foot = page.getByTestId('actions-count');
    expect(await rows.count()).toBe(100);
    const total = Number(
      (await foot.textContent())!.match(/^Showing 100 of ([\d,]+) actions, newest first/)![1]!.replace(/,/g, ''),
    );
    expect(total).toBeGreaterThan(200);
    await foot.getByRole('button', { name: 'Show 100 more' }).click();
    await expect.poll(() => rows.count()).toBe(200);
    expect(await page.locator('[data-testid=methodology] tbody tr').count()).toBe(16);
    await page.getByLabel('Filter actions').fill('foundry_overseer');
    await expect.poll(() => foot.textContent()).toMatch(/matching “foundry_overseer” actions/);
    while (await foot.getByRole('button').count()) await foot.getByRole('button').click();
    const matching = Number((await foot.textContent())!.match(/of ([\d,]+) matching/)![1]!.replace(/,/g, ''));
    expect(await rows.count()).toBe(matching);
    expect(matching).toBeLessThan(total);
    expect(
      (await page.locator('[data-testid=actions] tbody tr').allTextContents()).every((row) =>
        row.includes('foundry_overseer'),
      ),
    ).toBe(true);
    expect(await page.locator('[data-testid=actions] tr[data-t="202"]').textContent()).toContain(
      'foundry_metrics → foundry_overseer',
    );
    // The filter reads what a row shows: "jumped (no edge)" for an action along no edge.
    await page.getByLabel('Filter actions').fill('jumped');
    await expect.poll(() => foot.textContent()).toMatch(/of ([\d,]+) matching “jumped” actions/);
    const jumped = await rows.allTextContents();
    expect(jumped.length).toBeGreaterThan(10);
    expect(jumped.every((row) => row.includes('jumped (no edge)'))).toBe(true);
    // At 1,024 px the action log fits its panel: long action and edge names wrap at their joints.
    await page.setViewportSize({ width: 1024, height: 768 });
    const fit = await page.getByTestId('actions').evaluate((t) => [t.scrollWidth, t.closest('.panel')!.clientWidth]);
    expect(fit[0]).toBeLessThanOrEqual(fit[1]!);
    await page.setViewportSize({ width: 1440, height: 1000 });
    // The reward chart speaks in steps, names its red lines, and a click picks that action in the log, wherever it is.
    const chart = page.getByTestId('chart-Reward per action');
    expect(await chart.locator('.chart-head').textContent()).toContain('failure');
    // Its x axis's ends say which steps it spans: the first action's and the last's.
    const ends = await chart.locator('text[data-end]').allTextContents();
    expect(ends).toHaveLength(2);
    expect(ends.every((e) => /^t \d+$/.test(e))).toBe(true);
    expect(Number(ends[0]!.slice(2))).toBeLessThan(Number(ends[1]!.slice(2)));
    // Between them, round steps in order (it had only its ends).
    const between = (await chart.locator('[data-tick]').evaluateAll((gs) => gs.map((g) => g.textContent))).map(Number);
    expect(between.length).toBeGreaterThanOrEqual(2);
    expect(between).toEqual([...between].sort((a, b) => a - b));
    for (const t of between) {
      expect(t % 10).toBe(0);
      expect(t).toBeGreaterThan(Number(ends[0]!.slice(2)));
      expect(t).toBeLessThan(Number(ends[1]!.slice(2)));
    }
    // Before any hover, the legends read the latest point, and say so (they said "—" until hovered).
    expect(await chart.getByTestId('legend-at').textContent()).toBe(`${ends[1]}, the latest`);
    expect(await chart.locator('.legend b').first().textContent()).toMatch(/^-?\d/);
    expect(await page.getByTestId('chart-PP health').locator('.legend b').first().textContent()).toMatch(/^-?\d/);
    await chart.scrollIntoViewIfNeeded();
    const plot = (await chart.locator('svg.chart-overlay').boundingBox())!;
    await page.mouse.move(plot.x + 50, plot.y + plot.height / 2);
    await expect.poll(() => chart.locator('.chart-head .faint').textContent()).toMatch(/^t \d+$/);
    const t = (await chart.locator('.chart-head .faint').textContent())!.slice(2);
    await page.mouse.click(plot.x + 50, plot.y + plot.height / 2);
    const picked = page.locator(`[data-testid=actions] tr[data-t="${t}"]`);
    await expect.poll(() => picked.getAttribute('class')).toContain('row-on');
    // Away from the chart, its legend still says which step its values are: the one picked.
    await page.mouse.move(0, 0);
    await expect.poll(() => chart.getByTestId('legend-at').textContent()).toBe(`t ${t}`);
    expect(await page.getByLabel('Filter actions').inputValue()).toBe('');
    // The PP health chart draws no cursor: there is no current step on this page.
    expect(await page.getByTestId('chart-PP health').locator('.cursor-line').count()).toBe(0);
  });
});
