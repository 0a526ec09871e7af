import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, DRIVERS } from '@/server/test/db';
import type { DbHandle } from '@/server/db';
import { createCallerFactory } from '@/server/trpc/init';
import { seedDemo } from '@/server/demo/seed';
import { readTree } from '@/server/fs/read-tree';
import { ingest } from '@/server/services/ingest';
import { substrateAgentKnown } from '@/server/services/substrate';
import { sql } from 'drizzle-orm';
import { convertFiles } from '@/lib/import/files';
import type { Envelope } from '@/lib/ingest/contract';
import { reportCounterAt, routeContext, simulateSteps, substrateFromParts } from '@/lib/ucs/substrate-sim';
import dynamics from '@/lib/ucs/fixtures/reference-dynamics.json';
import routing from '@/lib/ucs/fixtures/reference-routing.json';
import auditRef from '@/lib/ucs/fixtures/reference-audit.json';
import { appRouter } from './app';

const createCaller = createCallerFactory(appRouter);
const OPS = path.join(process.cwd(), 'lib/ucs/fixtures/ops-workspace');
const items = (values: unknown[]) => values.map((value) => ({ ok: true as const, value }));
const envelopes = (agent: string) =>
  convertFiles(readTree(OPS), { agent }).files.flatMap((f) => f.envelopes) as (Envelope & { source?: string })[];
type Json = Record<string, unknown>;

describe.each(DRIVERS)('substrate: consult state, bridge index and audit on %s', (driver) => {
  let h: DbHandle;
  let caller: ReturnType<typeof createCaller>;
  beforeAll(async () => {
    h = await freshDb(driver);
    await seedDemo(h.db, 'default');
    // A second real workspace (lib/ucs/fixtures/ops-workspace), a copy with two stored values changed, and an agent
    // with nothing but one state.
    const tampered = envelopes('ops-tampered').map((e) => {
      if (e.source !== 'ucs/state/torusfield_state.json') return e;
      const data = structuredClone(e.data) as { graph: { edges: { w: number }[] }; policy: { edge_bias: Json } };
      data.graph.edges[218]!.w = 3.1;
      data.policy.edge_bias['5'] = 1;
      return { ...e, data };
    });
    const bare = envelopes('bare').filter((e) => e.source === 'ucs/state/torusfield_state.json');
    for (const batch of [envelopes('ops-copilot'), tampered, bare]) {
      const r = await ingest(h.db, 'default', items(batch), 'test');
      expect(r.rejected).toBe(0);
    }
    caller = createCaller({
      db: h.db,
      driver: h.driver,
      location: h.location,
      projectId: 'default',
      actor: 'tester',
      role: 'viewer',
    });
  });
  afterAll(async () => h?.close());

  /** The state as the browser composes it from the two procedures. */
  const substrateOf = async (agent: string, t?: number) => {
    const [s, i] = await Promise.all([caller.substrate.state({ agent, t }), caller.substrate.bridgeIndex({ agent })]);
    return substrateFromParts(s, { ...i, reportCounter: reportCounterAt(i, s.t, s.latestT) });
  };

  it('state gives a stored state whole, the latest without t, and says which is the latest', async () => {
    const latest = await caller.substrate.state({ agent: 'aegis-demo' });
    expect([latest.t, latest.latestT, latest.source]).toEqual([600, 600, 'snapshots/torusfield_state.00399.json']);
    expect(Object.keys(latest.fields).sort()).toEqual(['context_energy', 'energy', 'memory', 'salience']);
    const older = await caller.substrate.state({ agent: 'aegis-demo', t: 401 });
    expect([older.t, older.latestT]).toEqual([401, 600]);
    await expect(caller.substrate.state({ agent: 'aegis-demo', t: 402 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(caller.substrate.state({ agent: 'nobody' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('knows an agent by any of its substrate: a state, or only its documents; not one with none', async () => {
    const docs = envelopes('docs-only').filter((e) => !String(e.type).startsWith('ucs_state'));
    expect(docs.length).toBeGreaterThan(0);
    const r = await ingest(h.db, 'default', items(docs), 'test');
    expect(r.rejected).toBe(0);
    expect(await caller.substrate.known({ agent: 'aegis-demo' })).toBe(true);
    expect(await caller.substrate.known({ agent: 'docs-only' })).toBe(true);
    expect(await caller.substrate.known({ agent: 'nobody' })).toBe(false);
    // Another project's agent is not this one's.
    await h.db.execute(sql`insert into projects (id, name) values ('elsewhere', 'Elsewhere') on conflict do nothing`);
    expect(await substrateAgentKnown(h.db, 'elsewhere', 'aegis-demo')).toBe(false);
  });

  it('bridgeIndex gives the dead ends in the index’s order (one listed twice, twice) and the methodology', async () => {
    const i = await caller.substrate.bridgeIndex({ agent: 'aegis-demo' });
    expect([i.from, i.reportCounter, i.lastPhiT, i.deadEnds.length, i.methodology.length]).toEqual([
      'index',
      0,
      600,
      10,
      16,
    ]);
    expect(i.deadEnds.filter((d) => d.id === 'ad32c79a6c4a')).toHaveLength(2);
    expect(i.nodes).toHaveLength(45);
    // Without an index, the rows stand in; with no dead end at all, an empty list.
    const bare = await caller.substrate.bridgeIndex({ agent: 'bare' });
    expect([bare.from, bare.deadEnds, bare.methodology, bare.lastPhiT]).toEqual(['rows', [], [], null]);
  });

  it('what they give is all the consult needs: the reference’s routing, on the demo and on ops-copilot', async () => {
    const demo = await substrateOf('aegis-demo');
    const c = routing.cases.find((x) => x.input.context === 'research the 502 errors in nginx logs')!;
    const r = routeContext(demo, c.input.context, { now: Date.parse(routing.now) });
    expect(r.suggested.map((p) => [p.to, p.printed.score, p.printed.penalty])).toEqual(
      c.printed.suggested_paths.map((p) => [p.to, p.score, p.penalty]),
    );
    const ops = await substrateOf('ops-copilot');
    const samples = (await caller.substrate.consultSamples({ agent: 'ops-copilot' })) as {
      context: string;
      consult: { suggested_paths: { to: string; score: number }[] };
    }[];
    expect(samples).toHaveLength(7);
    for (const s of samples)
      expect(
        routeContext(ops, s.context, { now: Date.parse('2026-11-25T22:25:00Z') }).suggested.map((p) => [
          p.to,
          p.printed.score,
        ]),
      ).toEqual(s.consult.suggested_paths.map((p) => [p.to, p.score]));
  });

  it('and all the simulation needs: 35 ticks from t 600 end where the reference ended', async () => {
    const want = dynamics.scenarios.find((x) => x.name === 'advisory')!.checkpoints.find((x) => x.n === 35)!;
    const got = simulateSteps(await substrateOf('aegis-demo'), 35);
    expect([got.t, got.cursor.node]).toEqual([want.t, want.cursor.node]);
    got.fields.energy!.forEach((v, k) => expect(v).toBeCloseTo(want.fields.energy[k]!, 9));
  });

  it('contexts lists the stored consult samples and the judgment nodes’ tasks', async () => {
    const c = await caller.substrate.contexts({ agent: 'aegis-demo' });
    expect(c.samples.map((s) => s.i)).toEqual([0, 50, 100, 150, 200, 250, 300, 350]);
    expect(c.tasks).toEqual([
      { context: 'research the 502 errors in nginx logs', nodes: 14 },
      { context: 'write the incident summary', nodes: 12 },
      { context: 'build a new skill for release notes', nodes: 9 },
      { context: 'monitor pipeline health metrics', nodes: 9 },
      { context: 'debug flaky ingestion job', nodes: 8 },
    ]);
    expect(await caller.substrate.contexts({ agent: 'bare' })).toEqual({ samples: [], tasks: [] });
  });

  it('audit: 0 disagreements on the demo, with the differentiation the reference computed', async () => {
    const a = await caller.substrate.audit({ agent: 'aegis-demo' });
    expect(a).toMatchObject({
      disagreementCount: 0,
      states: 21,
      lines: 400,
      replayed: 399,
      phiCycles: 80,
      base: { t: 201, label: 'snapshots/torusfield_state.00000.json' },
      lastPhiT: { t: 600, from: 'index' },
    });
    const want = auditRef.differentiation.storedSamples;
    expect(a.differentiation!.variance).toBeCloseTo(want.variance, 12);
    expect([a.differentiation!.uniqueTop1, a.differentiation!.verdict]).toEqual([want.uniqueTop1, 'works']);
    // The four contexts consulted now at t 600: the reference's figures (the demo's dead ends are of one date).
    const now = auditRef.differentiation.demoContexts;
    expect(a.current).toMatchObject({ t: 600, contexts: 4, uniqueTop1: now.uniqueTop1, verdict: 'partial' });
    expect(a.current!.variance).toBeCloseTo(now.variance, 12);
  });

  it('audit: none on the second workspace, each changed value on its tampered copy', async () => {
    expect(await caller.substrate.audit({ agent: 'ops-copilot' })).toMatchObject({
      disagreementCount: 0,
      states: 7,
      lines: 60,
      jumps: 5,
      phiCycles: 12,
    });
    const t = await caller.substrate.audit({ agent: 'ops-tampered' });
    expect(t.disagreements.map((d) => [d.kind, d.subject, d.stored])).toEqual([
      ['weight_clamp', '#218 foundry_get_insights → foundry_learnings', 3.1],
      ['edge_weight', '#218 foundry_get_insights → foundry_learnings', 3.1],
      ['policy_bias', '#5', 1],
    ]);
    expect(t.byKind).toEqual({ weight_clamp: 1, edge_weight: 1, policy_bias: 1 });
  });

  it('audit: a lone state has nothing to replay; the phase of the φ-cycles is said to be assumed', async () => {
    expect(await caller.substrate.audit({ agent: 'bare' })).toMatchObject({
      disagreementCount: 0,
      states: 1,
      lines: 0,
      replayed: 0,
      differentiation: null,
      current: null,
      lastPhiT: { t: 260, from: 'assumed' },
    });
    await expect(caller.substrate.audit({ agent: 'nobody' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('audit is computed again when what it reads changes, not before', async () => {
    const first = await caller.substrate.audit({ agent: 'ops-copilot' });
    expect(await caller.substrate.audit({ agent: 'ops-copilot' })).toBe(first);
    const line = { t: 261, action: 'read', outcome: 'read -> success', success: 'success', routed: true };
    const r = await ingest(h.db, 'default', items([{ type: 'ucs_action', agent: 'ops-copilot', data: line }]), 'test');
    expect(r.accepted).toBe(1);
    const again = await caller.substrate.audit({ agent: 'ops-copilot' });
    expect(again).not.toBe(first);
    expect([again.lines, again.replayed, again.disagreementCount]).toEqual([61, 61, 0]);
  });
});
