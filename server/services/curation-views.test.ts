import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@/server/db';
import { memoryEntries } from '@/server/db/schema/curation';
import { DRIVERS, freshDb } from '@/server/test/db';
import { listEntries } from './curation-views';

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
});
