import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchPage } from './browser';
import { open } from './page';
import { uiServer } from './ui-server';
import { scoreOutgoing } from '../lib/ucs/routing';
import { nodePositions } from '../lib/ucs/field';
import { stepField } from '../lib/ucs/dynamics';

const srv = uiServer();
const state = JSON.parse(
  readFileSync(
    path.resolve(import.meta.dirname, '../server/demo/ucs-workspace/ucs/state/torusfield_state.json'),
    'utf8',
  ),
);
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ browser, page } = await launchPage());
});
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
    const shown = Number(await page.getByTestId('cell-value').textContent());
    expect(shown).toBeCloseTo(state.state.fields.energy[3 * 32 + 7], 3);
    expect(await page.getByTestId('cursor-ring').count()).toBe(1);
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

  it('steps the field forward from a snapshot with the reference dynamics', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo`);
    await page.getByTestId('simulate-1').click();
    expect(await page.getByTestId('simulated').textContent()).toBe('simulated +1 from t 600');
    const canvas = page.locator('[data-testid=heatmap] canvas');
    const box = (await canvas.boundingBox())!;
    const cell = box.width / 32;
    await page.mouse.move(box.x + 7.5 * cell, box.y + 3.5 * cell);
    const expected = stepField('energy', state.state.fields.energy, 24, 32, 1)[3 * 32 + 7]!;
    expect(Number(await page.getByTestId('cell-value').textContent())).toBeCloseTo(expected, 3);
  });

  it('shows the difference of two snapshots on a diverging scale', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo`);
    await page.getByLabel('Difference from').selectOption({ label: 't 201' });
    await expect.poll(() => page.locator('.heatmap-legend').textContent()).toContain('energy(B) − energy(A)');
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
    await row.click();
    await page.getByTestId('edge-detail').waitFor();
    const edge = state.graph.edges[120];
    expect(await page.getByTestId('edge-detail').textContent()).toContain(`${edge.src} → ${edge.dst}`);
    expect(await page.getByTestId('edge-detail').textContent()).toContain('wormhole');
    expect(await page.locator('[data-testid=graph] line[data-edge="120"]').getAttribute('stroke-opacity')).toBe('1');
    expect(await page.getByTestId('heatmap-highlight').count()).toBe(2);
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
    await target.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('node-detail').textContent()).toContain(String(node));
    expect(await target.getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('node-edges').getByRole('button').first().click();
    await page.getByTestId('edge-detail').waitFor();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(() => page.getByTestId('graph-zoom').textContent()).toMatch(/^225%/);
    // Closer, more of what is in view is named, still without overlap.
    const after = await labels();
    expect([after.overlaps, after.outside]).toEqual([0, 0]);
    expect(after.share).toBeGreaterThanOrEqual(before.share);
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

describe('routing explained', () => {
  it("breaks the cursor's outgoing edges into their terms, in the router's order", async () => {
    await open(page, `${srv.url}/substrate/aegis-demo`);
    const rows = page.locator('[data-testid=routing] tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    const ctx = Object.fromEntries(
      nodePositions(state.graph.nodes, state.injection_schedule, 24, 32).map((p) => [
        p.name,
        state.state.fields.context_energy[p.theta * 32 + p.phi],
      ]),
    );
    const expected = scoreOutgoing(state.graph.edges, state.cursor.node, {
      bias: state.policy.edge_bias,
      contextEnergy: ctx,
    });
    expect(await rows.count()).toBe(expected.length);
    expect(await page.locator('[data-testid=routing] .panel-head').textContent()).toContain(
      `Routing from ${state.cursor.node}`,
    );
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-to')));
    expect(shown).toEqual(expected.map((e) => e.to));
  });
});

describe('dead ends', () => {
  it('finds a dead end by its reopen condition, with the matched words marked', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo/dead-ends`);
    expect(await page.locator('[data-testid=dead-ends] tbody tr').count()).toBe(9);
    await page.getByLabel('Would this reopen?').fill('foundry_get_insights output changed after the upgrade');
    await expect.poll(() => page.getByTestId('reopen-summary').textContent()).toBe('1 dead end could reopen');
    const first = page.locator('[data-testid=dead-ends] tbody tr').first();
    expect(await first.textContent()).toContain('foundry_get_insights for research');
    expect(await first.locator('mark.hit').allTextContents()).toEqual(['foundry_get_insights', 'output', 'changed']);
    // Naming only a dead end's keywords (not shown in the row) relates it, says by what, and does not claim it reopens.
    await page.getByLabel('Would this reopen?').fill('that flaky ingestion job');
    await expect
      .poll(() => page.getByTestId('reopen-summary').textContent())
      .toMatch(/^No dead end’s reopen conditions match this\. · [1-9]\d* related by a capability or keyword only$/);
    expect(await first.getByTestId('reopen-match').textContent()).toBe('related · names its flaky, ingestion, job');
    expect(await page.getByText(/could reopen ·/).count()).toBe(0);
    await page.getByLabel('Search dead ends').fill('flaky');
    await expect.poll(() => page.locator('[data-testid=dead-ends] tbody tr').count()).toBe(3);
  });
});

describe('judgment', () => {
  it('lists the action log, methodology and judgment nodes, and filters actions', async () => {
    await open(page, `${srv.url}/substrate/aegis-demo/judgment`);
    await page.getByTestId('actions').waitFor();
    expect(await page.locator('[data-testid=actions] tbody tr').count()).toBe(200);
    expect(await page.locator('[data-testid=methodology] tbody tr').count()).toBe(16);
    await page.getByLabel('Filter actions').fill('foundry_overseer');
    await expect.poll(() => page.locator('[data-testid=actions] tbody tr').count()).toBeLessThan(200);
    expect(
      (await page.locator('[data-testid=actions] tbody tr').allTextContents()).every((row) =>
        row.includes('foundry_overseer'),
      ),
    ).toBe(true);
    expect(await page.locator('[data-testid=actions] tr[data-t="202"]').textContent()).toContain(
      'foundry_metrics → foundry_overseer',
    );
  });
});
