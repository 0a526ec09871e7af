import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@/server/db';
import { DRIVERS, freshDb } from '@/server/test/db';
import { ingest } from './ingest';
import { forkSession, listForks } from './session-forks';
import { getSession, sessionState } from './sessions';
import { tableCounts } from './archive';

const turn = (n: number, ccs: string) => ({
  ok: true as const,
  value: { type: 'turn', data: { session_id: 'run', agent: 'bot', turn: n, input: `q${n}`, output: 'a', ccs } },
});

describe.each(DRIVERS)('forks on %s', (driver) => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb(driver);
    await ingest(
      h.db,
      'default',
      [
        { ok: true, value: { type: 'session', data: { id: 'run', agent: 'bot', title: 'Triage', domain: 'it_ops' } } },
        turn(1, 'constraints: no_restart(nginx)'),
        turn(2, 'constraints: restart_now(nginx)'),
        turn(3, 'constraints: restart_now(nginx)'),
      ],
      'test',
    );
  });
  afterAll(() => h?.close());

  it('saves the corrected CCS at a turn as a new session linked to it, which the agent resumes from', async () => {
    const f = await forkSession(
      h.db,
      'default',
      { id: 'run', turn: 2, ccs: 'constraints: no_restart(nginx)\ngoal_orientation: reduce(502_rate)' },
      'ana',
    );
    expect(f).toMatchObject({ id: 'run~fork-1', turn: 2, forkedFrom: { session: 'run', turn: 2, by: 'ana' } });
    const state = (await sessionState(h.db, 'default', 'run~fork-1'))!;
    expect(state).toMatchObject({
      turn: 2,
      turns: 1,
      agent: 'bot',
      ccs: { constraints: ['no_restart(nginx)'], goal_orientation: ['reduce(502_rate)'] },
      forked_from: { session: 'run', turn: 2, by: 'ana' },
    });
    expect((await getSession(h.db, 'default', 'run~fork-1')).title).toBe('Triage · fork at turn 2');
    expect((await sessionState(h.db, 'default', 'run'))!.forked_from).toBeNull();
    // The next fork of the same session takes the next free name; the list names the turn each was taken at.
    await forkSession(h.db, 'default', { id: 'run', turn: 3, ccs: 'constraints: keep(x)' }, 'bo');
    expect((await listForks(h.db, 'default', 'run')).map((x) => [x.id, x.turn, x.by])).toEqual([
      ['run~fork-1', 2, 'ana'],
      ['run~fork-2', 3, 'bo'],
    ]);
  });

  it('lets no agent claim a fork: forked_from sent in a session record is dropped', async () => {
    await ingest(
      h.db,
      'default',
      [
        {
          ok: true,
          value: {
            type: 'session',
            data: {
              id: 'claimed',
              agent: 'bot',
              metadata: { forked_from: { session: 'run', turn: 1, by: 'ana' }, k: 1 },
            },
          },
        },
      ],
      'api_key:x',
    );
    expect((await getSession(h.db, 'default', 'claimed')).metadata).toEqual({ k: 1 });
  });

  it('refuses a CCS that does not parse, a turn the session lacks, a name in use — and writes nothing', async () => {
    const before = await tableCounts(h.db, 'default');
    await expect(
      forkSession(h.db, 'default', { id: 'run', turn: 2, ccs: 'constraints: no_restart(nginx' }, 'ana'),
    ).rejects.toThrow(/^ccs: constraints: no_restart\(nginx — /);
    await expect(forkSession(h.db, 'default', { id: 'run', turn: 9, ccs: 'constraints: a' }, 'ana')).rejects.toThrow(
      /turn .*run\/9/,
    );
    await expect(
      forkSession(h.db, 'default', { id: 'run', turn: 2, ccs: 'constraints: a', forkId: 'run~fork-1' }, 'ana'),
    ).rejects.toThrow('a session named "run~fork-1" exists already');
    expect(await tableCounts(h.db, 'default')).toEqual(before);
  });
});
