import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@/server/db';
import { auditLog } from '@/server/db/schema/projects';
import { artifacts } from '@/server/db/schema/sessions';
import { memoryEntries } from '@/server/db/schema/curation';
import { ingest } from '@/server/services/ingest';
import { appRouter } from '@/server/routers/app';
import { labInput } from '@/lib/hygiene/contract';
import { pearson } from '@/lib/hygiene/experience';
import { createCallerFactory, type Context } from '@/server/trpc/init';
import { DRIVERS, freshDb } from '@/server/test/db';
import { HYGIENE_AGENT } from '@/server/demo/hygiene';
import { seedDemo } from '@/server/demo/seed';

const createCaller = createCallerFactory(appRouter);

describe.each(DRIVERS)('hygiene lab on %s, on the demo', (driver) => {
  let h: DbHandle;
  const as = (role: 'viewer' | 'reviewer') =>
    createCaller({
      db: h.db,
      driver: h.driver,
      location: h.location,
      projectId: 'default',
      actor: `t-${role}`,
      role,
    } as Context);
  const params = labInput.parse({ agent: HYGIENE_AGENT, deletion: { period: 24, capacity: 32 } });
  beforeAll(async () => {
    h = await freshDb(driver);
    await seedDemo(h.db, 'default');
  }, 240_000);
  afterAll(() => h?.close());

  it('lists the demo agent first: it reports utility and addition decisions', async () => {
    const agents = await as('viewer').hygiene.agents();
    expect(agents[0]).toMatchObject({ agent: HYGIENE_AGENT, turns: 96, sessions: 2, reporting: 96 });
  });

  it('finds the misaligned memory item, the error-propagation chain, and what each policy removes', async () => {
    const lab = await as('viewer').hygiene.lab(params);
    expect(lab.timeline).toMatchObject({ turns: 96, sessions: ['ehr-agent-day-1', 'ehr-agent-day-2'] });
    expect(lab.utilitySources.utility).toBe(96);
    expect(lab.items.filter((r) => r.misaligned).map((r) => r.id)).toEqual(['rec_hr_monitor']);
    // Its memory is its own: the project's durable entries written from other agents' events, which it never
    // recalled, are not among its items.
    expect(lab.items.filter((r) => r.source === 'entry')).toEqual([]);
    const hr = lab.items.find((r) => r.id === 'rec_hr_monitor')!;
    expect(hr.meanInputSim!).toBeGreaterThan(0.9);
    expect(hr.meanOutputSim!).toBeLessThan(0.6);
    // The seed's wrong length-of-stay query, copied, stored and recalled again turn after turn.
    const chain = lab.chains[0]!.map((l) => `${l.item}@${l.turn.session}#${l.turn.turn}`);
    expect(chain.slice(0, 4)).toEqual([
      'rec_los_seed@ehr-agent-day-1#6',
      'rec_day-1_06@ehr-agent-day-1#14',
      'rec_day-1_14@ehr-agent-day-1#23',
      'rec_day-1_23@ehr-agent-day-1#35',
    ]);
    // Deletion: history-based removes the misaligned item only; combined is the union with periodic.
    expect(lab.deletion.now.history.map((v) => v.id)).toEqual(['rec_hr_monitor']);
    const periodic = new Set(lab.deletion.now.periodic.map((v) => v.id));
    expect(periodic.has('rec_beds')).toBe(true); // never recalled
    expect(periodic.has('rec_hr_monitor')).toBe(false); // recalled in the last period
    expect(new Set(lab.deletion.now.combined.map((v) => v.id))).toEqual(new Set([...periodic, 'rec_hr_monitor']));
    const last = lab.deletion.sizes.at(-1)!;
    expect(last.none).toBe(lab.deletion.activeItems);
    expect(last.combined).toBeLessThanOrEqual(Math.min(last.periodic, last.history));
    expect(last.capacity).toBeLessThanOrEqual(32);
    // The printed product removes only what both rules remove: here nothing (the misaligned item is recalled lately).
    expect(lab.deletion.now.product).toEqual([]);
    expect(last.product).toBeGreaterThanOrEqual(last.combined);
    // Experience following: r over every recall is the scatter's; the cumulative curves end at the turns' means.
    const pts = lab.items.flatMap((r) => r.retrievals.filter((x) => x.inputSim !== null && x.outputSim !== null));
    expect(lab.experience.recalls).toBe(pts.length);
    expect(lab.experience.rRecalls).toBeCloseTo(
      pearson(
        pts.map((x) => x.inputSim!),
        pts.map((x) => x.outputSim!),
      )!,
      12,
    );
    expect(lab.experience.cumulative.at(-1)!.n).toBe(lab.experience.turns);
    // Consolidation: three policies keep B, sleep-replay merges into the paper's k = 8; σ estimated (the demo sends
    // no log-probabilities).
    const c = lab.consolidation;
    expect(c.sigma).toBe('novelty');
    expect(c.results.map((r) => [r.policy, r.pool])).toEqual([
      ['recency', 16],
      ['frequency', 16],
      ['surprise', 16],
      ['sleep', 8],
    ]);
    expect(c.results.find((r) => r.policy === 'frequency')!.kept[0]).toBe('rec_hr_monitor');
    // Fact recall on the labelled probes (recalls into turns that went well): every policy is measured on the same
    // probes; a merge holds every statement (token compression 1×) but can still lose findability.
    const probes = c.results[0]!.recall.probes;
    expect(probes).toBeGreaterThan(20);
    const missedBefore = probes - c.baseline.recall.recalled;
    for (const r of c.results) {
      expect(r.recall.probes).toBe(probes);
      expect(r.recall.share).toBeCloseTo(r.recall.recalled / probes, 12);
      // Lost: the policy's misses that the memory before consolidation answered (a probe it missed too was never
      // findable: the column listed those as lost by every policy, even one that removed nothing).
      const missed = probes - r.recall.recalled;
      expect(r.recall.lostProbes).toBeLessThanOrEqual(missed);
      expect(r.recall.lostProbes).toBeGreaterThanOrEqual(missed - missedBefore);
      // (the list is cut at 12 atoms; how many in all is said)
      expect(r.recall.lost.length).toBe(Math.min(12, r.recall.lostAtoms));
    }
    expect(c.baseline.recall.lostProbes).toBe(missedBefore);
    // A budget that holds every atom removes none: nothing is lost.
    const all = (await as('viewer').hygiene.lab({ ...params, budget: c.atoms })).consolidation;
    expect(all.results.filter((r) => r.policy !== 'sleep').map((r) => [r.pool, r.recall.lostProbes])).toEqual([
      [c.atoms, 0],
      [c.atoms, 0],
      [c.atoms, 0],
    ]);
    const sleep = c.results.find((r) => r.policy === 'sleep')!;
    // Only exact repeats of a statement are folded (the demo's copied wrong answer).
    expect(sleep.tokenCompression!).toBeGreaterThanOrEqual(1);
    expect(sleep.tokenCompression!).toBeLessThan(1.5);
    expect(sleep.replayTokens).toBeGreaterThan(c.tokens);
    expect(c.results.find((r) => r.policy === 'recency')!.replayTokens).toBe(0);
    console.log(
      'consolidation on the demo:',
      JSON.stringify(c.results.map((r) => [r.policy, r.pool, r.recall.share, r.replayTokens])),
    );
    // Addition: day 1 adds everything, day 2 only what the strict evaluator accepts.
    expect(lab.addition.total).toMatchObject({
      executions: 96,
      evaluators: ['none (add-all)', 'strict (answer matched)'],
    });
    const [day1, day2] = [lab.addition.windows.slice(0, 4), lab.addition.windows.slice(4)];
    expect(day1.every((w) => w.skipped === 0)).toBe(true);
    expect(day1.reduce((n, w) => n + w.errorsAdded, 0)).toBeGreaterThan(5);
    expect(day2.reduce((n, w) => n + w.errorsAdded, 0)).toBe(0);
  });

  it('raises a deprecation proposal through the curator; approving deprecates the item, deletes nothing', async () => {
    await expect(
      as('viewer').hygiene.propose({ ...params, item: 'rec_hr_monitor', policy: 'history' }),
    ).rejects.toThrow(/reviewer/);
    const today = async () => {
      const d = (await as('viewer').curation.health()).at(-1)!;
      return [d.raised, d.curated, d.proposed, d.approved, d.reviewed];
    };
    const [, curated, proposed, approved, reviewed] = await today();
    const { proposalId } = await as('reviewer').hygiene.propose({
      ...params,
      item: 'rec_hr_monitor',
      policy: 'history',
    });
    await expect(
      as('reviewer').hygiene.propose({ ...params, item: 'rec_hr_monitor', policy: 'misaligned' }),
    ).rejects.toThrow(/already waiting for review/);
    // The lab shows the item as in review, with its proposal, until it is decided.
    expect(await as('viewer').hygiene.pending()).toEqual({ rec_hr_monitor: proposalId });
    // Health counts it as raised in the lab (it has no curator's outcome, and was not counted at all), apart from
    // what the curator decided.
    expect(await today()).toEqual([1, curated, proposed, approved, reviewed]);
    const detail = await as('viewer').curation.proposal({ id: proposalId });
    expect(detail.proposal).toMatchObject({
      operation: 'deprecate',
      status: 'pending',
      targetArtifactId: 'rec_hr_monitor',
    });
    expect(detail.targetArtifact).toMatchObject({ id: 'rec_hr_monitor', status: 'active' });
    expect(String(detail.proposal.rationale.reviewBecause)).toMatch(/history-based deletion \(n = 5, β = 0.5\)/);
    const steps = detail.proposal.rationale.steps as { step: string; outcome: string; detail?: string }[];
    expect(steps[0]).toMatchObject({ step: 'policy', detail: 'mean utility 0.32 over 22 retrievals (≤ β = 0.5)' });

    await as('reviewer').curation.decide({ id: proposalId, decision: { action: 'approve' } });
    expect(await as('viewer').hygiene.pending()).toEqual({});
    // Its approval is no label of the curator's routing (M1, M2): not among the reviewed.
    expect(await today()).toEqual([1, curated, proposed, approved! + 1, reviewed]);
    const [row] = await h.db
      .select()
      .from(artifacts)
      .where(and(eq(artifacts.projectId, 'default'), eq(artifacts.id, 'rec_hr_monitor')));
    expect(row).toMatchObject({ status: 'deprecated', statusChangedBy: 't-reviewer' });
    const audit = await h.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.projectId, 'default'), eq(auditLog.subjectId, 'rec_hr_monitor')));
    expect(audit.map((a) => a.action)).toEqual(['artifact.deprecate']);
    // The lab now counts it out of today's memory but keeps its history.
    const after = await as('viewer').hygiene.lab(params);
    expect(after.items.find((r) => r.id === 'rec_hr_monitor')).toMatchObject({ status: 'deprecated', recalled: 22 });
    expect(after.deletion.now.history).toEqual([]);
    expect(after.consolidation.results.every((r) => !r.kept.includes('rec_hr_monitor'))).toBe(true);
    await expect(
      as('reviewer').hygiene.propose({ ...params, item: 'rec_hr_monitor', policy: 'manual' }),
    ).rejects.toThrow(/already deprecated/);
  });

  it("counts among an agent's items the durable entries from its own events and those its turns recalled", async () => {
    // Session-scoped facts are written without a review: one from this agent, one from another agent.
    const event = (id: string, agent: string, content: string) => ({
      type: 'memory_event',
      data: {
        event_id: id,
        timestamp: '2026-11-21T08:00:00Z',
        source_agent: agent,
        task_id: 't',
        memory_kind: 'fact',
        content,
        suggested_scope: 'session',
        sensitivity: 'internal',
        confidence: 'high',
        evidence_refs: ['docs/x.md'],
        ttl: 'session',
      },
    });
    await ingest(
      h.db,
      'default',
      [
        event('memevt_hyg_own_0001', HYGIENE_AGENT, 'The labevents table keys results by itemid and charttime.'),
        event('memevt_hyg_oth_0001', 'other-agent', 'The billing export runs at 02:00 UTC every night.'),
      ].map((value) => ({ ok: true as const, value })),
      'test',
    );
    const written = await h.db
      .select({ id: memoryEntries.id, event: memoryEntries.sourceEventId })
      .from(memoryEntries)
      .where(inArray(memoryEntries.sourceEventId, ['memevt_hyg_own_0001', 'memevt_hyg_oth_0001']));
    const own = written.find((e) => e.event === 'memevt_hyg_own_0001')!.id;
    const other = written.find((e) => e.event === 'memevt_hyg_oth_0001')!.id;
    let entries = (await as('viewer').hygiene.lab(params)).items.filter((r) => r.source === 'entry');
    expect(entries.map((r) => r.id)).toEqual([own]);
    // The other agent's entry becomes this agent's memory once one of its turns recalls it (by its id).
    await h.db.execute(
      sql`update turns set recalled = recalled || ${JSON.stringify([other])}::jsonb
          where project_id = 'default' and agent_id = ${HYGIENE_AGENT} and turn = 3 and session_id = 'ehr-agent-day-2'`,
    );
    entries = (await as('viewer').hygiene.lab(params)).items.filter((r) => r.source === 'entry');
    expect(entries.map((r) => r.id).sort()).toEqual([own, other].sort());
  });

  it('names the agent it does not know', async () => {
    await expect(as('viewer').hygiene.lab({ ...params, agent: 'nobody' })).rejects.toThrow(/agent with turns.*nobody/);
  });
});
