import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type DbHandle } from '@/server/db';
import { memoryRetrievals, retrievalJudgments } from '@/server/db/schema/curation';
import { createMcpServer } from '@/server/http/mcp';
import { appRouter } from '@/server/routers/app';
import { createCallerFactory } from '@/server/trpc/init';
import { createKey } from '@/server/services/api-keys';
import { exportProject, importProject } from '@/server/services/archive';
import { createEntry } from '@/server/services/curation-edits';
import { logRetrieval, sweepRetrievals } from '@/server/services/curation-retrievals';
import { DRIVERS, freshDb } from '@/server/test/db';
import { healthRates } from '@/lib/curation/health';

const createCaller = createCallerFactory(appRouter);

/** A GitHub token's shape: what an agent might paste into a query by mistake. */
const TOKEN = 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';

const CHECKOUT = [
  'Blue/green deploys of the checkout service need the feature flag service warmed first.',
  'The checkout service deploy pipeline runs smoke tests after each canary.',
  'Rollbacks of the checkout service deploy restore the previous container image.',
];
const MISSED = 'Feature flag caches expire after five minutes at the edge proxy.';

type Hit = { source: 'memory_entry' | 'artifact'; id: string; content: string };
type Searched = { isError?: boolean; structuredContent?: { query: string; mode: string; results: Hit[] } };
const search = async (c: Client, args: Record<string, unknown>) =>
  (await c.callTool({ name: 'search_memory', arguments: args })) as Searched;

describe.each(DRIVERS)('retrieval F1 (M6) from labelled agent searches on %s', (driver) => {
  let h: DbHandle;
  let client: Client;
  let keyId: string;
  let missedId: string;
  let hits: Hit[];
  let retrievalId: string;
  const as = (actor: string, role: 'viewer' | 'reviewer' | 'admin') =>
    createCaller({ db: h.db, driver: h.driver, location: h.location, projectId: 'default', actor, role });
  let alice: ReturnType<typeof createCaller>;
  let bob: ReturnType<typeof createCaller>;
  let viewer: ReturnType<typeof createCaller>;
  const m6 = async () => {
    const days = await viewer.curation.health();
    const labelled = days.filter((d) => d.retrievals_labelled > 0);
    expect(labelled).toHaveLength(1);
    return { day: labelled[0]!, rates: healthRates(labelled)[0]! };
  };

  beforeAll(async () => {
    h = await freshDb(driver);
    alice = as('alice', 'reviewer');
    bob = as('bob', 'reviewer');
    viewer = as('victor', 'viewer');
    for (const content of CHECKOUT)
      await createEntry(h.db, 'default', { scope: 'project', kind: 'fact', content }, 's');
    missedId = (await createEntry(h.db, 'default', { scope: 'project', kind: 'fact', content: MISSED }, 's')).id;
    keyId = (await createKey(h.db, 'default', 'deploy-bot key', 'test')).apiKey.id;
    const [a, b] = InMemoryTransport.createLinkedPair();
    await createMcpServer(h, 'default', `api_key:${keyId}`).connect(b);
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(a);
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    await h?.close();
  });

  it('logs an agent’s search_memory call with its results in rank order and the query redacted', async () => {
    const r = await search(client, { query: `checkout service deploy ${TOKEN}`, mode: 'keyword', limit: 5 });
    expect(r.isError).toBeFalsy();
    hits = r.structuredContent!.results;
    expect(hits.length).toBeGreaterThanOrEqual(3);
    expect(hits.map((x) => x.id)).not.toContain(missedId);

    const list = await viewer.curation.retrievals({});
    expect([list.matching, list.total, list.labelled]).toEqual([1, 1, 0]);
    const row = list.items[0]!;
    retrievalId = row.id;
    expect(row).toMatchObject({
      actor: `api_key:${keyId}`,
      mode: 'keyword',
      limit: 5,
      returned: hits.length,
      judged: 0,
    });
    expect(row.query).toBe('checkout service deploy [REDACTED:github_token]');
    // Nowhere in the stored row, whatever the column.
    const stored = rowsOf<{ row: string }>(
      await h.db.execute(sql`select to_jsonb(r)::text as row from memory_retrievals r`),
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.row).not.toContain(TOKEN);
    expect(stored[0]!.row).not.toContain(TOKEN.slice(4, 20));

    const detail = await viewer.curation.retrieval({ id: retrievalId });
    expect(detail.retrieval.redactions).toEqual([{ path: 'query', type: 'github_token', count: 1 }]);
    expect(detail.items.map((i) => [i.source, i.id, i.rank, i.returned, i.relevant])).toEqual(
      hits.map((x, i) => [x.source, x.id, i + 1, true, null]),
    );
    expect(detail.items[0]!.content).toBe(hits[0]!.content);
  });

  it('takes reviewers’ labels and a missed item; a viewer cannot label; health gives M6', async () => {
    const label = (item: Hit | { source: 'memory_entry'; id: string }, relevant: boolean) => ({
      retrievalId,
      source: item.source,
      itemId: item.id,
      relevant,
    });
    await expect(viewer.curation.judge(label(hits[0]!, true))).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await alice.curation.judge(label(hits[0]!, true))).toEqual({ returned: true, relevant: true });
    await alice.curation.judge(label(hits[1]!, false));
    await alice.curation.judge(label(hits[2]!, false));
    // Added by the reviewer: not returned, whatever the caller would claim.
    expect(await alice.curation.judge(label({ source: 'memory_entry', id: missedId }, true))).toEqual({
      returned: false,
      relevant: true,
    });
    // Only stored items of the project, only logged searches of the project.
    await expect(
      alice.curation.judge(label({ source: 'memory_entry', id: '00000000-0000-0000-0000-000000000000' }, true)),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      alice.curation.judge({ ...label(hits[0]!, true), retrievalId: '00000000-0000-0000-0000-000000000000' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const detail = await viewer.curation.retrieval({ id: retrievalId });
    const missed = detail.items.at(-1)!;
    expect(missed).toMatchObject({ id: missedId, rank: null, returned: false, relevant: true, judgedBy: 'alice' });
    expect(missed.content).toBe(MISSED);

    // 3 returned judged, 1 relevant; 1 relevant missed: precision 1/3, recall 1/2, F1 0.4.
    const { day, rates } = await m6();
    expect(day).toMatchObject({
      retrievals_labelled: 1,
      judged_returned: 3,
      relevant_returned: 1,
      relevant_missed: 1,
    });
    expect(rates.precision).toBeCloseTo(1 / 3, 12);
    expect(rates.recall).toBeCloseTo(1 / 2, 12);
    expect(rates.f1).toBeCloseTo(0.4, 12);
    expect(rates.labelled).toBe(1);
    const audit = await viewer.curation.audit({ action: 'retrieval.' });
    expect(audit.rows.map((a) => [a.actor, a.action, a.subjectId])).toContainEqual([
      'alice',
      'retrieval.judge',
      retrievalId,
    ]);
  });

  it('replaces a label when a reviewer labels the item again', async () => {
    await bob.curation.judge({ retrievalId, source: hits[1]!.source, itemId: hits[1]!.id, relevant: true });
    const rows = await h.db
      .select({
        itemId: retrievalJudgments.itemId,
        relevant: retrievalJudgments.relevant,
        by: retrievalJudgments.judgedBy,
      })
      .from(retrievalJudgments)
      .where(eq(retrievalJudgments.retrievalId, retrievalId));
    expect(rows).toHaveLength(4);
    expect(rows.find((r) => r.itemId === hits[1]!.id)).toEqual({ itemId: hits[1]!.id, relevant: true, by: 'bob' });
    // 3 judged, 2 relevant; 1 missed: precision 2/3, recall 2/3.
    const { rates } = await m6();
    expect(rates.precision).toBeCloseTo(2 / 3, 12);
    expect(rates.recall).toBeCloseTo(2 / 3, 12);
    expect(rates.f1).toBeCloseTo(2 / 3, 12);
    // Taking the missed item back (not relevant) removes it from recall.
    await alice.curation.judge({ retrievalId, source: 'memory_entry', itemId: missedId, relevant: false });
    expect((await m6()).rates.recall).toBe(1);
    await alice.curation.judge({ retrievalId, source: 'memory_entry', itemId: missedId, relevant: true });
    const list = await viewer.curation.retrievals({});
    expect(list.items[0]).toMatchObject({ judged: 3, relevant: 2, missed: 1 });
    expect(list.labelled).toBe(1);
    expect((await viewer.curation.retrievals({ unlabelled: true })).items).toEqual([]);
  });

  it('pages newest first by keyset, and refuses a cursor that is not one', async () => {
    for (const q of ['rollback image', 'smoke tests canary', 'feature flag'])
      await search(client, { query: q, mode: 'keyword' });
    const first = await viewer.curation.retrievals({ limit: 2 });
    expect(first.matching).toBe(4);
    expect(first.items.map((r) => r.query)).toEqual(['feature flag', 'smoke tests canary']);
    const second = await viewer.curation.retrievals({ limit: 2, cursor: first.next });
    expect(second.items.map((r) => r.query)).toEqual(['rollback image', expect.stringContaining('checkout service')]);
    expect([second.next, second.matching]).toEqual([null, null]);
    expect((await viewer.curation.retrievals({ unlabelled: true })).matching).toBe(3);
    await expect(
      viewer.curation.retrievals({ cursor: { at: "now'); drop table x; --", id: retrievalId } }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('answers a search whose log cannot be written, and logs nothing for it', async () => {
    // A project that does not exist: the insert fails its foreign key, the search still answers.
    const [a, b] = InMemoryTransport.createLinkedPair();
    await createMcpServer(h, 'no-such-project', 'api_key:x').connect(b);
    const other = new Client({ name: 'test', version: '1.0.0' });
    await other.connect(a);
    const r = await search(other, { query: 'checkout' });
    await other.close();
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent!.results).toEqual([]);
    expect(
      await logRetrieval(h.db, 'no-such-project', 'x', { query: 'q', mode: 'keyword', limit: 1, results: [] }),
    ).toBeNull();
  });

  it('carries searches and labels in the project archive', async () => {
    const lines: string[] = [];
    await exportProject(h.db, 'default', (l) => void lines.push(l));
    const copy = await freshDb(driver);
    try {
      const r = await importProject(copy.db, lines);
      expect(r.tables).toMatchObject({ memory_retrievals: 4, retrieval_judgments: 4 });
      const days = await createCaller({
        db: copy.db,
        driver: copy.driver,
        location: copy.location,
        projectId: 'default',
        actor: 'v',
        role: 'viewer',
      }).curation.health();
      expect(days.filter((d) => d.retrievals_labelled)).toEqual([(await m6()).day]);
    } finally {
      await copy.close();
    }
  });

  it('deletes searches older than 90 days, with their labels', async () => {
    const [old] = await h.db
      .insert(memoryRetrievals)
      .values({
        projectId: 'default',
        actor: 'api_key:x',
        query: 'old',
        mode: 'keyword',
        resultLimit: 10,
        at: new Date(Date.now() - 91 * 86_400_000),
        items: [{ source: 'memory_entry', id: missedId, rank: 1 }],
      })
      .returning({ id: memoryRetrievals.id });
    await alice.curation.judge({ retrievalId: old!.id, source: 'memory_entry', itemId: missedId, relevant: true });
    expect((await viewer.curation.health()).filter((d) => d.retrievals_labelled)).toHaveLength(2);
    expect(await sweepRetrievals(h.db, 'default')).toBe(1);
    expect(await h.db.select().from(retrievalJudgments).where(eq(retrievalJudgments.retrievalId, old!.id))).toEqual([]);
    expect((await viewer.curation.retrievals({})).matching).toBe(4);
    expect((await viewer.curation.health()).filter((d) => d.retrievals_labelled)).toHaveLength(1);
  });

  it('logs the reader a search was limited to, and takes as missed only an entry that reader reads', async () => {
    // A session's note that names no task is read by no task: no search as a reader could have returned it.
    const unread = await createEntry(
      h.db,
      'default',
      { scope: 'session', kind: 'fact', content: 'Checkout canaries are pinned to zone b this week.' },
      's',
    );
    const r = await search(client, {
      query: 'checkout service deploy',
      mode: 'keyword',
      reader: { user: 'mara', team: '', agent_repo: 'deploy-bot', task: 't-7' },
    });
    expect(r.isError).toBeFalsy();
    const logged = (await viewer.curation.retrievals({ limit: 1 })).items[0]!;
    expect(logged.query).toBe('checkout service deploy');
    // Named as the app names a reader, the empty value left out; a search without a reader logs none.
    expect(logged.reader).toEqual({ user: 'mara', agentRepo: 'deploy-bot', task: 't-7' });
    expect((await viewer.curation.retrievals({})).items.filter((x) => x.reader).map((x) => x.id)).toEqual([logged.id]);
    expect((await viewer.curation.retrieval({ id: logged.id })).retrieval.reader).toEqual(logged.reader);

    const missed = (itemId: string) =>
      alice.curation.judge({ retrievalId: logged.id, source: 'memory_entry', itemId, relevant: true });
    await expect(missed(unread.id)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(
        /^itemId: this search read as user mara, agent_repo deploy-bot, task t-7, who does not read entry /,
      ),
    });
    // A shared entry it reads and did not return is a miss; so is one it returned, labelled as usual.
    expect(await missed(missedId)).toEqual({ returned: false, relevant: true });
    // Without a reader, the same session note is a miss like any other entry.
    expect(
      await alice.curation.judge({ retrievalId, source: 'memory_entry', itemId: unread.id, relevant: false }),
    ).toEqual({ returned: false, relevant: false });
  });
});
