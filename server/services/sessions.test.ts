import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@/server/db';
import { DRIVERS, freshDb } from '@/server/test/db';
import { approveAndAsk, historyOf, oncallGraph, runUntilApproval } from '@/lib/import/fixtures/langgraph-oncall';
import { langGraphEnvelopes, langGraphTurnOf } from '@/lib/import/langgraph';
import { ingest } from './ingest';
import { refreshDigest } from './session-digest';
import { listTurns } from './sessions';

describe.each(DRIVERS)('a LangGraph thread’s turns on %s', (driver) => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb(driver);
  });
  afterAll(() => h?.close());

  it('come back in a window with their graph state (redacted like all memory), step; again: duplicates', async () => {
    const g = oncallGraph();
    const config = { configurable: { thread_id: `lg-${driver}` } };
    await runUntilApproval(g, config);
    // Someone pasted a credential into the thread: it is memory like any other, redacted before storage.
    await g.updateState(config, { notes: ['DB_PASSWORD=Sup3rS3cretPass! please'] });
    await approveAndAsk(g, config);
    const envelopes = langGraphEnvelopes(JSON.parse(JSON.stringify(await historyOf(g, config))), { fallbackId: 'x' });
    if ('error' in envelopes) throw new Error(envelopes.error);
    const items = envelopes.map((value) => ({ ok: true as const, value }));
    expect(await ingest(h.db, 'default', items, 'test')).toMatchObject({ accepted: 9, rejected: 0 });

    const w = await listTurns(h.db, 'default', `lg-${driver}`, { offset: 2, limit: 3 });
    expect(w.map((t) => t.turn)).toEqual([3, 4, 5]);
    expect(w[0]!.ccs).toEqual({});
    expect(langGraphTurnOf(w[0]!.langgraph)).toMatchObject({ nodes: ['agent'], next: ['approve'] });
    const state = w[1]!.state as { notes: string[]; plan: { done: boolean }[] };
    expect(state.plan.map((p) => p.done)).toEqual([true, false, false]);
    expect(state.notes).toContain('DB_PASSWORD=[REDACTED:password] please');
    expect(JSON.stringify(w)).not.toContain('Sup3rS3cretPass');
    // What the replay draws apart (the state, the step, the count of changes) is not listed again with the turn.
    expect(w.map((t) => t.others)).toEqual([null, null, null]);

    // The timeline's tick heights: the paths each turn's state changed, as the converter counted them.
    const { digest } = await refreshDigest(h.db, 'default', `lg-${driver}`);
    expect(digest.change).toEqual(
      envelopes.flatMap((e) => (e.type === 'turn' ? [(e.data as { state_changes: number }).state_changes] : [])),
    );
    expect(digest.change.every((n) => n > 0)).toBe(true);

    expect(await ingest(h.db, 'default', items, 'test')).toMatchObject({ accepted: 0, duplicates: 9, conflicts: 0 });
  });

  it('list the fields an agent sent that a turn does not define, redacted, beside those drawn apart', async () => {
    const turn = (n: number, extra: Record<string, unknown>) => ({
      ok: true as const,
      value: {
        type: 'turn',
        data: {
          session_id: `own-${driver}`,
          agent: 'a',
          turn: n,
          input: 'i',
          output: 'o',
          ccs: 'goal_orientation: g(x)',
          ...extra,
        },
      },
    });
    const items = [
      // `utility` is a turn field kept in `extra` (the hygiene lab's): not the agent's own.
      turn(1, { debug_note: 'used sk-Zq8vW2nR5tY7uI9oP1aS3dF6gH', retry: { count: 2 }, stress: 'high', utility: 0.8 }),
      turn(2, { usage: { tokens: 12 } }),
    ];
    expect(await ingest(h.db, 'default', items, 'test')).toMatchObject({ accepted: 2, rejected: 0 });
    const [first, second] = await listTurns(h.db, 'default', `own-${driver}`);
    expect(first!.others).toEqual({ debug_note: 'used [REDACTED:api_key]', retry: { count: 2 } });
    expect(first!.stress).toBe('high');
    expect(second!.others).toBeNull();
  });
});
