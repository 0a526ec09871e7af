import { randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/server/db';
import { auditLog, projects } from '@/server/db/schema/projects';
import { artifacts } from '@/server/db/schema/sessions';
import {
  curationOutcomes,
  ingestBatches,
  memoryEntries,
  memoryEntryLinks,
  memoryEntryVersions,
  memoryEvents,
  proposals,
  rejectedEvents,
} from '@/server/db/schema/curation';
import {
  curate,
  DEFAULT_POLICY,
  SCOPES,
  KINDS,
  type CurationDecision,
  type CurationEvent,
  type CurationPolicy,
  type Kind,
  type Neighbour,
  type Operation,
  type Scope,
} from '@/lib/curation/pipeline';
import { VectorMatrix, dot, topK } from '@/lib/recall/vectors';
import { redactText } from '@/lib/redact/redact';
import type { Embedder } from '@/lib/recall/engine';
import { ConflictError, InvalidInputError, NotFoundError } from './errors';
import { serverEmbedder } from './embeddings';
import { knn } from './knn';

/**
 * The curator on the server: runs the pipeline (lib/curation/pipeline.ts) on every memory event an
 * ingest batch newly stored, writes what it may and queues proposals for the rest, and applies
 * reviewers' decisions. Every decision is a curation outcome and an audit record; nothing is deleted.
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

export type StoredEvent = CurationEvent;

/** What the curator needs of a stored memory event (a database row or a freshly normalized record). */
export function toStoredEvent(
  r: Omit<CurationEvent, 'redactedCount'> & { redactions: { path: string; count: number }[] },
): StoredEvent {
  return {
    eventId: r.eventId,
    sourceAgent: r.sourceAgent,
    kind: r.kind,
    content: r.content,
    suggestedScope: r.suggestedScope,
    confidence: r.confidence,
    sensitivity: r.sensitivity,
    ttl: r.ttl,
    evidenceRefs: r.evidenceRefs,
    supersedes: r.supersedes,
    conflictsWith: r.conflictsWith,
    humanReviewRequired: r.humanReviewRequired,
    redactedCount: r.redactions.reduce((n, x) => n + (x.path === 'content' ? x.count : 0), 0),
  };
}

const ACTIVE = ['active', 'in_conflict'];

// ——— The entry index: vectors of a project's live entries, kept in step with the table. ———

interface IndexedEntry {
  id: string;
  scope: string;
  kind: string;
  content: string;
  status: string;
  sourceEventId: string | null;
}

interface EntryIndex {
  vectors: VectorMatrix;
  rows: IndexedEntry[];
  byId: Map<string, number>;
  watermark: string | null;
  modelId: string;
}

const indexes = new WeakMap<object, Map<string, EntryIndex>>();

/** `owner` is the database handle the index belongs to (a transaction is new each time; the handle is not). */
async function entryIndex(owner: object, db: Tx, projectId: string, embedder: Embedder): Promise<EntryIndex> {
  let perDb = indexes.get(owner);
  if (!perDb) indexes.set(owner, (perDb = new Map()));
  let idx = perDb.get(projectId);
  if (!idx || idx.modelId !== embedder.modelId) {
    idx = {
      vectors: new VectorMatrix(embedder.dims, 4096),
      rows: [],
      byId: new Map(),
      watermark: null,
      modelId: embedder.modelId,
    };
    perDb.set(projectId, idx);
  }
  const changed = await db
    .select({
      id: memoryEntries.id,
      scope: memoryEntries.scope,
      kind: memoryEntries.kind,
      content: memoryEntries.content,
      status: memoryEntries.status,
      sourceEventId: memoryEntries.sourceEventId,
      updatedAt: sql<string>`${memoryEntries.updatedAt}::text`,
    })
    .from(memoryEntries)
    .where(
      and(
        eq(memoryEntries.projectId, projectId),
        idx.watermark ? gt(memoryEntries.updatedAt, sql`${idx.watermark}::timestamptz`) : undefined,
      ),
    );
  const toEmbed: IndexedEntry[] = [];
  for (const r of changed) {
    const at = idx.byId.get(r.id);
    const row: IndexedEntry = {
      id: r.id,
      scope: r.scope,
      kind: r.kind,
      content: r.content,
      status: r.status,
      sourceEventId: r.sourceEventId,
    };
    if (at === undefined || idx.rows[at]!.content !== r.content) toEmbed.push(row);
    else idx.rows[at] = row;
    if (!idx.watermark || r.updatedAt > idx.watermark) idx.watermark = r.updatedAt;
  }
  if (toEmbed.length) {
    const vectors = await embedder.embed(toEmbed.map((r) => r.content));
    toEmbed.forEach((r, i) => indexPut(idx, r, vectors.subarray(i * embedder.dims, (i + 1) * embedder.dims)));
  }
  return idx;
}

function indexPut(idx: EntryIndex, row: IndexedEntry, vector: Float32Array) {
  const at = idx.byId.get(row.id);
  if (at !== undefined) {
    idx.rows[at] = row;
    idx.vectors.row(at).set(vector);
    return;
  }
  idx.byId.set(row.id, idx.rows.length);
  idx.rows.push(row);
  idx.vectors.push(vector);
}

/** Forgets a project's index (after a failed write, so nothing phantom stays in it). */
function dropIndex(db: object, projectId: string) {
  indexes.get(db)?.delete(projectId);
}

const K = 12;
/** Below this cosine a neighbour says nothing to dedup or conflict checks. */
const MIN_COSINE = 0.5;

function asNeighbour(idx: EntryIndex, row: number, cosine: number): Neighbour {
  const r = idx.rows[row]!;
  return { ...r, entryId: r.id, cosine };
}

/**
 * Every writer of entries holds this lock and stamps rows with clock_timestamp(), so the index's
 * watermark (newest updated_at it has read) never skips a row committed later.
 */
async function lockCuration(tx: Tx, projectId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`curation:${projectId}`}))`);
}

const NOW = sql`clock_timestamp()`;

/**
 * The live entries of a scope nearest in meaning to a text, from the curator's cached entry index
 * (nothing is re-embedded but the text): what a reviewer sees beside a proposal.
 */
export async function nearestInScope(
  db: Db,
  projectId: string,
  content: string,
  scope: string,
  k: number,
): Promise<(IndexedEntry & { cosine: number })[]> {
  const embedder = await serverEmbedder().catch(() => null);
  if (!embedder) return [];
  const idx = await entryIndex(db, db, projectId, embedder);
  const q = await embedder.embed([content]);
  const scores = idx.vectors.scoreAll(
    q,
    (row) => idx.rows[row]!.scope === scope && ACTIVE.includes(idx.rows[row]!.status),
  );
  return topK(scores, k).map((row) => ({ ...idx.rows[row]!, cosine: scores[row]! }));
}

// ——— Policy ———

export async function curationPolicy(db: Db | Tx, projectId: string): Promise<CurationPolicy> {
  const [p] = await db.select({ settings: projects.settings }).from(projects).where(eq(projects.id, projectId));
  const saved = (p?.settings.curation ?? {}) as Partial<CurationPolicy>;
  return { ...DEFAULT_POLICY, ...saved };
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

interface Planned {
  event: StoredEvent;
  decision: CurationDecision;
  entryId: string | null;
  latencyMs: number;
}

/**
 * Curates the memory events an ingest batch newly stored, and records the malformed ones with their
 * reasons. One transaction for the batch (serialized per project), so a report is never half-written.
 */
export async function curateBatch(
  db: Db,
  projectId: string,
  events: StoredEvent[],
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
  try {
    await db.transaction(async (tx) => {
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
        if (stored.length)
          await tx.insert(curationOutcomes).values(
            stored.map((s) => ({
              projectId,
              eventId: s.eventId ?? `malformed:${s.id}`,
              disposition: 'rejected',
              reason: `malformed: ${s.errors.map((e) => `${e.path || 'event'} ${e.message}`).join('; ')}`.slice(
                0,
                1000,
              ),
              rationale: { steps: [{ step: 'schema', outcome: 'malformed' }] },
              batchId,
              decidedBy: 'curator',
            })),
          );
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
        const decision = curate(e, neighbours, policy);
        const entryId =
          decision.disposition === 'written' && decision.operation === 'append'
            ? randomUUID()
            : decision.disposition === 'written'
              ? decision.targetEntryId
              : null;
        // Later events of the batch see what this one wrote.
        if (idx && vector && entryId && decision.operation === 'append')
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
        planned.push({ event: e, decision, entryId, latencyMs: performance.now() - t + embedMs + knnMs });
      }
      await writePlanned(tx, projectId, batchId, planned, counts);
    });
  } catch (error) {
    dropIndex(db, projectId);
    throw error;
  }
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
        sql`not exists (select 1 from ${curationOutcomes} o where o.project_id = ${memoryEvents.projectId} and o.event_id = ${memoryEvents.eventId})`,
      ),
    )
    .orderBy(memoryEvents.receivedAt)
    .limit(10_000);
  if (!rows.length) return null;
  const events = rows.map(toStoredEvent);
  return curateBatch(db, projectId, events, [], 'curator-recovery');
}

async function referencedEntries(tx: Tx, projectId: string, events: StoredEvent[]): Promise<IndexedEntry[]> {
  const refs = [...new Set(events.flatMap((e) => [...e.supersedes, ...e.conflictsWith]))];
  if (!refs.length) return [];
  const uuids = refs.filter((r) => /^[0-9a-f-]{36}$/i.test(r));
  return tx
    .select({
      id: memoryEntries.id,
      scope: memoryEntries.scope,
      kind: memoryEntries.kind,
      content: memoryEntries.content,
      status: memoryEntries.status,
      sourceEventId: memoryEntries.sourceEventId,
    })
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
  if (proposed.length)
    await tx.insert(proposals).values(
      proposed.map((p) => ({
        projectId,
        eventId: p.event.eventId,
        operation: p.decision.operation!,
        scope: p.decision.scope!,
        kind: p.decision.kind,
        content: p.event.content,
        rationale: { reason: p.decision.reason, reviewBecause: p.decision.reviewBecause, steps: p.decision.steps },
        targetEntryId: p.decision.targetEntryId,
        conflictsWith: p.decision.conflictsWith,
        confidence: p.event.confidence,
        sourceAgent: p.event.sourceAgent,
        batchId,
      })),
    );
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
  for (const p of planned) counts[p.decision.disposition]++;
}

// ——— Write operations (there is no delete) ———

interface WriteInput {
  scope: Scope;
  kind: Kind;
  content: string;
  eventId: string | null;
  targetEntryId: string | null;
  /** A record of the external artifact store, for a deprecation raised from the hygiene lab. */
  targetArtifactId?: string | null;
  conflictsWith: string[];
}

async function lockEntry(tx: Tx, projectId: string, id: string) {
  const [row] = await tx
    .select()
    .from(memoryEntries)
    .where(and(eq(memoryEntries.projectId, projectId), eq(memoryEntries.id, id)))
    .for('update');
  if (!row) throw new NotFoundError('memory entry', id);
  return row;
}

async function newVersion(
  tx: Tx,
  projectId: string,
  id: string,
  operation: string,
  change: { content?: string; scope?: string; kind?: string; status?: string },
  eventId: string | null,
  actor: string,
) {
  const cur = await lockEntry(tx, projectId, id);
  const next = {
    content: change.content ?? cur.content,
    scope: change.scope ?? cur.scope,
    kind: change.kind ?? cur.kind,
    status: change.status ?? cur.status,
  };
  await tx
    .update(memoryEntries)
    .set({ ...next, version: cur.version + 1, updatedAt: NOW })
    .where(eq(memoryEntries.id, id));
  await tx
    .insert(memoryEntryVersions)
    .values({ entryId: id, version: cur.version + 1, operation, ...next, eventId, createdBy: actor });
}

/** Applies one write operation; returns the entry it wrote or changed (null for discard). */
export async function applyOperation(
  tx: Tx,
  projectId: string,
  op: Operation,
  w: WriteInput,
  actor: string,
): Promise<string | null> {
  switch (op) {
    case 'discard':
      return null;
    case 'append':
    case 'conflict': {
      const id = randomUUID();
      const status = op === 'conflict' ? 'in_conflict' : 'active';
      await tx.insert(memoryEntries).values({
        id,
        projectId,
        scope: w.scope,
        kind: w.kind,
        content: w.content,
        status,
        sourceEventId: w.eventId,
        createdAt: NOW,
        updatedAt: NOW,
      });
      await tx.insert(memoryEntryVersions).values({
        entryId: id,
        version: 1,
        operation: op,
        scope: w.scope,
        kind: w.kind,
        content: w.content,
        status,
        eventId: w.eventId,
        createdBy: actor,
      });
      if (op === 'conflict') {
        for (const other of w.conflictsWith) {
          await newVersion(tx, projectId, other, 'conflict', { status: 'in_conflict' }, w.eventId, actor);
          await tx.insert(memoryEntryLinks).values([
            { projectId, entryId: id, otherId: other, relation: 'conflicts_with' },
            { projectId, entryId: other, otherId: id, relation: 'conflicts_with' },
          ]);
        }
      }
      return id;
    }
    case 'update': {
      if (!w.targetEntryId) throw new InvalidInputError('an update needs the entry it supersedes');
      await newVersion(
        tx,
        projectId,
        w.targetEntryId,
        'update',
        { content: w.content, scope: w.scope, kind: w.kind, status: 'active' },
        w.eventId,
        actor,
      );
      return w.targetEntryId;
    }
    case 'deprecate': {
      if (w.targetArtifactId) {
        const [a] = await tx
          .update(artifacts)
          .set({ status: 'deprecated', statusChangedAt: sql`now()`, statusChangedBy: actor })
          .where(and(eq(artifacts.projectId, projectId), eq(artifacts.id, w.targetArtifactId)))
          .returning({ id: artifacts.id });
        if (!a) throw new NotFoundError('record', w.targetArtifactId);
        await tx.insert(auditLog).values({
          projectId,
          actor,
          action: 'artifact.deprecate',
          subjectType: 'artifact',
          subjectId: w.targetArtifactId,
          detail: { eventId: w.eventId },
        });
        return null;
      }
      if (!w.targetEntryId) throw new InvalidInputError('a deprecation needs the entry it deprecates');
      await newVersion(tx, projectId, w.targetEntryId, 'deprecate', { status: 'deprecated' }, w.eventId, actor);
      return w.targetEntryId;
    }
  }
}

// ——— Reviewers' decisions ———

export interface Decision {
  action: 'approve' | 'reject';
  /** Required to reject. */
  reason?: string;
  /** Edit, then approve. */
  edits?: { content?: string; scope?: Scope; kind?: Kind };
}

/**
 * Decides one pending proposal and applies it, all in one transaction. Two reviewers deciding at
 * once: the first to commit wins; the other gets a ConflictError naming who decided and how.
 */
export async function decideProposal(
  db: Db,
  projectId: string,
  proposalId: string,
  d: Decision,
  reviewer: string,
): Promise<{ status: string; entryId: string | null }> {
  if (d.action === 'reject' && !d.reason?.trim()) throw new InvalidInputError('reason: a rejection needs a reason');
  if (d.edits?.scope && !(SCOPES as readonly string[]).includes(d.edits.scope))
    throw new InvalidInputError(`edits.scope: must be one of ${SCOPES.join(', ')}`);
  if (d.edits?.kind && !(KINDS as readonly string[]).includes(d.edits.kind))
    throw new InvalidInputError(`edits.kind: must be one of ${KINDS.join(', ')}`);
  if (d.edits?.content !== undefined && !d.edits.content.trim())
    throw new InvalidInputError('edits.content: must not be empty');
  const content = d.edits?.content !== undefined ? redactText(d.edits.content).text : undefined;
  try {
    return await applyDecision(db, projectId, proposalId, d, content, reviewer);
  } catch (error) {
    // A refused attempt (someone decided first) is audited too, outside the rolled-back transaction.
    if (error instanceof ConflictError)
      await db.insert(auditLog).values({
        projectId,
        actor: reviewer,
        action: 'proposal.refused',
        subjectType: 'proposal',
        subjectId: proposalId,
        detail: { attempted: d.action, reason: error.message },
      });
    throw error;
  }
}

async function applyDecision(
  db: Db,
  projectId: string,
  proposalId: string,
  d: Decision,
  content: string | undefined,
  reviewer: string,
): Promise<{ status: string; entryId: string | null }> {
  return db.transaction(async (tx) => {
    await lockCuration(tx, projectId);
    const status = d.action === 'approve' ? 'approved' : 'rejected';
    const [p] = await tx
      .update(proposals)
      .set({
        status,
        decidedAt: sql`now()`,
        decidedBy: reviewer,
        decisionNote: d.reason ?? null,
        ...(content !== undefined ? { content } : {}),
        ...(d.edits?.scope ? { scope: d.edits.scope } : {}),
        ...(d.edits?.kind ? { kind: d.edits.kind } : {}),
      })
      .where(and(eq(proposals.projectId, projectId), eq(proposals.id, proposalId), eq(proposals.status, 'pending')))
      .returning();
    if (!p) {
      const [cur] = await tx
        .select()
        .from(proposals)
        .where(and(eq(proposals.projectId, projectId), eq(proposals.id, proposalId)));
      if (!cur) throw new NotFoundError('proposal', proposalId);
      throw new ConflictError(
        `proposal already ${cur.status} by ${cur.decidedBy ?? 'someone'} at ${cur.decidedAt?.toISOString() ?? 'an earlier time'}; your decision was not applied`,
      );
    }
    const entryId =
      status === 'approved'
        ? await applyOperation(
            tx,
            projectId,
            p.operation as Operation,
            {
              scope: p.scope as Scope,
              kind: p.kind as Kind,
              content: p.content,
              eventId: p.eventId,
              targetEntryId: p.targetEntryId,
              targetArtifactId: p.targetArtifactId,
              conflictsWith: p.conflictsWith,
            },
            reviewer,
          )
        : null;
    const edited = d.edits && Object.keys(d.edits).length ? d.edits : null;
    await tx.insert(curationOutcomes).values({
      projectId,
      eventId: p.eventId,
      disposition: status,
      scope: p.scope,
      kind: p.kind,
      reason: d.reason ?? (edited ? 'edited, then approved' : 'approved'),
      rationale: { proposalId, operation: p.operation, edited: edited ? Object.keys(edited) : [] },
      entryId,
      decidedBy: reviewer,
    });
    await tx.insert(auditLog).values({
      projectId,
      actor: reviewer,
      action: `proposal.${status}`,
      subjectType: 'proposal',
      subjectId: proposalId,
      detail: {
        eventId: p.eventId,
        batchId: p.batchId,
        operation: p.operation,
        entryId,
        reason: d.reason ?? null,
        edited: edited ? Object.keys(edited) : [],
      },
    });
    return { status, entryId };
  });
}

/** Deprecates an entry from the memory browser (nothing is ever deleted). */
export async function deprecateEntry(db: Db, projectId: string, entryId: string, reason: string, actor: string) {
  if (!reason.trim()) throw new InvalidInputError('reason: say why the entry is no longer valid');
  await db.transaction(async (tx) => {
    await lockCuration(tx, projectId);
    const cur = await lockEntry(tx, projectId, entryId);
    if (cur.status === 'deprecated') throw new ConflictError('the entry is already deprecated');
    await newVersion(tx, projectId, entryId, 'deprecate', { status: 'deprecated' }, null, actor);
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'entry.deprecate',
      subjectType: 'memory_entry',
      subjectId: entryId,
      detail: { reason },
    });
  });
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
    const [p] = await tx
      .insert(proposals)
      .values({
        projectId,
        eventId,
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
