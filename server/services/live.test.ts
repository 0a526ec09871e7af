import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@/server/db';
import { DRIVERS, freshDb } from '@/server/test/db';
import { ingest } from './ingest';
import { notifyTurns, onSessionTurns } from './live';

const turn = (session: string, n: number) => ({
  ok: true as const,
  value: { type: 'turn', data: { session_id: session, agent: 'a', turn: n, input: 'i', output: 'o', ccs: {} } },
});

const settle = () => new Promise((r) => setTimeout(r, 150));

describe.each(DRIVERS)('news of new turns on %s', (driver) => {
  let h: DbHandle;
  afterAll(async () => h?.close());

  it('reaches the subscribers of that session once its turns are committed, and no one else', async () => {
    h = await freshDb(driver);
    await h.db.execute(sql`insert into projects (id, name) values ('default', 'Default') on conflict do nothing`);
    const heard: string[] = [];
    const stopS = await onSessionTurns(h, 'default', 's', () => heard.push('s'));
    const stopT = await onSessionTurns(h, 'default', 't', () => heard.push('t'));
    await ingest(h.db, 'default', [turn('s', 1), turn('s', 2)], 'test');
    await settle();
    expect(heard).toEqual(['s']);
    // A duplicate stores nothing and says nothing.
    await ingest(h.db, 'default', [turn('s', 1)], 'test');
    await settle();
    expect(heard).toEqual(['s']);
    // Nothing is sent for a transaction that rolls back.
    await h.db
      .transaction(async (tx) => {
        await notifyTurns(tx, 'default', ['t']);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await settle();
    expect(heard).toEqual(['s']);
    // An id too long for a NOTIFY payload reaches every subscriber of the project instead.
    await h.db.transaction((tx) => notifyTurns(tx, 'default', ['x'.repeat(9000)]));
    await settle();
    expect(heard.sort()).toEqual(['s', 's', 't']);
    // So does a transaction that touches more keys than are worth a notice each.
    await h.db.transaction((tx) =>
      notifyTurns(
        tx,
        'default',
        Array.from({ length: 101 }, (_, i) => `many-${i}`),
      ),
    );
    await settle();
    expect(heard.sort()).toEqual(['s', 's', 's', 't', 't']);
    stopS();
    stopT();
    await ingest(h.db, 'default', [turn('s', 3), turn('t', 1)], 'test');
    await settle();
    expect(heard).toHaveLength(5);
  });

  // PostgreSQL only: PGlite's LISTEN is in the same process and cannot lose its connection.
  if (driver === 'postgres')
    it('after its LISTEN connection drops and comes back, has every subscriber check for what it missed', async () => {
      const heard: string[] = [];
      const stop = await onSessionTurns(h, 'default', 's', () => heard.push('s'));
      await h.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
                              where query ilike 'listen%' and pid <> pg_backend_pid()`);
      // Written while nobody listens: the NOTIFY is lost, the check after reconnecting is not.
      await ingest(h.db, 'default', [turn('s', 10)], 'test');
      const until = Date.now() + 10_000;
      while (!heard.length && Date.now() < until) await settle();
      expect(heard).toContain('s');
      stop();
    });
});
