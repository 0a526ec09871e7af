import { randomUUID } from 'node:crypto';
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '@/server/db';
import { auditLog, projects } from '@/server/db/schema/projects';
import { artifacts } from '@/server/db/schema/sessions';
import {
  curationOutcomes,
  ingestBatches,
  memoryEntries,
  memoryEntryVersions,
  memoryEvents,
  proposals,
  rejectedEvents,
} from '@/server/db/schema/curation';
import { toCurationEvent, type CurationEvent } from '@/lib/curation/event';
import {
  curate,
  DEDUP_JUDGED,
  DEFAULT_POLICY,
  SCOPES,
  type CurationDecision,
  type CurationPolicy,
  type Neighbour,
  type Scope,
} from '@/lib/curation/pipeline';
import { dot } from '@/lib/recall/vectors';
import {
  ACTIVE,
  NOW,
  asNeighbour,
  dropIndex,
  entryIndex,
  indexPut,
  indexedColumns,
  lockCuration,
  nearestInScope,
  type IndexedEntry,
} from './curation-index';
import { applyOperation, lockEntry } from './curation-writes';
import { notifyDecisions } from './decisions';
import { notifyInbox } from './live';
import { MALFORMED_RATIONALE } from '@/lib/curation/decision';
import { enqueueWebhooks } from './webhooks';
import { ConflictError, InvalidInputError, NotFoundError } from './errors';
import { serverEmbedder } from './embeddings';
import { rememberVectors } from './text-vectors';
import { knn } from './knn';
import { wordnet } from './wordnet';
import { sameness } from '@/lib/curation/sameness';
import { log } from '@/server/log';
import { appLink } from '@/server/env';

/** The equivalence judgment's lexicon: WordNet's synonyms, antonyms and derived forms. */
const WORDS = { lexicon: wordnet };

/**
 * One event's decision. Should judging it against its neighbours fail (untrusted text the rules did not foresee), it
 * is decided as when the model is unavailable: no dedup, so a write goes to a person. One event never stops the
 * curation of its batch, nor the backlog's on every start.
 */
function curateOrReview(e: CurationEvent, neighbours: Neighbour[] | null, policy: CurationPolicy) {
  try {
    return curate(e, neighbours, policy, undefined, undefined, WORDS);
  } catch (err) {
    log.error({ err: (err as Error).message, eventId: e.eventId }, 'curating an event against its neighbours failed');
    return curate(e, null, policy);
  }
}

/**
 * The curator on the server: runs the pipeline (lib/curation/pipeline.ts) on every memory event an
 * ingest batch newly stored, writes what it may and queues proposals for the rest, and raises
 * deprecations from the hygiene lab. Every decision is a curation outcome and an audit record; nothing
 * is deleted. Reviewers' decisions are in curation-decisions.ts, the entry index in curation-index.ts.
 */

export interface CurationCounts {
  batchId: string;
  events: number;
  written: number;
  proposed: number;
  rejected: number;
  duplicate: number;
  discarded: number;
}

// ——— Policy ———

export async function curationPolicy(db: Db | Tx, projectId: string): Promise<CurationPolicy> {
  const [p] = await db.select({ settings: projects.settings }).from(projects).where(eq(projects.id, projectId));
  const saved = (p?.settings.curation ?? {}) as Partial<CurationPolicy>;
  return { ...DEFAULT_POLICY, ...saved };
}

/** A live entry that says what a text says, by the curator's dedup judgment: its id, words, cosine and why. */
export interface SameEntry {
  entryId: string;
  content: string;
  cosine: number;
  because: string;
}

/** Of a text's nearest entries (best first), the one the curator's dedup would call the same statement, if any. */
export function sameAmong(
  content: string,
  nearest: readonly { id: string; content: string; cosine: number }[],
  policy: CurationPolicy,
): SameEntry | null {
  for (const n of nearest.slice(0, DEDUP_JUDGED)) {
    if (n.cosine < policy.dedupThreshold) break;
    const same = sameness(content, n.content, WORDS);
    if (same.verdict === 'same') return { entryId: n.id, content: n.content, cosine: n.cosine, because: same.because };
  }
  return null;
}

/**
 * The live entry of a scope that says what `content` says now, if any. A proposal queued as new may have gained a twin
 * since (another proposal approved first, an agent's write): approving it would write a second copy.
 */
export async function sameAsEntry(db: Db, projectId: string, content: string, scope: string) {
  const nearest = await nearestInScope(db, projectId, content, scope, DEDUP_JUDGED);
  return sameAmong(content, nearest, await curationPolicy(db, projectId));
}

export async function setCurationPolicy(
  db: Db,
  projectId: string,
  policy: Partial<CurationPolicy>,
  actor: string,
): Promise<CurationPolicy> {
  if (policy.dedupThreshold !== undefined && !(policy.dedupThreshold > 0 && policy.dedupThreshold <= 1))
    throw new InvalidInputError('dedupThreshold: must be a cosine in (0, 1]');
  if (policy.approvalScopes?.some((s) => !(SCOPES as readonly string[]).includes(s)))
    throw new InvalidInputError(`approvalScopes: each must be one of ${SCOPES.join(', ')}`);
  return db.transaction(async (tx) => {
    const current = await curationPolicy(tx, projectId);
    const next = { ...current, ...policy };
    await tx
      .update(projects)
      .set({ settings: sql`jsonb_set(${projects.settings}, '{curation}', ${JSON.stringify(next)}::jsonb)` })
      .where(eq(projects.id, projectId));
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'policy.update',
      subjectType: 'project',
      subjectId: projectId,
      detail: { from: current, to: next },
    });
    return next;
  });
}

// ——— Running the pipeline on an ingest batch ———

const K = 12;
/** Below this cosine a neighbour says nothing to dedup or conflict checks. */
const MIN_COSINE = 0.5;

interface Planned {
  event: CurationEvent;
  decision: CurationDecision;
  entryId: string | null;
  latencyMs: number;
}

/** In SQL, `isMalformedOutcome` of a curation outcome's rationale column (MALFORMED_RATIONALE). */
export const malformedOutcome = (rationale: SQL) =>
  sql`coalesce(${rationale}->'steps'->0->>'outcome' = 'malformed', false)`;

/**
 * Curates the memory events an ingest batch newly stored, and records the malformed ones with their
 * reasons. One transaction for the batch (serialized per project), so a report is never half-written.
 */
export async function curateBatch(
  db: Db,
  projectId: string,
  events: CurationEvent[],
  malformed: { eventId: string | null; errors: { path: string; message: string }[]; raw: unknown; key: string }[],
  actor: string,
): Promise<CurationCounts> {
  const batchId = randomUUID();
  const counts: CurationCounts = {
    batchId,
    events: events.length + malformed.length,
    written: 0,
    proposed: 0,
    rejected: 0,
    duplicate: 0,
    discarded: 0,
  };
  if (!counts.events) return counts;
  const embedder = await serverEmbedder().catch(() => null);
  const policy = await curationPolicy(db, projectId);
  // The vectors of the entries this batch appends, stored once it has committed (text-vectors.ts).
  const appended: [string, Float32Array][] = [];
  try {
    await db.transaction(async (tx) => {
      appended.length = 0;
      await lockCuration(tx, projectId);
      await tx.insert(ingestBatches).values({ id: batchId, projectId, actor, events: counts.events });
      if (malformed.length) {
        const stored = await tx
          .insert(rejectedEvents)
          .values(
            malformed.map((m) => ({
              projectId,
              key: m.key,
              eventId: m.eventId,
              batchId,
              errors: m.errors,
              raw: m.raw,
            })),
          )
          .onConflictDoNothing()
          .returning({ id: rejectedEvents.id, eventId: rejectedEvents.eventId, errors: rejectedEvents.errors });
        counts.rejected += stored.length;
        counts.events -= malformed.length - stored.length;
        // A malformed copy of an event stored whole under its id is kept above (the reviewer sees what was sent), but
        // is no outcome of that event: its history stays what became of the event.
        const ids = stored.flatMap((s) => (s.eventId ? [s.eventId] : []));
        const whole = new Set(
          ids.length
            ? (
                await tx
                  .select({ eventId: memoryEvents.eventId })
                  .from(memoryEvents)
                  .where(and(eq(memoryEvents.projectId, projectId), inArray(memoryEvents.eventId, ids)))
              ).map((r) => r.eventId)
            : [],
        );
        const outcomes = stored.filter((s) => !s.eventId || !whole.has(s.eventId));
        if (outcomes.length)
          await tx.insert(curationOutcomes).values(
            outcomes.map((s) => ({
              projectId,
              eventId: s.eventId ?? `malformed:${s.id}`,
              disposition: 'rejected',
              reason: `malformed: ${s.errors.map((e) => `${e.path || 'event'} ${e.message}`).join('; ')}`.slice(
                0,
                1000,
              ),
              rationale: MALFORMED_RATIONALE,
              batchId,
              decidedBy: 'curator',
            })),
          );
        await notifyDecisions(
          tx,
          projectId,
          outcomes.flatMap((s) => (s.eventId ? [s.eventId] : [])),
        );
      }
      // Under the lock, skip events another run decided meanwhile: an instance's start-up backlog may reach events
      // that a second instance stored a moment ago and is about to curate. Each event is decided once. A malformed
      // version refused under the same id is no decision about this one: the corrected event is curated.
      if (events.length) {
        const decided = new Set(
          (
            await tx
              .select({ eventId: curationOutcomes.eventId })
              .from(curationOutcomes)
              .where(
                and(
                  eq(curationOutcomes.projectId, projectId),
                  inArray(
                    curationOutcomes.eventId,
                    events.map((e) => e.eventId),
                  ),
                  sql`not ${malformedOutcome(sql`${curationOutcomes.rationale}`)}`,
                ),
              )
          ).map((r) => r.eventId),
        );
        if (decided.size) {
          events = events.filter((e) => !decided.has(e.eventId));
          counts.events -= decided.size;
        }
      }
      if (!events.length) return;
      const idx = embedder ? await entryIndex(db, tx, projectId, embedder) : null;
      const t0 = performance.now();
      const vectors = embedder ? await embedder.embed(events.map((e) => e.content)) : null;
      const embedMs = (performance.now() - t0) / events.length;
      const referenced = await referencedEntries(tx, projectId, events);
      // Neighbours among the entries stored before this batch: one native matrix product for all events.
      const before = idx ? idx.rows.length : 0;
      const tk = performance.now();
      const near =
        idx && vectors && embedder ? await knn(vectors, idx.vectors.slice(0, before), embedder.dims, K) : null;
      const knnMs = (performance.now() - tk) / events.length;
      const planned: Planned[] = [];
      for (let i = 0; i < events.length; i++) {
        const e = events[i]!;
        const t = performance.now();
        const vector = vectors && embedder ? vectors.subarray(i * embedder.dims, (i + 1) * embedder.dims) : null;
        let neighbours: Neighbour[] | null = null;
        if (idx && vector && near) {
          neighbours = near.rows[i]!.map((row, j) => asNeighbour(idx, row, near.cosines[i]![j]!));
          // …and among entries this batch has written so far.
          for (let row = before; row < idx.rows.length; row++)
            neighbours.push(asNeighbour(idx, row, dot(vector, idx.vectors.row(row))));
          neighbours = neighbours
            .filter((n) => n.cosine >= MIN_COSINE && ACTIVE.includes(n.status))
            .sort((a, b) => b.cosine - a.cosine)
            .slice(0, K);
        }
        if (neighbours)
          for (const r of referenced)
            if (
              (e.supersedes.includes(r.id) ||
                e.conflictsWith.includes(r.id) ||
                (r.sourceEventId &&
                  (e.supersedes.includes(r.sourceEventId) || e.conflictsWith.includes(r.sourceEventId)))) &&
              !neighbours.some((n) => n.entryId === r.id)
            )
              neighbours = [...neighbours, { ...r, entryId: r.id, cosine: 0 }];
        const decision = curateOrReview(e, neighbours, policy);
        const entryId =
          decision.disposition === 'written' && decision.operation === 'append'
            ? randomUUID()
            : decision.disposition === 'written'
              ? decision.targetEntryId
              : null;
        // Later events of the batch see what this one wrote.
        if (idx && vector && entryId && decision.operation === 'append') {
          appended.push([e.content, vector]);
          indexPut(
            idx,
            {
              id: entryId,
              scope: decision.scope!,
              kind: decision.kind,
              content: e.content,
              status: 'active',
              sourceEventId: e.eventId,
            },
            vector,
          );
        }
        planned.push({ event: e, decision, entryId, latencyMs: performance.now() - t + embedMs + knnMs });
      }
      await writePlanned(tx, projectId, batchId, planned, counts);
    });
  } catch (error) {
    dropIndex(db, projectId);
    throw error;
  }
  if (embedder) rememberVectors(db, projectId, embedder.modelId, appended);
  return counts;
}

/** Curates the memory events that have no curation outcome yet (stored, then the process stopped). */
export async function curateBacklog(db: Db, projectId: string): Promise<CurationCounts | null> {
  const rows = await db
    .select()
    .from(memoryEvents)
    .where(
      and(
        eq(memoryEvents.projectId, projectId),
        sql`not exists (select 1 from ${curationOutcomes} o
              where o.project_id = ${memoryEvents.projectId} and o.event_id = ${memoryEvents.eventId}
                and not ${malformedOutcome(sql`o.rationale`)})`,
      ),
    )
    .orderBy(memoryEvents.receivedAt)
    .limit(10_000);
  if (!rows.length) return null;
  const events = rows.map(toCurationEvent);
  return curateBatch(db, projectId, events, [], 'curator-recovery');
}

async function referencedEntries(tx: Tx, projectId: string, events: CurationEvent[]): Promise<IndexedEntry[]> {
  const refs = [...new Set(events.flatMap((e) => [...e.supersedes, ...e.conflictsWith]))];
  if (!refs.length) return [];
  const uuids = refs.filter((r) => /^[0-9a-f-]{36}$/i.test(r));
  return tx
    .select(indexedColumns)
    .from(memoryEntries)
    .where(
      and(
        eq(memoryEntries.projectId, projectId),
        or(inArray(memoryEntries.sourceEventId, refs), uuids.length ? inArray(memoryEntries.id, uuids) : undefined),
      ),
    );
}

async function writePlanned(tx: Tx, projectId: string, batchId: string, planned: Planned[], counts: CurationCounts) {
  const appends = planned.filter((p) => p.decision.disposition === 'written' && p.decision.operation === 'append');
  if (appends.length) {
    await tx.insert(memoryEntries).values(
      appends.map((p) => ({
        id: p.entryId!,
        projectId,
        scope: p.decision.scope!,
        kind: p.decision.kind,
        content: p.event.content,
        sourceEventId: p.event.eventId,
        createdAt: NOW,
        updatedAt: NOW,
      })),
    );
    await tx.insert(memoryEntryVersions).values(
      appends.map((p) => ({
        entryId: p.entryId!,
        version: 1,
        operation: 'append',
        scope: p.decision.scope!,
        kind: p.decision.kind,
        content: p.event.content,
        status: 'active',
        eventId: p.event.eventId,
        createdBy: 'curator',
      })),
    );
  }
  for (const p of planned) {
    if (p.decision.disposition === 'written' && p.decision.operation !== 'append' && p.decision.operation !== 'discard')
      p.entryId = await applyOperation(
        tx,
        projectId,
        p.decision.operation!,
        {
          scope: p.decision.scope!,
          kind: p.decision.kind,
          content: p.event.content,
          eventId: p.event.eventId,
          targetEntryId: p.decision.targetEntryId,
          conflictsWith: p.decision.conflictsWith,
        },
        'curator',
      );
  }
  const proposed = planned.filter((p) => p.decision.disposition === 'proposed');
  if (proposed.length) {
    // The version each update or merge is proposed against (read under the curation lock): approving it after the
    // entry changed is refused (curation-writes.ts).
    const targets = [
      ...new Set(
        proposed.flatMap((p) =>
          (p.decision.operation === 'merge' || p.decision.operation === 'update') && p.decision.targetEntryId
            ? [p.decision.targetEntryId]
            : [],
        ),
      ),
    ];
    const versions = new Map(
      targets.length
        ? (
            await tx
              .select({ id: memoryEntries.id, version: memoryEntries.version })
              .from(memoryEntries)
              .where(and(eq(memoryEntries.projectId, projectId), inArray(memoryEntries.id, targets)))
          ).map((r) => [r.id, r.version])
        : [],
    );
    await notifyInbox(tx, projectId);
    const made = await tx
      .insert(proposals)
      .values(
        proposed.map((p) => ({
          projectId,
          eventId: p.event.eventId,
          operation: p.decision.operation!,
          scope: p.decision.scope!,
          kind: p.decision.kind,
          content: p.event.content,
          rationale: {
            reason: p.decision.reason,
            reviewBecause: p.decision.reviewBecause,
            steps: p.decision.steps,
            ...(p.decision.targetEntryId && versions.has(p.decision.targetEntryId)
              ? { targetVersion: versions.get(p.decision.targetEntryId) }
              : {}),
          },
          targetEntryId: p.decision.targetEntryId,
          conflictsWith: p.decision.conflictsWith,
          confidence: p.event.confidence,
          sourceAgent: p.event.sourceAgent,
          batchId,
          // The time of the insert, under the curation lock (not now(), the transaction's start): the inbox pages by
          // it, so a proposal must not sort before one already shown.
          createdAt: NOW,
        })),
      )
      .returning({ id: proposals.id });
    await enqueueWebhooks(
      tx,
      projectId,
      'proposal.created',
      proposed.map((p, i) => proposalCreated(made[i]!.id, p)),
    );
  }
  await tx.insert(curationOutcomes).values(
    planned.map((p) => ({
      projectId,
      eventId: p.event.eventId,
      disposition: p.decision.disposition,
      scope: p.decision.scope,
      kind: p.decision.kind,
      reason: p.decision.reason,
      rationale: {
        operation: p.decision.operation,
        steps: p.decision.steps,
        targetEntryId: p.decision.targetEntryId,
        conflictsWith: p.decision.conflictsWith,
      },
      entryId: p.entryId,
      batchId,
      latencyMs: p.latencyMs,
      decidedBy: 'curator',
    })),
  );
  await tx.insert(auditLog).values(
    planned.map((p) => ({
      projectId,
      actor: 'curator',
      action: `curate.${p.decision.disposition}`,
      subjectType: 'memory_event',
      subjectId: p.event.eventId,
      detail: {
        batchId,
        operation: p.decision.operation,
        scope: p.decision.scope,
        kind: p.decision.kind,
        reason: p.decision.reason,
        entryId: p.entryId,
      },
    })),
  );
  await notifyDecisions(
    tx,
    projectId,
    planned.map((p) => p.event.eventId),
  );
  for (const p of planned) counts[p.decision.disposition]++;
}

/** What a webhook hears of a new proposal: enough to decide whether to look, and where. */
function proposalCreated(proposalId: string, p: Planned) {
  return {
    event_id: p.event.eventId,
    proposal_id: proposalId,
    operation: p.decision.operation,
    scope: p.decision.scope,
    kind: p.decision.kind,
    content: p.event.content,
    source_agent: p.event.sourceAgent,
    reason: p.decision.reason,
    review_because: p.decision.reviewBecause ?? null,
    review_url: appLink(`/curation?proposal=${proposalId}`),
  };
}

export interface DeprecationRequest {
  target: { source: 'artifact' | 'entry'; id: string };
  /** The policy that selected it and why, in words: shown to the reviewer as the rationale. */
  policy: string;
  reason: string;
  /** The numbers behind the reason (retrievals, mean utility, similarities, parameters). */
  evidence: Record<string, unknown>;
}

/**
 * Raises a deprecation proposal for a record or entry (from the hygiene lab): it waits in the
 * inbox for a reviewer like any proposal; approving it marks the record deprecated, never deletes it.
 * One pending deprecation per target.
 */
export async function raiseDeprecation(
  db: Db,
  projectId: string,
  r: DeprecationRequest,
  actor: string,
): Promise<{ proposalId: string }> {
  if (!r.reason.trim()) throw new InvalidInputError('reason: say why the record should go');
  return db.transaction(async (tx) => {
    await lockCuration(tx, projectId);
    let content: string;
    let scope: Scope = 'project';
    if (r.target.source === 'entry') {
      const cur = await lockEntry(tx, projectId, r.target.id);
      if (cur.status === 'deprecated') throw new ConflictError('the entry is already deprecated');
      content = cur.content;
      scope = cur.scope as Scope;
    } else {
      const [a] = await tx
        .select({ content: artifacts.content, status: artifacts.status })
        .from(artifacts)
        .where(and(eq(artifacts.projectId, projectId), eq(artifacts.id, r.target.id)));
      if (!a) throw new NotFoundError('record', r.target.id);
      if (a.status === 'deprecated') throw new ConflictError('the record is already deprecated');
      content = a.content;
    }
    const [open] = await tx
      .select({ id: proposals.id })
      .from(proposals)
      .where(
        and(
          eq(proposals.projectId, projectId),
          eq(proposals.status, 'pending'),
          eq(proposals.operation, 'deprecate'),
          r.target.source === 'entry'
            ? eq(proposals.targetEntryId, r.target.id)
            : eq(proposals.targetArtifactId, r.target.id),
        ),
      );
    if (open)
      throw new ConflictError(`a deprecation of ${r.target.id} is already waiting for review (proposal ${open.id})`);
    const eventId = `hygiene_${randomUUID()}`;
    await notifyInbox(tx, projectId);
    const [p] = await tx
      .insert(proposals)
      .values({
        projectId,
        eventId,
        createdAt: NOW,
        operation: 'deprecate',
        scope,
        kind: 'deprecation',
        content: content.slice(0, 4000),
        rationale: {
          raisedBy: actor,
          source: 'hygiene lab',
          reviewBecause: `raised from the memory hygiene lab by ${actor}: ${r.policy}`,
          steps: [
            { step: 'policy', outcome: r.policy, detail: r.reason },
            ...Object.entries(r.evidence).map(([k, v]) => ({
              step: k,
              outcome: typeof v === 'number' ? String(Number(v.toFixed(3))) : String(v),
            })),
          ],
          evidence: r.evidence,
        },
        targetEntryId: r.target.source === 'entry' ? r.target.id : null,
        targetArtifactId: r.target.source === 'artifact' ? r.target.id : null,
        sourceAgent: 'hygiene-lab',
      })
      .returning({ id: proposals.id });
    await enqueueWebhooks(tx, projectId, 'proposal.created', [
      {
        event_id: eventId,
        proposal_id: p!.id,
        operation: 'deprecate',
        scope,
        kind: 'deprecation',
        content: content.slice(0, 4000),
        source_agent: 'hygiene-lab',
        reason: r.reason,
        review_because: `raised from the memory hygiene lab by ${actor}: ${r.policy}`,
        review_url: appLink(`/curation?proposal=${p!.id}`),
      },
    ]);
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'proposal.raise',
      subjectType: 'proposal',
      subjectId: p!.id,
      detail: { target: r.target, policy: r.policy, reason: r.reason },
    });
    return { proposalId: p!.id };
  });
}
