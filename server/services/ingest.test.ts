import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, DRIVERS } from '@/server/test/db';
import type { DbHandle } from '@/server/db';
import { ingest } from './ingest';
import { demoSessions } from '@/lib/demo/generate';

describe.each(DRIVERS)('ingest on %s', (driver) => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb(driver);
  });
  afterAll(async () => h?.close());

  it('stores the demo sessions', async () => {
    const envs = demoSessions();
    const r = await ingest(h.db, 'default', envs.map((value) => ({ ok: true, value })), 'test');
    expect(r.rejected).toBe(0);
    expect(r.accepted).toBe(envs.length);
  });
});
