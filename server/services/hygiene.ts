import { createHash } from 'node:crypto';
import { and, asc, count, eq, inArray, or, sql } from 'drizzle-orm';
import { isEntryId } from './curation-index';
import { additionOf, errorChains, itemHealth, utilityOf, type LabTurn, type MemoryItem } from '@/lib/hygiene/items';
import { removeNow, simulateSizes, type Policy, type SizePoint } from '@/lib/hygiene/deletion';
import {
  compareKept,
  consolidate,
  factRecall,
  jsNearest,
  lostBeyond,
  CONSOLIDATIONS,
  RECALL_TOP_K,
  type Atom,
  type FactRecall,
  type Nearest,
  type Probe,
} from '@/lib/hygiene/consolidation';
import { estimateTokens } from '@/lib/ccs/parse';
import { additionReport } from '@/lib/hygiene/addition';
import { experienceFollowing } from '@/lib/hygiene/experience';
import type { LabInput, ProposalPolicy } from '@/lib/hygiene/contract';
import { MODEL_ID } from '@/lib/recall/model';
import type { Db, Tx } from '@/server/db';
import { memoryEntries, memoryEvents, proposals } from '@/server/db/schema/curation';
import { artifacts, sessions, sessionStats, turns } from '@/server/db/schema/sessions';
import { serverEmbedder } from './embeddings';
import { knn } from './knn';
import { NotFoundError } from './errors';
import { raiseDeprecation } from './curation';

/**
 * The memory hygiene lab on the server: loads one agent's timeline (its turns across sessions, by
 * time) and its memory items (the artifacts of its external store and the durable memory entries),
 * embeds queries and executions with the recall model (cached by text), and runs the pure policies of
 * lib/hygiene over them.
 */

/** The lab's parameters, as `labInput` (lib/hygiene/contract.ts) parses them. */
export type LabParams = LabInput;

const refId = (r: unknown): string | null =>
  typeof r === 'string'
    ? r
    : r && typeof r === 'object' && typeof (r as { id?: unknown }).id === 'string'
      ? (r as { id: string }).id
      : null;
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);

/** Agents with a timeline the lab can show: turns, and how many recalls they report. */
export async function hygieneAgents(db: Tx, projectId: string) {
  const rows = await db
    .select({
      agent: turns.agentId,
      turns: count(),
      recalls: sql<number>`coalesce(sum(jsonb_array_length(${turns.recalled})), 0)::int`,
      sessions: sql<number>`count(distinct ${turns.sessionId})::int`,
      /** Turns reporting utility, success or an addition decision: what the lab is made for. */
      reporting: sql<number>`count(*) filter (where ${turns.extra} ?| array['utility', 'success', 'addition'])::int`,
    })
    .from(turns)
    .where(eq(turns.projectId, projectId))
    .groupBy(turns.agentId);
  return rows
    .map((r) => ({ ...r, turns: Number(r.turns) }))
    .sort((a, b) => b.reporting - a.reporting || b.recalls - a.recalls || b.turns - a.turns);
}

// Embeddings by text, shared across requests (the texts of a store change rarely).
const g = globalThis as unknown as { __mnemoscopeLabVectors?: Map<string, Float32Array> };
const cache = (g.__mnemoscopeLabVectors ??= new Map());
const CACHE_MAX = 50_000;
const key = (t: string) => createHash('sha1').update(t).digest('base64');

async function embedAll(texts: string[]): Promise<Map<string, Float32Array>> {
  const want = [...new Set(texts)].filter((t) => !cache.has(key(t)));
  if (want.length) {
    const e = await serverEmbedder();
    for (let i = 0; i < want.length; i += 128) {
      const batch = want.slice(i, i + 128);
      const flat = await e.embed(batch);
      batch.forEach((t, j) => cache.set(key(t), flat.slice(j * e.dims, (j + 1) * e.dims)));
    }
    while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  }
  return new Map(texts.map((t) => [t, cache.get(key(t))!]));
}

function cos(a: Float32Array | undefined, b: Float32Array | undefined): number | null {
  if (!a || !b) return null;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function flat(vs: Float32Array[]): Float32Array {
  const dims = vs[0]?.length ?? 0;
  const out = new Float32Array(vs.length * dims);
  vs.forEach((v, i) => out.set(v, i * dims));
  return out;
}

/**
 * Nearest neighbours as one native matrix product (onnxruntime, as the curator's dedup); the JS scan if it
 * cannot load.
 */
const nativeNearest: Nearest = async (queries, pool, k) => {
  if (!queries.length || !pool.length) return jsNearest(queries, pool, k);
  try {
    return await knn(flat(queries), flat(pool), queries[0]!.length, k);
  } catch {
    return jsNearest(queries, pool, k);
  }
};

function unitSum(a: Float32Array, b: Float32Array): Float32Array {
  const v = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) v[i] = a[i]! + b[i]!;
  const n = Math.hypot(...v) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

interface Loaded {
  turns: LabTurn[];
  items: (MemoryItem & { query: string; execution: string; status: string; session: string | null })[];
}

async function load(db: Tx, projectId: string, agent: string): Promise<Loaded> {
  const rows = await db
    .select({
      session: turns.sessionId,
      turn: turns.turn,
      ts: turns.ts,
      input: turns.input,
      output: turns.output,
      recalled: turns.recalled,
      qualified: turns.qualified,
      judge: turns.judge,
      hallucination: turns.hallucination,
      drift: turns.drift,
      extra: turns.extra,
      sessionCreated: sessions.createdAt,
      // The session's first turn, of any agent (the figures D̄ is made from, kept as turns arrive).
      sessionFirst: sessionStats.firstTurn,
    })
    .from(turns)
    .innerJoin(sessions, and(eq(sessions.projectId, turns.projectId), eq(sessions.id, turns.sessionId)))
    .leftJoin(
      sessionStats,
      and(eq(sessionStats.projectId, turns.projectId), eq(sessionStats.sessionId, turns.sessionId)),
    )
    .where(and(eq(turns.projectId, projectId), eq(turns.agentId, agent)))
    .orderBy(sql`coalesce(${turns.ts}, ${sessions.createdAt}) asc`, asc(turns.sessionId), asc(turns.turn));
  if (!rows.length) throw new NotFoundError('agent with turns', agent);
  // D_t is undefined at a session's first turn, which has no prior state to drift from (ACC §5.3): not shown as one.
  // The session's, not this agent's first in it (else its own lowest turn if the figures are not there).
  const firstTurn = new Map<string, number>();
  for (const r of rows)
    firstTurn.set(r.session, r.sessionFirst ?? Math.min(firstTurn.get(r.session) ?? r.turn, r.turn));
  const labTurns: LabTurn[] = rows.map((r, i) => {
    const u = utilityOf({ extra: r.extra, judge: r.judge, hallucination: r.hallucination });
    return {
      step: i + 1,
      session: r.session,
      turn: r.turn,
      ts: r.ts,
      input: r.input,
      output: r.output,
      recalled: (r.recalled as unknown[]).map(refId).filter((x): x is string => !!x),
      qualified: (r.qualified as unknown[]).map(refId).filter((x): x is string => !!x),
      utility: u?.value ?? null,
      utilitySource: u?.source ?? null,
      hallucination: r.hallucination,
      drift: r.turn === firstTurn.get(r.session) ? null : r.drift,
      addition: additionOf(r.extra?.addition),
    };
  });
  const stepOf = new Map(labTurns.map((t) => [`${t.session}\u0000${t.turn}`, t]));
  const firstStep = new Map<string, number>();
  for (const t of labTurns) if (!firstStep.has(t.session)) firstStep.set(t.session, t.step);
  const tsSteps = labTurns.map((t) => (t.ts ? Date.parse(t.ts) : NaN));
  const stepAtTime = (iso: string | null) => {
    if (!iso) return null;
    const at = Date.parse(iso);
    let n = 0;
    for (const x of tsSteps) if (x <= at) n++;
    return n;
  };
  const sessionIds = [...firstStep.keys()];
  const arts = await db
    .select({
      id: artifacts.id,
      session: artifacts.sessionId,
      kind: artifacts.kind,
      content: artifacts.content,
      provenance: artifacts.provenance,
      createdTurn: artifacts.createdTurn,
      ts: artifacts.ts,
      extra: artifacts.extra,
      status: artifacts.status,
    })
    .from(artifacts)
    .where(
      and(
        eq(artifacts.projectId, projectId),
        or(eq(artifacts.agentId, agent), inArray(artifacts.sessionId, sessionIds)),
      ),
    );
  const items: Loaded['items'] = arts.map((a) => {
    const from =
      a.session !== null && a.createdTurn !== null ? stepOf.get(`${a.session}\u0000${a.createdTurn}`) : undefined;
    const prov = a.provenance ?? {};
    const surprise = typeof a.extra?.surprise === 'number' ? a.extra.surprise : null;
    return {
      id: a.id,
      source: 'artifact',
      kind: a.kind,
      content: a.content,
      query: str(prov.query) ?? from?.input ?? a.content,
      execution: str(prov.execution) ?? from?.output ?? a.content,
      addedStep: from?.step ?? stepAtTime(a.ts) ?? Math.max(0, (a.session ? (firstStep.get(a.session) ?? 1) : 1) - 1),
      addedAt: a.ts,
      fromTurn: from ? { session: from.session, turn: from.turn } : null,
      surprise,
      addition: from?.addition ?? null,
      status: a.status,
      session: a.session,
    };
  });
  // The durable entries that are this agent's: written from its own memory events, or recalled by its turns (another
  // agent's entries are not its memory, however the project shares them).
  const recalledIds = JSON.stringify(
    [...new Set(labTurns.flatMap((t) => [...t.recalled, ...t.qualified]))].filter(isEntryId),
  );
  const entries = await db
    .select({
      id: memoryEntries.id,
      kind: memoryEntries.kind,
      content: memoryEntries.content,
      status: memoryEntries.status,
      createdAt: memoryEntries.createdAt,
    })
    .from(memoryEntries)
    .leftJoin(
      memoryEvents,
      and(eq(memoryEvents.projectId, memoryEntries.projectId), eq(memoryEvents.eventId, memoryEntries.sourceEventId)),
    )
    .where(
      and(
        eq(memoryEntries.projectId, projectId),
        inArray(memoryEntries.status, ['active', 'in_conflict', 'deprecated']),
        or(
          eq(memoryEvents.sourceAgent, agent),
          // One parameter, however many (a list of bound ids stops at PostgreSQL's 65,535 parameters).
          sql`${memoryEntries.id} in (select x::uuid from jsonb_array_elements_text(${recalledIds}::jsonb) x)`,
        ),
      ),
    );
  for (const e of entries)
    items.push({
      id: e.id,
      source: 'entry',
      kind: e.kind,
      content: e.content,
      query: e.content,
      execution: e.content,
      addedStep: stepAtTime(e.createdAt.toISOString()) ?? 0,
      addedAt: e.createdAt.toISOString(),
      fromTurn: null,
      surprise: null,
      addition: null,
      status: e.status === 'deprecated' ? 'deprecated' : 'active',
      session: null,
    });
  return { turns: labTurns, items };
}

const clip = (s: string, n = 600) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** A fact recall as the page shows it: facts lost (the first 12, and how many atoms in all), no probe indices. */
const shownRecall = ({ missed: _, ...r }: FactRecall, lost: FactRecall['lost']) => ({
  ...r,
  lost: lost.slice(0, 12),
  lostAtoms: lost.length,
  lostProbes: lost.reduce((n, l) => n + l.probes, 0),
});

export async function hygieneLab(db: Tx, projectId: string, p: LabParams) {
  const { turns: tl, items } = await load(db, projectId, p.agent);
  let vectors: Map<string, Float32Array> | null = null;
  let unavailable: string | null = null;
  try {
    vectors = await embedAll([
      ...tl.flatMap((t) => [t.input, t.output]),
      ...items.flatMap((r) => [r.query, r.execution]),
    ]);
  } catch (e) {
    unavailable = (e as Error).message.split('\n')[0]!;
  }
  const byId = new Map(items.map((r) => [r.id, r]));
  const health = itemHealth(
    items,
    tl,
    (t, r) => ({
      input: cos(vectors?.get(t.input), vectors?.get(byId.get(r.id)!.query)),
      output: cos(vectors?.get(t.output), vectors?.get(byId.get(r.id)!.execution)),
    }),
    p.misalignment,
  );
  const chains = errorChains(items, tl, p.wrongBelow);
  const lastStep = tl.length;

  // Deletion and consolidation act on the agent's store (durable entries are the curator's): today on
  // what is still active; over history on everything that was ever in it.
  const store = items.filter((r) => r.source === 'artifact');
  const retrievals = health
    .filter((h) => h.item.source === 'artifact')
    .flatMap((h) => h.retrievals.map((x) => ({ item: x.item, step: x.step, utility: x.utility })));
  const active = store.filter((r) => r.status === 'active');
  const activeIds = new Set(active.map((r) => r.id));
  const now = removeNow(
    active,
    retrievals.filter((x) => activeIds.has(x.item)),
    lastStep,
    p.deletion,
  );
  const sizes = simulateSizes(store, retrievals, lastStep, p.deletion);
  // At most ~400 points: every k-th step, and always the last.
  const every = Math.max(1, Math.ceil(sizes.length / 400));
  const series: SizePoint[] = sizes.filter((_, i) => i % every === 0 || i === sizes.length - 1);

  // Consolidation over the active items that have a vector.
  const usage = new Map(health.map((h) => [h.item.id, h.recalled]));
  // An atom's embedding: its query and its execution together.
  const atoms: Atom[] = vectors
    ? active.map((r) => {
        const content = r.query === r.execution ? r.query : `${r.query}\n${r.execution}`;
        return {
          id: r.id,
          vector: unitSum(vectors!.get(r.query)!, vectors!.get(r.execution)!),
          content,
          tokens: estimateTokens(content),
          addedStep: r.addedStep,
          usage: usage.get(r.id) ?? 0,
          surprise: r.surprise,
        };
      })
    : [];
  const budget = Math.max(1, Math.min(p.budget, Math.max(1, atoms.length)));
  // Sleep-replay's clusters within the budget too: the paper compares the four policies at one budget (§5.1).
  const sleepK = Math.max(1, Math.min(p.sleepK, budget));
  const results = atoms.length
    ? await Promise.all(CONSOLIDATIONS.map((c) => consolidate(atoms, budget, c, nativeNearest, 7, sleepK)))
    : [];
  const cmp = compareKept(results);
  // The labelled probe set: every recorded recall of a live atom into a turn that went well (utility ≥ 0.5) — what
  // the agent asked, and the atom whose fact answered it.
  const atomIds = new Set(atoms.map((a) => a.id));
  const probes: Probe[] = vectors
    ? health.flatMap((h) =>
        atomIds.has(h.item.id)
          ? h.retrievals.flatMap((x) => {
              const v = vectors!.get(tl[x.step - 1]!.input);
              return x.utility !== null && x.utility >= 0.5 && v ? [{ vector: v, item: h.item.id }] : [];
            })
          : [],
      )
    : [];
  const recalls = await Promise.all(results.map((r) => factRecall(r.pool, probes, RECALL_TOP_K, nativeNearest)));
  // The same probes over every atom, before any consolidation: what retrieval itself finds, the policies' ceiling.
  const unconsolidated = await factRecall(
    atoms.map((a) => ({ id: a.id, holds: [a.id], vector: a.vector, tokens: a.tokens })),
    probes,
    RECALL_TOP_K,
    nativeNearest,
  );
  const atomTokens = atoms.reduce((n, a) => n + a.tokens, 0);

  const healthOut = health.map((h) => {
    const r = byId.get(h.item.id)!;
    return {
      id: r.id,
      source: r.source,
      kind: r.kind,
      status: r.status,
      session: r.session,
      content: clip(r.content),
      query: clip(r.query, 300),
      execution: clip(r.execution, 300),
      addedStep: r.addedStep,
      addedAt: r.addedAt,
      fromTurn: r.fromTurn,
      addition: r.addition,
      recalled: h.recalled,
      qualified: h.qualified,
      meanUtility: h.meanUtility,
      meanInputSim: h.meanInputSim,
      meanOutputSim: h.meanOutputSim,
      lastStep: h.lastStep,
      misaligned: h.misaligned,
      retrievals: h.retrievals.map((x) => {
        const t = tl[x.step - 1]!;
        return {
          step: x.step,
          session: x.session,
          turn: x.turn,
          inputSim: x.inputSim,
          outputSim: x.outputSim,
          utility: x.utility,
          qualified: x.qualified,
          hallucination: t.hallucination,
          drift: t.drift,
        };
      }),
    };
  });
  const sources = { utility: 0, success: 0, judge: 0, hallucination: 0, none: 0 };
  for (const t of tl) sources[t.utilitySource ?? 'none']++;
  const removed = (policy: Policy) => now[policy].filter((v) => v.removed);
  return {
    agent: p.agent,
    params: p,
    timeline: {
      turns: tl.length,
      sessions: [...new Set(tl.map((t) => t.session))],
      first: tl[0]?.ts ?? null,
      last: tl.at(-1)?.ts ?? null,
    },
    utilitySources: sources,
    similarity: { available: !!vectors, model: MODEL_ID, reason: unavailable },
    items: healthOut,
    turns: tl.map((t) => ({
      step: t.step,
      session: t.session,
      turn: t.turn,
      utility: t.utility,
      input: clip(t.input, 200),
      output: clip(t.output, 200),
    })),
    chains,
    deletion: {
      now: {
        periodic: removed('periodic'),
        history: removed('history'),
        combined: removed('combined'),
        product: removed('product'),
        capacity: removed('capacity'),
      },
      activeItems: active.length,
      sizes: series,
    },
    consolidation: {
      budget,
      atoms: atoms.length,
      sigma: results.find((r) => r.policy === 'surprise')?.sigma ?? null,
      sleepK,
      topK: RECALL_TOP_K,
      tokens: atomTokens,
      baseline: { recall: shownRecall(unconsolidated, unconsolidated.lost) },
      results: results.map((r, i) => {
        const held = new Set(r.pool.flatMap((a) => a.holds));
        const poolTokens = r.pool.reduce((n, a) => n + a.tokens, 0);
        return {
          policy: r.policy,
          kept: r.kept,
          score: r.score,
          pool: r.pool.length,
          compression: r.pool.length ? atoms.length / r.pool.length : null,
          tokenCompression: poolTokens ? atomTokens / poolTokens : null,
          replayTokens: r.replayTokens,
          // Lost: what the memory before consolidation found and this pool no longer does.
          recall: shownRecall(recalls[i]!, lostBeyond(recalls[i]!, unconsolidated, probes)),
          dropped: atoms
            .filter((a) => !held.has(a.id))
            .sort((a, b) => b.usage - a.usage)
            .map((a) => a.id),
          onlyHere: cmp.onlyHere[i]!,
        };
      }),
      overlap: cmp.overlap,
      clusters: (results.find((r) => r.policy === 'sleep')?.clusters ?? []).filter((c) => c.members.length > 1),
    },
    addition: additionReport(tl),
    experience: experienceFollowing(
      healthOut.flatMap((r) =>
        r.retrievals.map((x) => ({ step: x.step, inputSim: x.inputSim, outputSim: x.outputSim, utility: x.utility })),
      ),
    ),
  };
}

export type HygieneLab = Awaited<ReturnType<typeof hygieneLab>>;

/** Raises a deprecation proposal for a memory item the lab selected, with the policy's reason and numbers. */
export async function proposeFromLab(
  db: Db,
  projectId: string,
  p: LabParams & { item: string; policy: ProposalPolicy },
  actor: string,
) {
  const lab = await hygieneLab(db, projectId, p);
  const item = lab.items.find((r) => r.id === p.item);
  if (!item) throw new NotFoundError('memory item', p.item);
  const verdict =
    p.policy in lab.deletion.now ? lab.deletion.now[p.policy as Policy].find((v) => v.id === p.item) : undefined;
  const policyName = {
    periodic: `periodic deletion (P = ${p.deletion.period}, α = ${p.deletion.alpha})`,
    history: `history-based deletion (n = ${p.deletion.n}, β = ${p.deletion.beta})`,
    combined:
      `combined deletion, both rules applied together (P = ${p.deletion.period}, α = ${p.deletion.alpha}, ` +
      `n = ${p.deletion.n}, β = ${p.deletion.beta})`,
    product:
      `combined deletion as the product φ_period × φ_history (P = ${p.deletion.period}, α = ${p.deletion.alpha}, ` +
      `n = ${p.deletion.n}, β = ${p.deletion.beta})`,
    capacity: `capacity cap (C = ${p.deletion.capacity})`,
    misaligned:
      `misaligned experience replay (input ≥ ${p.misalignment.inputMin}, ` + `output ≤ ${p.misalignment.outputMax})`,
    chain: 'error-propagation chain',
    manual: 'chosen in the hygiene lab',
  }[p.policy];
  const reason =
    verdict?.reason ??
    (p.policy === 'misaligned'
      ? `recalled ${item.recalled}× with mean input similarity ${item.meanInputSim?.toFixed(2)} ` +
        `but mean output similarity ${item.meanOutputSim?.toFixed(2)}`
      : p.policy === 'chain'
        ? 'part of an error-propagation chain: recalled into turns that went wrong, ' +
          'whose outputs were stored and recalled again'
        : `selected by ${actor}`);
  return raiseDeprecation(
    db,
    projectId,
    {
      target: { source: item.source, id: item.id },
      policy: policyName,
      reason,
      evidence: {
        agent: p.agent,
        recalled: item.recalled,
        'mean utility': item.meanUtility ?? 'unknown',
        'mean input similarity': item.meanInputSim ?? 'unknown',
        'mean output similarity': item.meanOutputSim ?? 'unknown',
        'last recalled at step': item.lastStep ?? 'never',
        'timeline steps': lab.timeline.turns,
      },
    },
    actor,
  );
}

/**
 * The memory items with a deprecation waiting for review (an artifact or an entry → its proposal): the lab shows
 * them as proposed instead of offering to propose them again.
 */
export async function pendingDeprecations(db: Tx, projectId: string): Promise<Record<string, string>> {
  const rows = await db
    .select({ id: proposals.id, artifact: proposals.targetArtifactId, entry: proposals.targetEntryId })
    .from(proposals)
    .where(
      and(eq(proposals.projectId, projectId), eq(proposals.status, 'pending'), eq(proposals.operation, 'deprecate')),
    );
  const out: Record<string, string> = {};
  for (const r of rows) {
    const item = r.artifact ?? r.entry;
    if (item) out[item] = r.id;
  }
  return out;
}
