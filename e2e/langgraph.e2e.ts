import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations } from './axe';
import { launch } from './browser';
import { open, replayKeysReady, turnReadout } from './page';
import { exportRecords } from './export';

/**
 * A LangGraph agent recorded through the TypeScript SDK, as users run it: the example
 * (sdk/typescript/examples/langgraph.ts: the real @langchain/langgraph, offline) against each live server; then its
 * session in Chromium, where a turn with a graph state and no CCS shows the state as a tree, its path-level diff
 * (against the previous turn or ?compare=) and its JSON, with the player's keys; at 1,024 px, with no serious axe
 * violation.
 */
const servers = inject('servers');
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => browser?.close());

function run(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(tsx, args, { cwd: root, env: { ...process.env, ...env }, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

type Turn = {
  turn: number;
  input: string;
  output: string;
  ccs: unknown;
  state: { plan: { step: string; done: boolean }[]; messages: unknown[]; notes: string[] };
  langgraph: { nodes: string[]; next: string[]; tasks: { name: string; interrupts: { value: unknown }[] }[] };
};

describe.each(servers)('a LangGraph thread recorded through the SDK, on $name', (srv) => {
  const env = { MNEMOSCOPE_URL: srv.url, MNEMOSCOPE_API_KEY: srv.key };
  const thread = `lg-${srv.name}-${Date.now().toString(36)}`;
  let page: Page;
  beforeAll(async () => {
    page = await (await browser.newContext({ viewport: { width: 1024, height: 900 }, baseURL: srv.url })).newPage();
  });
  afterAll(async () => {
    await page?.context().close();
    rmSync(path.join(os.tmpdir(), 'mnemoscope-examples', `langgraph-${thread}.json`), { force: true });
  });
  const row = (p: string) => page.locator(`[data-testid=state-tree] [role=treeitem][data-path="${p}"]`);
  // Sorted: the database keeps a state's keys in its own order (jsonb: shorter keys first), the diff walks that order.
  const changes = async () =>
    (
      await page
        .locator('[data-testid=state-diff] tr[data-path]')
        .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-change')} ${r.getAttribute('data-path')}`))
    ).sort();
  const readout = () => turnReadout(page);

  it('stores a turn a super-step: the node, messages in and out, the state; a second run stores nothing', async () => {
    const first = await run(['sdk/typescript/examples/langgraph.ts', thread], env);
    expect(first.out).toContain(
      `session ${thread}: 7 turns from 11 checkpoints → accepted 8, already stored 4, rejected 0, dropped 0 ` +
        '(the 4 already stored were sent earlier in this run, while it waited for approval)',
    );
    expect(first.code).toBe(0);
    const second = await run(['sdk/typescript/examples/langgraph.ts', thread], env);
    expect(second.out).toContain(
      `session ${thread}: 7 turns from 11 checkpoints → accepted 0, already stored 8, rejected 0, dropped 0`,
    );

    const records = await exportRecords(srv, thread);
    expect(records[0]).toMatchObject({
      type: 'session',
      data: { id: thread, agent: 'oncall-graph', domain: 'langgraph' },
    });
    const turns = records.filter((r) => r.type === 'turn').map((r) => r.data as unknown as Turn);
    expect(turns.map((t) => [t.turn, t.langgraph.nodes.join(), t.langgraph.next.join()])).toEqual([
      [1, 'agent', 'tools'],
      [2, 'tools', 'agent'],
      [3, 'agent', 'approve'],
      [4, 'approve', 'tools'],
      [5, 'tools', 'agent'],
      [6, 'agent', ''],
      [7, 'agent', ''],
    ]);
    expect(turns[0]).toMatchObject({
      input: 'Disk at 95% on db-7: free some space.',
      output: 'Checking disk usage on db-7.\n→ disk_usage({"host":"db-7"})',
      ccs: {},
    });
    expect(turns[2]!.langgraph.tasks).toEqual([
      expect.objectContaining({
        name: 'approve',
        interrupts: [expect.objectContaining({ value: { question: 'Drop replication slot replica_old on db-7?' } })],
      }),
    ]);
    expect(turns[6]).toMatchObject({
      input: 'Is it stable now?',
      output: 'Stable: 61% for the last 10 minutes, WAL at 2 GB.',
    });
    expect(turns[6]!.state.plan.every((p) => p.done)).toBe(true);
    expect(turns[6]!.state.messages).toHaveLength(8);
  });

  it('shows the graph state as a tree, moved through by keyboard without stepping the player', async () => {
    await open(page, `/sessions/${thread}?turn=3`);
    await expect.poll(readout).toBe('Turn 3 (3 of 7)');
    await replayKeysReady(page);
    expect(await page.getByTestId('ccs-panel').count()).toBe(0);
    // The channels, open; a closed item shows its contents on one line; what this step changed is marked.
    await row('notes[0]').waitFor();
    expect(await row('plan').getAttribute('aria-expanded')).toBe('true');
    expect(await row('plan[0]').getAttribute('aria-expanded')).toBe('false');
    expect(await row('plan[0]').textContent()).toMatch(
      /\{"done":true,"step":"measure disk"\}|\{"step":"measure disk","done":true\}/,
    );
    expect(await row('messages[3]').getAttribute('data-mark')).toBe('added');
    expect(await row('plan[0]').textContent()).toContain('1 change inside');
    expect(await page.getByTestId('state-changes').textContent()).toContain('since turn 2');
    // The timeline: every step changed the state, so no tick says "nothing changed".
    expect(await page.locator('[data-testid=timeline] rect.tl-tick').count()).toBe(7);
    expect(await page.locator('[data-testid=timeline] g[data-same]').count()).toBe(0);

    // A click closes plan, → opens it, ↓ goes into it, → opens plan[0], ↓ reaches its done flag, marked as changed;
    // ← goes back up, ← closes.
    await row('plan').click();
    expect(await row('plan').getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('ArrowRight');
    expect(await row('plan').getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    // An object's keys come in the order the database keeps them (jsonb: shorter first, then by bytes): done, step.
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-path'))).toBe('plan[0].done');
    expect(await row('plan[0].done').getAttribute('data-mark')).toBe('changed');
    expect(await row('plan[0].done').textContent()).toContain('true');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await row('plan[0]').getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-path'))).toBe(
      await page.locator('[data-testid=state-tree] [role=treeitem]').last().getAttribute('data-path'),
    );
    // Arrows, Home and End were the tree's; j and k still step the player from inside it.
    expect(await readout()).toBe('Turn 3 (3 of 7)');
    // A graph-state turn has no CCS to correct: no fork is offered.
    expect(await page.getByTestId('fork-open').count()).toBe(0);
    await page.keyboard.press('j');
    await expect.poll(readout).toBe('Turn 4 (4 of 7)');
    await page.keyboard.press('k');
    await expect.poll(readout).toBe('Turn 3 (3 of 7)');
    await expect.poll(() => page.url()).toMatch(/\?turn=3$/);

    // The super-step in the turn panel: the node that ran, what comes next, the interrupt it waits on.
    const step = page.getByTestId('langgraph-step');
    expect(await step.locator('[data-node]').allTextContents()).toEqual(['agent']);
    expect(await step.locator('[data-next]').allTextContents()).toEqual(['approve']);
    expect(await page.getByTestId('langgraph-task').textContent()).toContain(
      'Drop replication slot replica_old on db-7?',
    );
    expect(await page.getByTestId('turn-panel').textContent()).toContain('→ drop_replication_slot');
  });

  it('diffs path by path against the previous turn, a compare turn and a ?compare= link; shows the JSON', async () => {
    await open(page, `/sessions/${thread}?turn=3`);
    await replayKeysReady(page);
    await page.keyboard.press('d');
    await page.getByTestId('state-diff').waitFor();
    expect(await changes()).toEqual(['added messages[3]', 'changed plan[0].done']);
    const done = page.locator('[data-testid=state-diff] tr[data-path="plan[0].done"]');
    expect(await done.getByTestId('change-from').textContent()).toBe('false');
    expect(await done.getByTestId('change-to').textContent()).toBe('true');

    // Against turn 1, with the compare control.
    await page.getByLabel('Compare with turn').fill('1');
    await page.getByLabel('Compare with turn').press('Enter');
    await expect
      .poll(changes)
      .toEqual(['added messages[2]', 'added messages[3]', 'added notes[0]', 'changed plan[0].done']);
    await expect.poll(() => page.url()).toMatch(/\?turn=3&compare=1$/);

    // A link with ?compare= opens on the diff; a long value is clipped, and shown whole on demand.
    await open(page, `/sessions/${thread}?turn=7&compare=4`);
    await page.getByTestId('state-diff').waitFor();
    await expect
      .poll(changes)
      .toEqual([
        ...[4, 5, 6, 7].map((k) => `added messages[${k}]`),
        'added notes[2]',
        'changed plan[1].done',
        'changed plan[2].done',
      ]);
    const tool = page.locator('[data-testid=state-diff] tr[data-path="messages[4]"]');
    expect(await tool.getByTestId('change-to').textContent()).toMatch(/…$/);
    await tool.getByRole('button', { name: 'whole value' }).click();
    const whole = JSON.parse((await tool.getByTestId('change-whole').textContent())!) as Record<string, unknown>;
    expect(whole).toMatchObject({ type: 'tool', name: 'drop_replication_slot', tool_call_id: 'call_drop' });

    // d again (the focus on the button it clicked): the state as stored.
    await page.keyboard.press('d');
    const raw = JSON.parse((await page.getByTestId('state-raw').textContent())!) as Turn['state'];
    expect(Object.keys(raw).sort()).toEqual(['messages', 'notes', 'plan']);
    expect(raw.plan.map((p) => p.done)).toEqual([true, true, true]);
    // Nothing wider than the window at 1,024 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // Compared with a run that keeps a CCS, the page says why the terms cannot meet.
    const withCcs = `${thread}-ccs`;
    const sent = await fetch(`${srv.url}/api/v1/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${srv.key}` },
      body: JSON.stringify([
        {
          type: 'turn',
          data: {
            session_id: withCcs,
            agent: 'ops',
            turn: 1,
            input: 'i',
            output: 'o',
            ccs: 'goal_orientation: free(disk)',
          },
        },
      ]),
    });
    expect(sent.status).toBe(200);
    await open(page, `/compare?a=${withCcs}&b=${thread}`);
    await expect
      .poll(() => page.getByTestId('compare-kinds').textContent(), { timeout: 15_000 })
      .toMatch(/^Run B keeps a graph state \(LangGraph\), not a CCS/);
    expect(await page.getByTestId('compare-kinds').count()).toBe(1);
  });

  it('has no serious axe violation in the state tree and the diff, light and dark', async () => {
    const found: Record<string, string[]> = {};
    for (const scheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width: 1024, height: 900 }, colorScheme: scheme });
      const p = await context.newPage();
      await open(p, `${srv.url}/sessions/${thread}?turn=3`);
      await p.locator('[data-testid=state-tree] [data-mark=added]').first().waitFor();
      await p.waitForFunction(() => !document.querySelector('.skeleton'), null, { timeout: 15_000 });
      found[`${scheme} state`] = await axeViolations(p);
      await replayKeysReady(p);
      await p.keyboard.press('d');
      await p.getByTestId('state-diff').waitFor();
      found[`${scheme} diff`] = await axeViolations(p);
      await context.close();
    }
    expect(found).toEqual({ 'light state': [], 'light diff': [], 'dark state': [], 'dark diff': [] });
  });

  it('still shows a LangGraph session imported before the state view (channels as CCS) as it was', async () => {
    const id = `lg-old-${srv.name}`;
    const turn = (n: number, plan: string[]) => ({
      type: 'turn',
      data: {
        session_id: id,
        agent: 'triage-graph',
        turn: n,
        input: n === 1 ? 'Disk at 95% on db-7.' : `step ${n - 1}: agent`,
        output: '',
        ccs: { plan },
        langgraph: { checkpoint_id: `c${n}`, step: n - 1, source: 'loop', nodes: ['agent'], next: [] },
      },
    });
    const res = await fetch(`${srv.url}/api/v1/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${srv.key}` },
      body: JSON.stringify([
        { type: 'session', data: { id, agent: 'triage-graph', domain: 'langgraph' } },
        turn(1, ['inspect(wal)']),
        turn(2, ['drop(stale_slot)', 'verify(disk)']),
      ]),
    });
    expect(res.status).toBe(200);
    await open(page, `/sessions/${id}?turn=2`);
    await page.getByTestId('ccs-state').waitFor();
    expect(
      await page
        .locator('[data-testid=ccs-state] [data-field=plan] [data-term]')
        .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-term')} ${e.getAttribute('data-mark')}`)),
    ).toEqual(['drop(stale_slot) added', 'verify(disk) added', 'inspect(wal) removed']);
    expect(await page.getByTestId('state-panel').count()).toBe(0);
    expect(await page.getByTestId('fork-open').isEnabled()).toBe(true);
    expect(await page.getByTestId('langgraph-step').locator('[data-node]').allTextContents()).toEqual(['agent']);
  });
});
