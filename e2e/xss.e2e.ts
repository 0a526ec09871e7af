import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { decideAtOnce, launchPage } from './browser';
import { open } from './page';
import { XSS_CORPUS } from '@/lib/curation/fixtures/xss-corpus';

/**
 * Hostile memory: every payload below is stored as memory text (turns, CCS terms, artifacts, memory
 * events and the entries and proposals made from them, UCS methodology, dead ends, annotations and
 * judgments) and every view that shows such text is opened in Chromium. Each payload would set
 * window.__xss or open a dialog if it ran; neither may happen, and the payload must be visible as text.
 */
const srv = inject('servers').find((s) => s.name === 'pglite')!;
const CORPUS = XSS_CORPUS;
const ALL = CORPUS.join(' ');
const AGENT = 'xss-agent';
const SESSION = 'xss-session';

let browser: Browser;
let page: Page;
const dialogs: string[] = [];

async function ingest(records: unknown[]) {
  const r = await fetch(`${srv.url}/api/v1/ingest`, {
    method: 'POST',
    headers: { authorization: `Bearer ${srv.key}`, 'content-type': 'application/x-ndjson' },
    body: records.map((x) => JSON.stringify(x)).join('\n'),
  });
  const body = (await r.json()) as { rejected: number; results: { errors?: unknown }[] };
  expect(body.rejected, JSON.stringify(body.results)).toBe(0);
}

beforeAll(async () => {
  await ingest([
    { type: 'session', data: { id: SESSION, agent: AGENT, title: CORPUS[0], domain: CORPUS[1] } },
    ...CORPUS.map((p, i) => ({
      type: 'turn',
      data: {
        session_id: SESSION,
        agent: AGENT,
        turn: i + 1,
        input: p,
        output: `${p} ${CORPUS[(i + 1) % CORPUS.length]}`,
        ccs: { goal_orientation: [`fix(${i})`], constraints: [p.replace(/[()]/g, '')] },
      },
    })),
    {
      type: 'artifact',
      data: { id: 'xss-artifact', session_id: SESSION, agent: AGENT, kind: 'log', content: ALL, created_turn: 2 },
    },
    ...CORPUS.map((p, i) => ({
      type: 'memory_event',
      data: {
        event_id: `memevt_xss_${String(i).padStart(8, '0')}`,
        timestamp: '2026-11-21T09:00:00Z',
        source_agent: AGENT,
        task_id: 'xss',
        memory_kind: 'procedure',
        content: `Step ${i}: ${p}`,
        suggested_scope: 'team_memory',
        sensitivity: 'internal',
        confidence: 'high',
        evidence_refs: ['docs/xss.md'],
        request_context: { user_intent: p.slice(0, 200), outcome: p.slice(0, 200) },
        ttl: 'durable',
      },
    })),
    {
      type: 'ucs_index',
      agent: AGENT,
      data: {
        version: 1,
        annotations: {
          'xss-art': {
            text: ALL,
            failure_condition: CORPUS[1],
            generalized_pattern: CORPUS[2],
            annotated_at: '2026-11-21T09:00:00Z',
          },
        },
        methodology_entries: CORPUS.map((p, i) => ({
          date: '2026-11-21',
          capabilities: ['read'],
          keywords: ['xss'],
          summary: `${i} ${p}`,
          source_type: 'post_task',
          agent_id: AGENT,
          id: `xss-m-${i}`,
        })),
        dead_end_entries: CORPUS.map((p, i) => ({
          date: '2026-11-21',
          capabilities: ['exec'],
          keywords: ['xss', p.slice(0, 20)],
          topic: p,
          why_closed: p,
          reopen_conditions: p,
          id: `xss-de-${i}`,
        })),
        judgment_nodes: CORPUS.map((p, i) => ({
          date: '2026-11-21',
          timestamp: '2026-11-21T09:00:00Z',
          agent_id: AGENT,
          context: { task_description: p, cursor_before: 'read', constraints: [p] },
          action: 'read',
          outcome: p,
          id: `xss-j-${i}`,
        })),
        report_counter: 0,
        policy_overrides: [],
      },
    },
  ]);
  ({ browser, page } = await launchPage());
  await decideAtOnce(page);
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
});
afterAll(async () => browser?.close());

async function assertInert(view: string) {
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? null), view).toBeNull();
  expect(dialogs, view).toEqual([]);
  expect(await page.locator('iframe').count(), view).toBe(0);
}

describe('hostile memory text in every view', () => {
  it.each([
    ['/sessions', 'script>window.__xss=1'],
    [`/sessions/${SESSION}?turn=2`, 'onerror'],
    [`/sessions/${SESSION}?turn=6`, 'iframe srcdoc'],
    ['/curation/events', 'onerror'],
    [`/substrate/${AGENT}/dead-ends`, 'ontoggle'],
    [`/substrate/${AGENT}/judgment`, 'javascript:'],
    ['/curation/reports', 'memevt_xss_'],
    ['/curation/audit', 'xss'],
  ])('%s renders the payloads as text', async (url, visible) => {
    await open(page, `${srv.url}${url}`);
    await expect.poll(() => page.locator('main').textContent(), { timeout: 15_000 }).toContain(visible);
    await assertInert(url);
  });

  it('the inbox, an approval, the memory browser and recall stay inert', async () => {
    await open(page, `${srv.url}/curation`);
    await page.getByLabel('Filter by agent').selectOption(AGENT);
    const row = page.locator('.inbox-row', { hasText: 'Step 1:' });
    await row.click();
    await expect.poll(() => page.getByTestId('proposal-content').textContent()).toContain('onerror');
    expect(await page.getByTestId('request-context').textContent()).toContain('onerror');
    // The safety step flagged the markup: a person decides, told what was found.
    expect(await page.getByTestId('proposal-detail').textContent()).toContain(
      'markup in the content: an event-handler attribute',
    );
    await assertInert('inbox');
    await page.keyboard.press('a');
    await expect.poll(() => page.getByTestId('inbox-banner').textContent()).toContain('Approved');
    await open(page, `${srv.url}/curation/entries`);
    await page.getByLabel('Search entries').fill('Step 1');
    await page.getByTestId('entries').locator('.inbox-row').first().click();
    await expect.poll(() => page.getByTestId('entry-detail').textContent()).toContain('onerror');
    await assertInert('memory browser');
    await open(page, `${srv.url}/recall`);
    await page.getByLabel('Search memory').fill('onerror window');
    await expect.poll(() => page.getByTestId('recall-results').textContent(), { timeout: 60_000 }).toContain('onerror');
    await assertInert('recall');
    await page.keyboard.press('Control+k');
    await page.getByLabel('Search all memory').fill('svg onload');
    await page.getByTestId('palette-results').waitFor();
    await assertInert('palette');
  });
});
