import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@/server/db';
import { ingestBatches, memoryEntries, rejectedEvents } from '@/server/db/schema/curation';
import { DRIVERS, freshDb } from '@/server/test/db';
import { listBatches, listEntries, listRejectedEvents } from './curation-views';

describe.each(DRIVERS)('the memory entries list on %s', (driver) => {
  let h: DbHandle;
  afterAll(async () => h?.close());

  it('pages past any size, newest change first, with how many match; no row twice, none lost', async () => {
    h = await freshDb(driver);
    await h.db.execute(sql`insert into projects (id, name) values ('default', 'Default') on conflict do nothing`);
    // 1,234 entries: more than the 1,000 the list used to stop at, silently.
    await h.db.insert(memoryEntries).values(
      Array.from({ length: 1234 }, (_, i) => ({
        projectId: 'default',
        scope: i % 3 ? 'team' : 'user',
        kind: 'fact',
        content: `fact number ${i}${i % 10 === 0 ? ' about billing' : ''}`,
        updatedAt: new Date(Date.UTC(2026, 10, 1) + (i % 50) * 1000),
      })),
    );
    const seen: string[] = [];
    let cursor: number | null = 0;
    let last = Infinity;
    while (cursor !== null) {
      const page = await listEntries(h.db, 'default', { offset: cursor, limit: 300 });
      expect(page.matching).toBe(1234);
      for (const e of page.items) {
        expect(new Date(e.updatedAt).getTime()).toBeLessThanOrEqual(last);
        last = new Date(e.updatedAt).getTime();
        seen.push(e.id);
      }
      cursor = page.next;
    }
    expect(seen).toHaveLength(1234);
    expect(new Set(seen).size).toBe(1234);
    const billing = await listEntries(h.db, 'default', { query: 'billing', scope: 'user', limit: 10 });
    expect(billing.matching).toBe(42);
    expect(billing.items).toHaveLength(10);
    expect(billing.next).toBe(10);
    expect(billing.counts.reduce((n, c) => n + c.n, 0)).toBe(1234);
  });

  it('pages ingest batches and malformed events past their old caps (200 and 500), newest first', async () => {
    const t0 = Date.UTC(2026, 10, 1);
    await h.db.insert(ingestBatches).values(
      Array.from({ length: 321 }, (_, i) => ({
        projectId: 'default',
        actor: `agent-${i}`,
        events: 1,
        receivedAt: new Date(t0 + i * 1000),
      })),
    );
    await h.db.insert(rejectedEvents).values(
      Array.from({ length: 654 }, (_, i) => ({
        projectId: 'default',
        key: `k${i}`,
        eventId: `e${i}`,
        errors: [{ path: 'scope', message: 'is required' }],
        raw: { i },
        receivedAt: new Date(t0 + (i % 7) * 1000),
      })),
    );
    const walk = async <T extends { id: string }>(
      read: (offset: number) => Promise<{ items: T[]; matching: number; next: number | null }>,
      total: number,
    ) => {
      const ids: T[] = [];
      let cursor: number | null = 0;
      while (cursor !== null) {
        const page = await read(cursor);
        expect(page.matching).toBe(total);
        ids.push(...page.items);
        cursor = page.next;
      }
      expect(new Set(ids.map((r) => r.id)).size).toBe(total);
      return ids;
    };
    const batches = await walk((offset) => listBatches(h.db, 'default', { offset, limit: 100 }), 321);
    expect(batches[0]!.actor).toBe('agent-320');
    expect(batches.at(-1)!.actor).toBe('agent-0');
    // Many share a second: the order is still total, so no row repeats or goes missing across pages.
    const rejected = await walk((offset) => listRejectedEvents(h.db, 'default', { offset, limit: 100 }), 654);
    const times = rejected.map((r) => new Date(r.receivedAt).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await listRejectedEvents(h.db, 'default')).items).toHaveLength(100);
  });
});
