import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, DRIVERS } from '@/server/test/db';
import { rowsOf, type DbHandle } from '@/server/db';
import { createCallerFactory } from '@/server/trpc/init';
import { seedDemo } from '@/server/demo/seed';
import type { RecallItem } from '@/lib/recall/items';
import { verifyKey } from '@/server/services/api-keys';
import { sql } from 'drizzle-orm';
import { ucsDeadEnds } from '@/server/db/schema/substrate';
import type { SessionDigest } from '@/lib/ccs/digest';
import { appRouter } from './app';

const createCaller = createCallerFactory(appRouter);

describe.each(DRIVERS)('routers on %s with the demo loaded', (driver) => {
  let h: DbHandle;
  let caller: ReturnType<typeof createCaller>;
  beforeAll(async () => {
    h = await freshDb(driver);
    await seedDemo(h.db, 'default');
    caller = createCaller({
      db: h.db,
      driver: h.driver,
      location: h.location,
      projectId: 'default',
      actor: 'tester',
      role: 'admin',
    });
  });
  afterAll(async () => h?.close());

  it('session.list gives every demo session with its turns, span and footprint', async () => {
    const list = await caller.sessions.list();
    expect(list.map((s) => s.id).sort()).toEqual([
      'ehr-agent-day-1',
      'ehr-agent-day-2',
      'health-fhir-labs',
      'itops-nginx-502',
      'secops-oauth-consent',
    ]);
    expect(list.filter((s) => s.id.startsWith('ehr-')).map((s) => s.turnCount)).toEqual([48, 48]);
    for (const s of list.filter((x) => !x.id.startsWith('ehr-'))) {
      expect(s.turnCount).toBe(50);
      expect(s.footprint.ccs).toHaveLength(50);
      expect(Date.parse(s.lastAt!)).toBeGreaterThan(Date.parse(s.firstAt!));
      expect(s.meanHallucination).toBeGreaterThan(0);
    }
  });

  it('session.turns gives the TOON and JSON sessions the same parsed shape', async () => {
    const itops = await caller.sessions.turns({ id: 'itops-nginx-502' });
    const sec = await caller.sessions.turns({ id: 'secops-oauth-consent' });
    expect(itops[0]?.ccs.constraints).toEqual([
      'no_restart(nginx)',
      'reload_allowed(nginx)',
      'safe_change(minimal)',
      'avoid(speculation)',
    ]);
    expect(sec[0]?.ccs.constraints).toContain('preserve(evidence)');
    expect(Object.keys(itops[10]!.ccs).sort()).toEqual(Object.keys(sec[10]!.ccs).sort());
  });

  it('the demo redacted the credential pasted in the IT-ops session', async () => {
    const turns = await caller.sessions.turns({ id: 'itops-nginx-502' });
    const pasted = turns.find((t) => t.input.includes('DB_PASSWORD'))!;
    expect(pasted.input).toContain('DB_PASSWORD=[REDACTED:password]');
    expect(pasted.redactions).toEqual([{ path: 'input', type: 'password', count: 1 }]);
  });

  it('webhooks.create names the url and the reason when it is too long', async () => {
    const url = `https://hooks.example.com/${'a'.repeat(2000)}`;
    await expect(caller.webhooks.create({ url, events: ['proposal.decided'] })).rejects.toThrow(
      /url is longer than 2,000 characters/,
    );
  });

  it('session.byId says NOT_FOUND for an unknown session', async () => {
    await expect(caller.sessions.byId({ id: 'nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'session "nope" not found',
    });
    await expect(caller.sessions.byId({ id: 'nope' })).rejects.toBeInstanceOf(TRPCError);
  });

  it('apiKey: a created key works until it is revoked, and only its hash is kept', async () => {
    const { key, apiKey } = await caller.apiKeys.create({ name: 'ci agent' });
    expect(key).toMatch(/^msk_/);
    expect(await verifyKey(h.db, key)).toEqual({ projectId: 'default', keyId: apiKey.id, role: 'agent' });
    const admin = await caller.apiKeys.create({ name: 'backup job', role: 'admin' });
    expect(await verifyKey(h.db, admin.key)).toMatchObject({ role: 'admin' });
    await expect(caller.apiKeys.create({ name: 'x', role: 'owner' as 'admin' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    const listed = await caller.apiKeys.list();
    expect(listed.find((k) => k.id === admin.apiKey.id)?.role).toBe('admin');
    expect(JSON.stringify(listed)).not.toContain(key);
    // The logs' actor for a key (`api_key:<id>`), named as Settings shows it, without the secret.
    const names = await caller.apiKeys.names();
    expect(names[`api_key:${apiKey.id}`]).toEqual({ name: 'ci agent', prefix: key.slice(0, 8) });
    expect(JSON.stringify(names)).not.toContain(key);
    await caller.apiKeys.revoke({ id: apiKey.id });
    expect(await verifyKey(h.db, key)).toBeNull();
    await expect(caller.apiKeys.create({ name: '  ' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('sessions.page and curation.entries name the search they answer, so a list never labels stale rows', async () => {
    const page = await caller.sessions.page({ search: 'nginx' });
    expect([page.search, page.items.map((s) => s.id)]).toEqual(['nginx', ['itops-nginx-502']]);
    const entries = await caller.curation.entries({ query: 'no-such-words-anywhere' });
    expect([entries.query, entries.items, entries.matching]).toEqual(['no-such-words-anywhere', [], 0]);
  });

  it('curation.events and substrate.agents show what the demo holds', async () => {
    const events = await caller.curation.events({});
    expect([events.items.length, events.matching, events.total, events.next]).toEqual([16, 16, 16, null]);
    expect(events.items.find((e) => e.eventId === 'evt-legacy-0001')?.content).not.toContain('Gr4f4na');
    expect(events.redacted).toBeGreaterThan(0);
    const agents = await caller.substrate.agents();
    // The navigation counts the agents the Substrate page lists, not their snapshots.
    expect((await caller.system.info()).counts.substrateAgents).toBe(agents.length);
    expect((await caller.system.storage()).snapshots).toBe(21);
    const [agent] = agents;
    expect(agent).toMatchObject({
      agentId: 'aegis-demo',
      snapshots: 21,
      thetaBins: 24,
      phiBins: 32,
      deadEnds: 9,
      methodology: 16,
      judgments: 52,
      actions: 400,
      artifacts: 9,
      annotated: 1,
    });
    // An agent of which only an action log is stored is listed too, with no snapshots (it was left out, and its
    // field page said "No such agent" while its Judgment tab showed its actions), and counted in the navigation.
    const action = { t: 1, action: 'read', outcome: 'read -> success', success: 'success', reward: 0.8, routed: false };
    const r = await caller.ingest.batch({ records: [{ type: 'ucs_action', agent: 'log-only', data: action }] });
    expect(r.results.map((x) => x.status)).toEqual(['accepted']);
    const after = await caller.substrate.agents();
    expect(after.map((a) => a.agentId)).toEqual(['aegis-demo', 'log-only']);
    expect(after[1]).toMatchObject({ snapshots: 0, firstT: null, thetaBins: null, actions: 1, deadEnds: 0 });
    expect((await caller.system.info()).counts.substrateAgents).toBe(2);
    expect(await caller.substrate.known({ agent: 'log-only' })).toBe(true);
  });

  it('ucs.snapshots and ucs.fieldSeries give the field over time, in step order', async () => {
    const meta = await caller.substrate.snapshots({ agent: 'aegis-demo' });
    expect(meta.snapshots.map((s) => s.t)).toEqual(
      Array.from({ length: 21 }, (_, k) => (k === 20 ? 600 : 201 + 20 * k)),
    );
    expect(meta.snapshots[0]?.fields).toEqual(['context_energy', 'energy', 'memory', 'salience']);
    expect(meta.nodes).toHaveLength(45);
    const series = await caller.substrate.fieldSeries({ agent: 'aegis-demo', field: 'energy' });
    expect(series).toHaveLength(21);
    expect(series.every((s) => s.values?.length === 768)).toBe(true);
    expect((await caller.substrate.fieldSeries({ agent: 'aegis-demo', field: 'nope' }))[0]?.values).toBeNull();
    await expect(caller.substrate.snapshots({ agent: 'nobody' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('ucs: artifacts with annotations, dead ends, judgment, routing state and consult samples', async () => {
    const arts = await caller.substrate.fieldArtifacts({ agent: 'aegis-demo' });
    expect(arts).toHaveLength(9);
    expect(arts[0]!.score).toBeGreaterThanOrEqual(arts[8]!.score!);
    expect(arts.find((a) => a.id === 'c6b826111c1d656d')?.annotation).toMatchObject({
      generalized_pattern: 'read before write',
    });
    expect(arts.filter((a) => !a.annotation)).toHaveLength(8);
    expect(await caller.substrate.deadEnds({ agent: 'aegis-demo' })).toHaveLength(9);
    const j = await caller.substrate.judgment({ agent: 'aegis-demo' });
    expect([j.actions.length, j.methodology.length, j.judgments.length]).toEqual([400, 16, 52]);
    expect(j.pp.length).toBeGreaterThanOrEqual(5);
    const r = await caller.substrate.state({ agent: 'aegis-demo', t: 600 });
    expect(r.fields.context_energy).toHaveLength(768);
    expect((r.cursor as { node: string }).node).toBe('sessions_spawn');
    await expect(caller.substrate.state({ agent: 'aegis-demo', t: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await caller.substrate.consultSamples({ agent: 'aegis-demo' })).toHaveLength(8);
  });

  it('keeps a dead end the bridge wrote twice once, counting it twice', async () => {
    const rows = await h.db
      .select()
      .from(ucsDeadEnds)
      .where(sql`id = 'ad32c79a6c4a'`);
    expect(rows.map((r) => r.occurrences)).toEqual([2]);
  });

  it(
    'recall.corpus pages through every kind of memory text once, ' + 'each item with a link to where it lives',
    async () => {
      const items: RecallItem[] = [];
      let cursor: Parameters<typeof caller.recall.corpus>[0]['cursor'] = null;
      let pages = 0;
      do {
        const page = await caller.recall.corpus({ cursor, limit: 200 });
        items.push(...page.items);
        cursor = page.next;
        pages++;
      } while (cursor && pages < 500);
      expect(cursor).toBeNull();
      expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
      const kinds = new Set(items.map((i) => i.kind));
      for (const k of [
        'session',
        'turn',
        'ccs_term',
        'memory_event',
        'artifact',
        'dead_end',
        'methodology',
        'reflection',
        'judgment',
      ])
        expect(kinds).toContain(k);
      // The cursor names its kind: an unknown one is refused in words (an old numeric one is refused by its type).
      await expect(caller.recall.corpus({ cursor: { kind: 'nope', after: null } })).rejects.toThrow(
        'cursor.kind: no kind "nope"',
      );
      expect(
        (await caller.recall.corpus({ cursor: { kind: 'judgment', after: null }, limit: 100 })).items[0]?.kind,
      ).toBe('judgment');
      // A session is found by its title, and its id is searchable; it opens at its start.
      expect(items.find((i) => i.id === 'session:itops-nginx-502')).toMatchObject({
        kind: 'session',
        text: 'Intermittent 502s in Nginx after enabling HTTP/2',
        label: 'itops-nginx-502',
        agent: 'acc-itops',
        session: 'itops-nginx-502',
        href: '/sessions/itops-nginx-502',
        ts: '2026-11-18T09:06:57.455Z', // its first turn's
      });
      // A CCS term opens the turn where it first appeared; a turn its own.
      const turn = items.find((i) => i.id === 'turn:itops-nginx-502/7')!;
      expect(turn.href).toBe('/sessions/itops-nginx-502?turn=7');
      const terms = items.filter((i) => i.kind === 'ccs_term' && i.session === 'itops-nginx-502');
      expect(terms.length).toBeGreaterThan(20);
      expect(new Set(terms.map((t) => `${t.label}|${t.text}`)).size).toBe(terms.length);
      expect(items.find((i) => i.kind === 'dead_end')!.href).toMatch(/^\/substrate\/aegis-demo\/dead-ends\?focus=/);
      // An artifact opens its session at the turn that recalled it (resolved on open), and its id is searchable.
      const artifact = items.find((i) => i.kind === 'artifact' && i.session)!;
      const id = artifact.id.slice('artifact:'.length);
      expect(artifact.href).toBe(
        `/sessions/${encodeURIComponent(artifact.session!)}?artifact=${encodeURIComponent(id)}`,
      );
      expect(artifact.label).toContain(id);
      // The version moves when memory is added.
      const before = await caller.recall.version();
      expect(await caller.recall.version()).toBe(before);
      await h.db
        .insert(ucsDeadEnds)
        .values({ projectId: 'default', agentId: 'aegis-demo', id: 'recall-test', topic: 'a new dead end', data: {} });
      expect(await caller.recall.version()).not.toBe(before);
      await h.db.delete(ucsDeadEnds).where(sql`id = 'recall-test'`);
      // And when a session that turns created is named by its record (no count moves but the declared ones).
      const named = await caller.recall.version();
      await h.db.execute(sql`update sessions set declared = not declared where id = 'itops-nginx-502'`);
      expect(await caller.recall.version()).not.toBe(named);
      await h.db.execute(sql`update sessions set declared = not declared where id = 'itops-nginx-502'`);
    },
  );

  it('sessions.events lists the events emitted at the turns of a window, in turn order, with outcomes', async () => {
    const event = (id: string, content: string, at: { session_id?: string; turn?: number }) => ({
      type: 'memory_event',
      data: {
        event_id: id,
        source_agent: 'emitter',
        kind: 'fact',
        content,
        suggested_scope: 'session',
        confidence: 'high',
        timestamp: '2026-11-20T10:00:00Z',
        ...at,
      },
    });
    await caller.ingest.batch({
      records: [
        ...[1, 2, 3].map((t) => ({
          type: 'turn',
          data: { session_id: 'emits', agent: 'emitter', turn: t * 10, input: 'i', output: 'o', ccs: {} },
        })),
        event('ev-30', 'The third turn found the cause.', { session_id: 'emits', turn: 30 }),
        event('ev-20a', 'The cache is warmed at startup.', { session_id: 'emits', turn: 20 }),
        event('ev-20b', 'The deploy runs at noon on Fridays.', { session_id: 'emits', turn: 20 }),
        event('ev-none', 'Said at no turn.', {}),
        event('ev-other', 'Another session.', { session_id: 'elsewhere', turn: 20 }),
      ],
    });
    // The window of the second turn alone (by position, as the replay asks): its two events.
    const second = await caller.sessions.events({ id: 'emits', offset: 1, limit: 1 });
    expect(second.items.map((e) => [e.turn, e.eventId])).toEqual([
      [20, 'ev-20a'],
      [20, 'ev-20b'],
    ]);
    expect(second.listedBefore).toBeNull();
    expect(second.items[0]!.outcome).toMatchObject({ disposition: expect.any(String) });
    const all = await caller.sessions.events({ id: 'emits', offset: 0, limit: 100 });
    expect(all.items.map((e) => e.eventId)).toEqual(['ev-20a', 'ev-20b', 'ev-30']);
    expect((await caller.sessions.events({ id: 'emits', offset: 3, limit: 100 })).items).toEqual([]);
    expect((await caller.sessions.events({ id: 'no-such-session', offset: 0, limit: 100 })).items).toEqual([]);
  });

  it('an import batch with a NUL in one record refuses that record by its field and stores the rest', async () => {
    const turn = (t: number, output: string) => ({
      type: 'turn',
      data: { session_id: 'nul-import', agent: 'a', turn: t, input: 'i', output, ccs: {} },
    });
    const r = await caller.ingest.batch({ records: [turn(1, 'fine'), turn(2, 'a\u0000b')] });
    expect(r.results.map((x) => x.status)).toEqual(['accepted', 'rejected']);
    expect(r.results[1]).toMatchObject({ errors: [{ path: 'data.output' }] });
  });

  it('sessions.digest gives a session in a fixed size, with stress turns from turns or session metadata', async () => {
    const digest = async (id: string) =>
      JSON.parse(await caller.sessions.digest({ id })) as SessionDigest & { stamp: string };
    const o = await digest('itops-nginx-502');
    expect(o.runs).toEqual([[1, 50]]);
    expect(o.stress.map(([, kind]) => kind)).toEqual(['conflict', 'injection', 'poison']);
    expect(o.constraints.slice(0, 4).map((c) => c.term)).toEqual([
      'no_restart(nginx)',
      'reload_allowed(nginx)',
      'safe_change(minimal)',
      'avoid(speculation)',
    ]);
    expect(
      Object.keys(o.series)
        .filter((k) => k.startsWith('judge.'))
        .sort(),
    ).toEqual(['judge.answer_quality', 'judge.coherence', 'judge.instruction_following', 'judge.relevance']);
    expect(o.stamp).toBe(await caller.sessions.stamp({ id: 'itops-nginx-502' }));
    // Where the first turn's constraints came from: turn 1, for every turn of the window they stay in.
    const blame = await caller.sessions.blame({ id: 'itops-nginx-502', offset: 0, limit: 100 });
    expect(blame.turns[0]).toBe(1);
    expect(blame.terms['constraints\u0000no_restart(nginx)']!.introduced[0]).toBe(1);

    await caller.ingest.batch({
      records: [
        { type: 'session', data: { id: 'meta-stress', agent: 'a', metadata: { stress_turns: { '2': 'poison' } } } },
        ...[1, 2, 3].map((t) => ({
          type: 'turn',
          data: { session_id: 'meta-stress', agent: 'a', turn: t, input: 'i', output: 'o', ccs: 'constraints: a(b)' },
        })),
      ],
    });
    expect((await digest('meta-stress')).stress).toEqual([[1, 'poison']]);
    // A new turn moves the stamp on, and the digest with it.
    const before = await caller.sessions.stamp({ id: 'meta-stress' });
    await caller.ingest.batch({
      records: [
        {
          type: 'turn',
          data: { session_id: 'meta-stress', agent: 'a', turn: 4, input: 'i', output: 'o', ccs: 'constraints: a(b)' },
        },
      ],
    });
    expect(await caller.sessions.stamp({ id: 'meta-stress' })).not.toBe(before);
    expect((await digest('meta-stress')).runs).toEqual([[1, 4]]);
    await expect(caller.sessions.digest({ id: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('session.window gives full turns by position', async () => {
    const w = await caller.sessions.window({ id: 'itops-nginx-502', offset: 45, limit: 100 });
    expect(w.map((t) => t.turn)).toEqual([46, 47, 48, 49, 50]);
    expect(w[0]?.input.length).toBeGreaterThan(0);
  });

  it('sessions.artifactTurn opens an artifact at the first turn that recalled or let it in', async () => {
    const turn = (n: number, recalled: unknown[], qualified: unknown[] = []) => ({
      type: 'turn',
      data: {
        session_id: 'art-links',
        agent: 'a',
        turn: n,
        input: 'i',
        output: 'o',
        ccs: 'g: x(y)',
        recalled,
        qualified,
      },
    });
    const artifact = (id: string, createdTurn: number) => ({
      type: 'artifact',
      data: { id, session_id: 'art-links', content: `text of ${id}`, created_turn: createdTurn },
    });
    await caller.ingest.batch({
      records: [
        turn(1, []),
        turn(2, [{ id: 'doc-x', score: 0.9 }]),
        turn(3, [{ id: 'doc-x', score: 0.8 }], ['doc-y']),
        artifact('doc-x', 0),
        artifact('doc-y', 0),
        artifact('doc-z', 1),
        artifact('doc-q', 9),
      ],
    });
    const at = (artifact: string) => caller.sessions.artifactTurn({ id: 'art-links', artifact });
    expect(await Promise.all(['doc-x', 'doc-y', 'doc-z', 'doc-q', 'nope'].map(at))).toEqual([2, 3, 1, null, null]);
  });

  it('ingest.batch goes through the same service as the HTTP API', async () => {
    const sessions = (await caller.system.info()).counts.sessions;
    const r = await caller.ingest.batch({
      records: [
        {
          type: 'turn',
          data: { session_id: 'ui', agent: 'a', turn: 0, input: 'x', output: 'y', ccs: 'constraints: a(b)' },
        },
        { type: 'nope', data: {} },
      ],
    });
    expect(r.results.map((x) => x.status)).toEqual(['accepted', 'rejected']);
    expect((await caller.system.info()).counts.sessions).toBe(sessions + 1);
  });

  it("counts the stored turns from the sessions' figures (Settings' storage), a repeat not counted", async () => {
    const stored = async () =>
      rowsOf<{ n: number }>(
        await h.db.execute(sql`select count(*)::int as n from turns where project_id = 'default'`),
      )[0]!.n;
    const turn = { session_id: 'count-me', agent: 'a', input: 'x', output: 'y', ccs: 'constraints: a(b)' };
    const before = (await caller.system.storage()).turns;
    expect(before).toBe(await stored());
    await caller.ingest.batch({ records: [0, 1, 2].map((n) => ({ type: 'turn', data: { ...turn, turn: n } })) });
    // The same turn again (a retry) and one new one.
    await caller.ingest.batch({ records: [2, 3].map((n) => ({ type: 'turn', data: { ...turn, turn: n } })) });
    expect((await caller.system.storage()).turns).toBe(before + 4);
    expect(await stored()).toBe(before + 4);
  });
});

describe.each(DRIVERS)('sessions list on %s with sparse turns', (driver) => {
  let h: DbHandle;
  let caller: ReturnType<typeof createCaller>;
  beforeAll(async () => {
    h = await freshDb(driver);
    caller = createCaller({
      db: h.db,
      driver: h.driver,
      location: h.location,
      projectId: 'default',
      actor: 'tester',
      role: 'admin',
    });
  });
  afterAll(async () => h?.close());

  it('session.list gives null, not NaN, for turns without footprint, judge or drift', async () => {
    const { ingest } = await import('@/server/services/ingest');
    const sparse = (turn: number, footprint?: Record<string, number>) => ({
      ok: true as const,
      value: {
        type: 'turn',
        data: { session_id: 'sparse', agent: 'a', turn, input: 'i', output: 'o', ccs: 'constraints: a(b)', footprint },
      },
    });
    await ingest(h.db, 'default', [sparse(1), sparse(2, { ccs: 12, transcript: 40 }), sparse(3)], 'tester');
    const s = (await caller.sessions.list()).find((x) => x.id === 'sparse')!;
    expect(s.footprint).toEqual({ ccs: [null, 12, null], transcript: [null, 40, null] });
    expect(s.meanHallucination).toBeNull();
    expect(s.meanDrift).toBeNull();
  });

  it('shows where the data lives to admins only, with the password masked', async () => {
    expect((await caller.system.info()).location).toBe(h.location);
    const viewer = createCaller({
      db: h.db,
      driver: h.driver,
      location: 'postgres://app:***@db.internal:5432/mnemoscope',
      projectId: 'default',
      actor: 'viewer',
      role: 'viewer',
    });
    expect((await viewer.system.info()).location).toBeNull();
  });
});
