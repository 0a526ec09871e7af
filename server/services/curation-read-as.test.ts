import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@/server/db';
import { memoryEntries, memoryEvents } from '@/server/db/schema/curation';
import { toMemoryEventRow, type MemoryEvent } from '@/lib/curation/event';
import { normalizeEnvelope } from '@/lib/ingest/normalize';
import { ownerKey, readScopeOf, sees, type Reader } from '@/lib/curation/read-as';
import { DRIVERS, freshDb } from '@/server/test/db';
import { createEntry } from './curation-edits';
import { deprecateEntry } from './curation-decisions';
import { entryOwners, readAs } from './curation-read-as';

const P = 'default';
let n = 0;

/** An Agentlas event from one agent's task, with whose it is in its data. */
const agentlas = (who: Record<string, unknown>) => ({
  event_id: `memevt_readas_${String(++n).padStart(4, '0')}`,
  timestamp: `2026-11-20T08:${String(n).padStart(2, '0')}:00Z`,
  source_agent: 'worker',
  task_id: 'inc-1',
  memory_kind: 'fact',
  content: `event ${n}`,
  suggested_scope: 'project',
  sensitivity: 'internal',
  confidence: 'high',
  evidence_refs: ['docs/a.md'],
  ttl: 'durable',
  ...who,
});
/** The Memory Curator paper's shape, which takes any other field as sent. */
const legacy = (who: Record<string, unknown>) => ({
  event_id: `evt-readas-${++n}`,
  source_agent: 'worker',
  kind: 'fact',
  content: `legacy event ${n}`,
  suggested_scope: 'project',
  confidence: 'high',
  evidence_refs: [],
  timestamp: `2026-11-20T09:${String(n).padStart(2, '0')}:00Z`,
  ...who,
});

describe.each(DRIVERS)('Curation → Read as on %s', (driver) => {
  let h: DbHandle;
  const events = new Map<string, MemoryEvent>();
  /** Entry ids by a name the test gives them. */
  const id: Record<string, string> = {};
  let t = 0;

  async function event(data: Record<string, unknown>) {
    const r = normalizeEnvelope({ type: 'memory_event', data });
    if (!r.ok || r.record.type !== 'memory_event') throw new Error(JSON.stringify(r));
    await h.db.insert(memoryEvents).values({ projectId: P, ...toMemoryEventRow(r.record), ts: r.record.timestamp });
    events.set(r.record.eventId, r.record);
    return r.record.eventId;
  }
  async function entry(name: string, scope: string, sourceEventId: string | null, status = 'active') {
    const [row] = await h.db
      .insert(memoryEntries)
      .values({
        projectId: P,
        scope,
        kind: 'fact',
        content: `${name} memory`,
        status,
        sourceEventId,
        // Before the reviewer's entry below, which is written now.
        updatedAt: new Date(Date.UTC(2020, 10, 20, 10, 0, ++t)),
      })
      .returning({ id: memoryEntries.id });
    id[name] = row!.id;
  }

  beforeAll(async () => {
    h = await freshDb(driver);
    // Two users, two teams, two repositories, two tasks, two projects.
    const mara = { user_id: 'u-mara', team_id: 'sre', project_id: 'edge', agent_repo: 'itops-agent', task_id: 'inc-1' };
    const jonas = {
      user_id: 'u-jonas',
      team_id: 'secops',
      project_id: 'clinical',
      agent_repo: 'secops-agent',
      task_id: 'inc-2',
    };
    const m = await event(agentlas(mara));
    const j = await event(agentlas(jonas));
    // Names no owner for any scope but its task (and its agent, the repository it stands for).
    const bare = await event(agentlas({ task_id: 'inc-2', source_agent: 'itops-agent' }));
    // An older shape: no task, a session; a team that is not a string (matches nobody); a repository with an email in
    // it, masked before storage (matches nobody).
    const lSession = await event(legacy({ session_id: 's-9', user_id: 'u-mara' }));
    const lOddTeam = await event(legacy({ team_id: 42 }));
    const lMasked = await event(legacy({ agent_repo: 'repo-of-jo@example.com', user_id: 'u-jonas' }));

    await entry('user.mara', 'user_identity', m);
    await entry('user.jonas', 'user_identity', j);
    await entry('user.noOwner', 'user_identity', bare);
    await entry('user.mara.old', 'user_identity', m);
    await entry('team.sre', 'team_memory', m);
    await entry('team.sre.alias', 'agent_team', m);
    await entry('team.secops', 'team_memory', j);
    await entry('team.odd', 'team_memory', lOddTeam);
    await entry('project.edge', 'project', m);
    await entry('project.clinical', 'project', j, 'in_conflict');
    await entry('repo.itops.field', 'agent_repo', m);
    await entry('repo.itops.agent', 'agent_repo', bare);
    await entry('repo.secops', 'agent_repo', j);
    await entry('repo.masked', 'agent_repo', lMasked);
    await entry('session.inc1', 'session', m);
    await entry('session.inc2', 'session', bare);
    await entry('session.s9', 'session', lSession);
    await entry('session.gone', 'session', m, 'deprecated');
    // A session entry that names no task or session, from an event and from a reviewer: read by no task.
    await entry('session.noOwner', 'session', await event(legacy({})));
    id['session.byReviewer'] = (
      await createEntry(h.db, P, { scope: 'session', kind: 'fact', content: 'reviewer session note' }, 'ana')
    ).id;
    // Written by a reviewer: no source event, so every reader of its scope reads it.
    id['project.byReviewer'] = (
      await createEntry(h.db, P, { scope: 'project', kind: 'procedure', content: 'reviewer memory' }, 'ana')
    ).id;
    // Deprecated since: read by nobody.
    await deprecateEntry(h.db, P, id['user.mara.old']!, 'superseded', 'ana');
  });
  afterAll(() => h?.close());

  const names = (ids: string[]) => ids.map((x) => Object.keys(id).find((k) => id[k] === x) ?? x);
  const read = async (reader: Reader, more: Parameters<typeof readAs>[2] = {}) => {
    const r = await readAs(h.db, P, { ...reader, ...more });
    return Object.fromEntries(
      r.scopes.map((s) => [
        s.scope,
        {
          items: names(s.items.map((e) => e.id)),
          visible: s.visible,
          shared: s.shared,
          hidden: s.hidden,
          hiddenOwners: s.hiddenOwners,
        },
      ]),
    );
  };

  it('reads, per scope in reading order, exactly the reader’s own and shared live entries, newest first', async () => {
    const r = await readAs(h.db, P, {
      user: 'u-mara',
      team: 'sre',
      project: 'edge',
      agentRepo: 'itops-agent',
      task: 'inc-1',
    });
    expect(r.scopes.map((s) => [s.scope, s.readerKey, s.value])).toEqual([
      ['user_identity', 'user', 'u-mara'],
      ['team_memory', 'team', 'sre'],
      ['project', 'project', 'edge'],
      ['agent_repo', 'agentRepo', 'itops-agent'],
      ['session', 'task', 'inc-1'],
    ]);
    expect(
      await read({ user: 'u-mara', team: 'sre', project: 'edge', agentRepo: 'itops-agent', task: 'inc-1' }),
    ).toEqual({
      user_identity: { items: ['user.noOwner', 'user.mara'], visible: 2, shared: 1, hidden: 1, hiddenOwners: 1 },
      team_memory: { items: ['team.sre.alias', 'team.sre'], visible: 2, shared: 0, hidden: 2, hiddenOwners: 2 },
      project: { items: ['project.byReviewer', 'project.edge'], visible: 2, shared: 1, hidden: 1, hiddenOwners: 1 },
      agent_repo: {
        items: ['repo.itops.agent', 'repo.itops.field'],
        visible: 2,
        shared: 0,
        hidden: 2,
        hiddenOwners: 2,
      },
      session: { items: ['session.inc1'], visible: 1, shared: 0, hidden: 4, hiddenOwners: 3 },
    });
    const mine = r.scopes[0]!.items.find((e) => e.id === id['user.mara']);
    expect(mine).toMatchObject({ scope: 'user_identity', owner: 'u-mara', status: 'active', version: 1 });
    expect(r.scopes[0]!.items.find((e) => e.id === id['user.noOwner'])?.owner).toBeNull();
    expect(new Date(mine!.updatedAt).toISOString()).toBe('2020-11-20T10:00:01.000Z');
  });

  it('shows an in-conflict entry to its owner, a reviewer’s to every reader, a deprecated one to none', async () => {
    const jonas = await read({ user: 'u-jonas', team: 'secops', project: 'clinical', agentRepo: 'secops-agent' });
    expect(jonas.project!.items).toEqual(['project.byReviewer', 'project.clinical']);
    expect(jonas.user_identity!.items).toEqual(['user.noOwner', 'user.jonas']);
    // No task given: no session entry is read, not even those that name no task (they are read by none).
    expect(jonas.session).toEqual({ items: [], visible: 0, shared: 0, hidden: 5, hiddenOwners: 4 });
    const nobody = await read({});
    expect(Object.values(nobody).map((s) => s.items)).toEqual([['user.noOwner'], [], ['project.byReviewer'], [], []]);
    for (const r of [jonas, nobody, await read({ user: 'u-mara', task: 'inc-1' })]) {
      const all = Object.values(r).flatMap((s) => s.items);
      expect(all).not.toContain('user.mara.old');
      expect(all).not.toContain('session.gone');
      // Owners that cannot be matched are hidden from every reader, never shared.
      expect(all).not.toContain('team.odd');
      expect(all).not.toContain('repo.masked');
    }
    // Live entries of a scope are always its reader's plus the hidden ones.
    expect(Object.values(nobody).map((s) => s.visible + s.hidden)).toEqual([3, 4, 3, 4, 5]);
  });

  const readers: Reader[] = [
    {},
    { user: 'u-mara', team: 'sre', project: 'edge', agentRepo: 'itops-agent', task: 'inc-1' },
    { user: 'u-jonas', team: 'secops', project: 'clinical', agentRepo: 'secops-agent', task: 'inc-2' },
    { task: 's-9', agentRepo: 'worker', team: '42' },
  ];

  it('agrees with the rule in lib/curation/read-as.ts for every reader it is asked about', async () => {
    const rows = await h.db.select().from(memoryEntries);
    for (const reader of readers) {
      const got = await readAs(h.db, P, reader);
      for (const s of got.scopes) {
        const expected = rows
          .filter((e) => e.status !== 'deprecated' && readScopeOf(e.scope) === s.scope)
          .filter((e) => sees(reader, s.scope, ownerKey(e.scope, events.get(e.sourceEventId ?? '') ?? null)))
          .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())
          .map((e) => e.id);
        expect(
          s.items.map((e) => e.id),
          `${JSON.stringify(reader)} ${s.scope}`,
        ).toEqual(expected);
      }
    }
  });

  it('gives each live entry its owner once, from which the rule reads what any reader reads', async () => {
    // What search_memory keeps with its index: every reader's entries without asking the database again.
    const owners = await entryOwners(h.db, P);
    expect(owners.get(id['user.mara']!)).toEqual({ scope: 'user_identity', owner: 'u-mara' });
    expect(owners.has(id['user.mara.old']!)).toBe(false);
    for (const reader of readers) {
      const listed = (await readAs(h.db, P, reader)).scopes.flatMap((s) => s.items.map((e) => e.id));
      const ruled = [...owners].filter(([, e]) => sees(reader, e.scope, e.owner)).map(([entry]) => entry);
      expect(ruled.sort(), JSON.stringify(reader)).toEqual(listed.sort());
    }
  });

  it('counts only entries with the words when given words; lists at most the limit, the count whole', async () => {
    const r = await read({ user: 'u-mara', project: 'edge' }, { query: 'REVIEWER' });
    expect(r.project).toEqual({ items: ['project.byReviewer'], visible: 1, shared: 1, hidden: 0, hiddenOwners: 0 });
    expect(r.user_identity).toEqual({ items: [], visible: 0, shared: 0, hidden: 0, hiddenOwners: 0 });
    // `%` and `_` are words like any other, not patterns.
    expect((await read({}, { query: '%' })).project!.visible).toBe(0);
    const capped = await readAs(h.db, P, { project: 'edge', limits: { project: 1 } });
    expect(capped.scopes.find((s) => s.scope === 'project')).toMatchObject({ limit: 1, visible: 2 });
    expect(capped.scopes.find((s) => s.scope === 'project')!.items.map((e) => e.id)).toEqual([
      id['project.byReviewer'],
    ]);
    expect(capped.scopes.find((s) => s.scope === 'user_identity')!.limit).toBe(50);
  });

  it('offers the values events carry for each key, newest first; owners nobody can match are left out', async () => {
    const { known } = await readAs(h.db, P, {});
    expect(known).toEqual({
      user: { values: ['u-jonas', 'u-mara'], total: 2 },
      team: { values: ['secops', 'sre'], total: 2 },
      project: { values: ['clinical', 'edge'], total: 2 },
      agentRepo: { values: ['worker', 'itops-agent', 'secops-agent'], total: 3 },
      task: { values: ['s-9', 'inc-2', 'inc-1'], total: 3 },
    });
  });
});
