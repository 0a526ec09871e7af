import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchPage } from './browser';
import { open } from './page';
import { uiServer } from './ui-server';

const srv = uiServer();
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ browser, page } = await launchPage({ baseURL: srv.url }));
});
afterAll(async () => browser?.close());

/** This run's word: in every entry it writes, so the words filter leaves out whatever other tests wrote. */
const TAG = `ra${Date.now().toString(36)}`;
const AGENT = `readas-${TAG}`;
const who = (side: 'a' | 'b') => ({
  user_id: `${side === 'a' ? 'ana' : 'ben'}-${TAG}`,
  team_id: `${side === 'a' ? 'blue' : 'red'}-${TAG}`,
  project_id: `proj-${side}-${TAG}`,
  agent_repo: `repo-${side}-${TAG}`,
  task_id: `task-${side}-${TAG}`,
});
let n = 0;
const event = (side: 'a' | 'b', scope: string, kind: string, content: string) => ({
  type: 'memory_event',
  data: {
    event_id: `memevt_${TAG}_${String(++n).padStart(4, '0')}`,
    timestamp: new Date(Date.UTC(2026, 10, 24, 9, n)).toISOString(),
    source_agent: AGENT,
    ...who(side),
    memory_kind: kind,
    content: `${content} (${TAG})`,
    suggested_scope: scope,
    sensitivity: 'internal',
    confidence: kind === 'hypothesis' ? 'medium' : 'high',
    evidence_refs: ['docs/handbook.md'],
    ttl: scope === 'session' ? 'session' : 'durable',
  },
});
// One entry per scope for each of two agents (user, team, project, repository, task all differ).
const EVENTS = [
  event('a', 'user_identity', 'preference', 'Prefers terse status updates with the ticket number first'),
  event('b', 'user_identity', 'preference', 'Likes long written design documents before any code review'),
  event('a', 'team_memory', 'fact', 'The blue rota hands pager duty over at nine in the morning Lisbon time'),
  event('b', 'team_memory', 'fact', 'Red squad keeps firewall change tickets open for two days after rollout'),
  event('a', 'project', 'fact', 'The checkout service keeps receipts in the archive bucket for seven years'),
  event('b', 'project', 'fact', 'Warehouse scanners upload inventory counts every fifteen minutes over MQTT'),
  event('a', 'agent_repo', 'fact', 'This repository pins Node 22 and runs its unit tests with vitest in forks'),
  event('b', 'agent_repo', 'fact', 'The mobile repository builds release artefacts with Gradle on own runners'),
  event('a', 'session', 'hypothesis', 'Latency spike may come from the new database connection pool size'),
  event('b', 'session', 'hypothesis', 'Disk pressure on node seven could be the log shipper buffering'),
];

/** A tRPC call from the page, as the app makes it (same origin, local reviewer). */
async function trpc<T>(path: string, input: unknown, method: 'GET' | 'POST'): Promise<T> {
  const body = await page.evaluate(
    async ([path, input, method]) => {
      const enc = encodeURIComponent(JSON.stringify({ json: input }));
      const r = await fetch(method === 'GET' ? `/api/trpc/${path}?input=${enc}` : `/api/trpc/${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? JSON.stringify({ json: input }) : undefined,
      });
      return r.json();
    },
    [path, input, method] as const,
  );
  return (body as { result: { data: { json: T } } }).result.data.json;
}

const section = (scope: string) => page.locator(`section[data-scope="${scope}"]`);
const rows = (scope: string) => section(scope).locator('tbody tr');
const rowTexts = (scope: string) => rows(scope).evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ''));
const counts = (scope: string) => section(scope).getByTestId('scope-counts').textContent();

describe('Curation → Read as', () => {
  it('reads per scope exactly what one agent reads; the reader is chosen by keyboard and kept in the URL', async () => {
    const r = await fetch(`${srv.url}/api/v1/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${srv.key}` },
      body: JSON.stringify(EVENTS),
    });
    expect(((await r.json()) as { curation: Record<string, number> }).curation).toMatchObject({
      written: 4,
      proposed: 6,
    });
    await open(page, '/curation/read-as');
    // Nobody chosen yet: the page says what it does.
    await expect.poll(() => page.getByRole('heading', { name: 'Choose a reader' }).count()).toBe(1);

    // The user, team and repository scopes are written once a reviewer approves; and a reviewer's own entry,
    // which names no owner, is shared by its whole scope.
    const inbox = await trpc<{ items: { id: string }[] }>('curation.inbox', { agent: AGENT }, 'GET');
    expect(inbox.items).toHaveLength(6);
    const decided = await trpc<{ ok: boolean }[]>(
      'curation.decideMany',
      { ids: inbox.items.map((p) => p.id), decision: { action: 'approve' } },
      'POST',
    );
    expect(decided.every((d) => d.ok)).toBe(true);
    await trpc(
      'curation.createEntry',
      {
        scope: 'team_memory',
        kind: 'procedure',
        content: `Escalate security incidents to the duty manager by phone (${TAG})`,
      },
      'POST',
    );

    // The values the events carry are offered as suggestions.
    await expect.poll(() => page.locator(`#read-as-user option[value="ana-${TAG}"]`).count()).toBe(1);
    await expect.poll(() => page.locator(`#read-as-task option[value="task-b-${TAG}"]`).count()).toBe(1);

    // By keyboard: a field, Tab to the next, Enter reads.
    await page.getByLabel('User', { exact: true }).focus();
    for (const v of [`ana-${TAG}`, `blue-${TAG}`, `proj-a-${TAG}`, `repo-a-${TAG}`, `task-a-${TAG}`]) {
      await page.keyboard.type(v);
      await page.keyboard.press('Tab');
    }
    // The words field: only this run's entries are counted.
    await page.keyboard.type(TAG);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => new URL(page.url()).search)
      .toBe(`?user=ana-${TAG}&team=blue-${TAG}&project=proj-a-${TAG}&repo=repo-a-${TAG}&task=task-a-${TAG}&q=${TAG}`);
    // The form is made anew for the reader; the field Enter was pressed in has the focus again.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('q');

    const check = async () => {
      await expect.poll(() => page.getByTestId('read-as').getAttribute('aria-busy')).toBe('false');
      expect(await page.locator('section[data-scope]').evaluateAll((s) => s.map((x) => x.dataset.scope))).toEqual([
        'user_identity',
        'team_memory',
        'project',
        'agent_repo',
        'session',
      ]);
      const expected: Record<string, [RegExp[], RegExp]> = {
        user_identity: [[/Prefers terse status updates.*ana-/], /reads 1 entry · not read: 1 entry of 1 other user$/],
        team_memory: [
          [/Escalate security incidents.*shared/, /blue rota hands pager duty.*blue-/],
          /reads 2 entries \(1 shared\) · not read: 1 entry of 1 other team$/,
        ],
        project: [
          [/checkout service keeps receipts.*proj-a-/],
          /reads 1 entry · not read: 1 entry of 1 other project$/,
        ],
        agent_repo: [[/pins Node 22.*repo-a-/], /reads 1 entry · not read: 1 entry of 1 other repo$/],
        session: [[/Latency spike may come.*task-a-/], /reads 1 entry · not read: 1 entry of 1 other task$/],
      };
      for (const [scope, [want, count]] of Object.entries(expected)) {
        const got = await rowTexts(scope);
        expect(got, scope).toHaveLength(want.length);
        want.forEach((re, i) => expect(got[i], scope).toMatch(re));
        expect(await counts(scope), scope).toMatch(count);
      }
      // Nothing of the other agent's, anywhere.
      expect(await page.getByTestId('read-as').textContent()).not.toMatch(/Likes long written|Red squad|Warehouse/);
      expect(await page.getByTestId('read-as-summary').textContent()).toMatch(
        new RegExp(`^Reads 6 entries with “${TAG}” \\(1 shared\\) · does not read 5 entries with “${TAG}”`),
      );
    };
    await check();
    // Each row opens its entry.
    const link = rows('project').first().getByRole('link');
    expect(await link.getAttribute('href')).toMatch(/^\/curation\/entries\?entry=[0-9a-f-]{36}$/);

    // A reload keeps the reader: in the fields and in what is read.
    await page.reload();
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    expect(await page.getByLabel('Team', { exact: true }).inputValue()).toBe(`blue-${TAG}`);
    expect(await page.getByLabel('Words in the entry').inputValue()).toBe(TAG);
    await check();

    // Another reader, from the URL: only the shared entry of the team scope is read without a team.
    await open(page, `/curation/read-as?user=ben-${TAG}&q=${TAG}`);
    await expect.poll(() => rowTexts('user_identity')).toEqual([expect.stringMatching(/Likes long written/)]);
    expect(await rowTexts('team_memory')).toEqual([expect.stringMatching(/Escalate security incidents/)]);
    expect(await counts('team_memory')).toMatch(/reads 1 entry \(1 shared\) · not read: 2 entries of 2 other teams$/);
    expect(await section('project').textContent()).toContain('no project given: shared entries only');

    // Enter on an entry's link opens it under Entries.
    await rows('user_identity').first().getByRole('link').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/curation/entries');
    await expect.poll(() => page.getByTestId('entry-detail').textContent()).toContain('Likes long written');
  });

  it('says which value of the address it left out, and why (a 600-character user was dropped in silence)', async () => {
    await open(page, `/curation/read-as?user=${'u'.repeat(600)}&team=sre`);
    await expect
      .poll(() => page.getByTestId('reader-problem').allTextContents())
      .toEqual([expect.stringMatching(/^user: must be at most \d+ characters, left out$/)]);
    expect(await page.getByLabel('Team', { exact: true }).inputValue()).toBe('sre');
  });
});
