import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { EvidenceRef, Redaction } from '@/lib/ingest/contract';
import type { RetrievalSource, RetrievedItem } from '@/lib/curation/retrievals';
import type { Reader } from '@/lib/curation/read-as';
import { projects } from './projects';

/** Memory events exactly as emitters sent them (after redaction), in both known shapes. */
export const memoryEvents = pgTable(
  'memory_events',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    eventId: text('event_id').notNull(),
    /** 'agentlas' (memory_kind, string evidence refs) or 'legacy' (the Memory Curator paper's kind + object refs). */
    shape: text('shape').notNull(),
    sourceAgent: text('source_agent').notNull(),
    taskId: text('task_id'),
    kind: text('kind').notNull(),
    content: text('content').notNull(),
    suggestedScope: text('suggested_scope').notNull(),
    confidence: text('confidence').notNull(),
    sensitivity: text('sensitivity'),
    ttl: text('ttl'),
    evidenceRefs: jsonb('evidence_refs').$type<EvidenceRef[]>().notNull(),
    requestContext: jsonb('request_context').$type<Record<string, unknown>>(),
    supersedes: jsonb('supersedes').$type<string[]>().notNull().default([]),
    conflictsWith: jsonb('conflicts_with').$type<string[]>().notNull().default([]),
    humanReviewRequired: boolean('human_review_required').notNull().default(false),
    /** The event as sent, redacted, so an export gives back the emitter's own shape. */
    raw: jsonb('raw').$type<Record<string, unknown>>().notNull(),
    redactions: jsonb('redactions').$type<Redaction[]>().notNull().default([]),
    timestamp: text('timestamp').notNull(),
    /** The session, and the turn in it, at which the agent emitted it, when it said: the replay shows it there. */
    sessionId: text('session_id'),
    turn: integer('turn'),
    ts: timestamp('ts', { withTimezone: true, mode: 'string' }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.eventId] }),
    // The replay's turns: the events emitted at each, a window of turns at a time.
    index('memory_events_turn_idx')
      .on(t.projectId, t.sessionId, t.turn)
      .where(sql`${t.sessionId} is not null`),
    index('memory_events_agent_idx').on(t.projectId, t.sourceAgent),
    // The Events tab, newest first, a page at a time.
    index('memory_events_ts_idx').on(t.projectId, t.ts.desc(), t.eventId),
  ],
);

/** One row per curator decision on an event (the pipeline writes these). */
export const curationOutcomes = pgTable(
  'curation_outcomes',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    eventId: text('event_id').notNull(),
    disposition: text('disposition').notNull(),
    scope: text('scope'),
    kind: text('kind'),
    reason: text('reason'),
    rationale: jsonb('rationale').$type<Record<string, unknown>>().notNull().default({}),
    entryId: uuid('entry_id'),
    /** The ingest batch the event came in (reports group by it); null for a reviewer's decision. */
    batchId: uuid('batch_id'),
    /** Milliseconds the pipeline took for this event. */
    latencyMs: doublePrecision('latency_ms'),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: text('decided_by').notNull(),
  },
  (t) => [
    index('curation_outcomes_event_idx').on(t.projectId, t.eventId),
    index('curation_outcomes_batch_idx').on(t.projectId, t.batchId),
  ],
);

/** Writes the curator may not make itself: queued for a person to approve or reject. */
export const proposals = pgTable(
  'proposals',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    eventId: text('event_id').notNull(),
    operation: text('operation').notNull(),
    scope: text('scope').notNull(),
    kind: text('kind').notNull(),
    content: text('content').notNull(),
    rationale: jsonb('rationale').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').notNull().default('pending'),
    targetEntryId: uuid('target_entry_id'),
    /** A record of the external artifact store the proposal deprecates (raised from the hygiene lab). */
    targetArtifactId: text('target_artifact_id'),
    /** Entries the proposed memory disagrees with: approving keeps both and links them. */
    conflictsWith: jsonb('conflicts_with').$type<string[]>().notNull().default([]),
    confidence: text('confidence'),
    sourceAgent: text('source_agent'),
    batchId: uuid('batch_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by'),
    decisionNote: text('decision_note'),
  },
  (t) => [
    index('proposals_status_idx').on(t.projectId, t.status),
    // The inbox, oldest pending first, a page at a time.
    index('proposals_queue_idx').on(t.projectId, t.status, t.createdAt, t.eventId, t.id),
    // An event's proposal: its decision (GET /api/v1/memory-events/{id}) and the Events tab's outcome column.
    index('proposals_event_idx').on(t.projectId, t.eventId, t.createdAt),
  ],
);

/** Durable memory: the current version of each entry; history is in memory_entry_versions. */
export const memoryEntries = pgTable(
  'memory_entries',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    scope: text('scope').notNull(),
    kind: text('kind').notNull(),
    content: text('content').notNull(),
    status: text('status').notNull().default('active'),
    version: integer('version').notNull().default(1),
    sourceEventId: text('source_event_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('memory_entries_scope_idx').on(t.projectId, t.scope)],
);

export const memoryEntryVersions = pgTable(
  'memory_entry_versions',
  {
    entryId: uuid('entry_id')
      .notNull()
      .references(() => memoryEntries.id),
    version: integer('version').notNull(),
    operation: text('operation').notNull(),
    scope: text('scope').notNull(),
    kind: text('kind').notNull(),
    content: text('content').notNull(),
    status: text('status').notNull(),
    eventId: text('event_id'),
    createdBy: text('created_by').notNull(),
    /** Why, when a person made this version directly (the reason typed in Deprecate…). */
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.entryId, t.version] })],
);

/** Links between entries: both sides of a conflict, and what an update superseded. */
export const memoryEntryLinks = pgTable(
  'memory_entry_links',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => memoryEntries.id),
    otherId: uuid('other_id')
      .notNull()
      .references(() => memoryEntries.id),
    relation: text('relation').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.entryId, t.otherId, t.relation] })],
);

/** One row per ingest request that carried memory events: what curation reports are made of. */
export const ingestBatches = pgTable(
  'ingest_batches',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    actor: text('actor').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    events: integer('events').notNull(),
  },
  (t) => [index('ingest_batches_project_idx').on(t.projectId, t.receivedAt)],
);

/**
 * Memory events that failed the schema check: the reason and the (redacted) payload, so they can be
 * browsed. `key` hashes the payload, so the same malformed event sent twice is stored once.
 */
export const rejectedEvents = pgTable(
  'rejected_events',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    key: text('key').notNull(),
    eventId: text('event_id'),
    batchId: uuid('batch_id'),
    errors: jsonb('errors').$type<{ path: string; message: string }[]>().notNull(),
    raw: jsonb('raw').$type<unknown>(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('rejected_events_key_idx').on(t.projectId, t.key)],
);

/**
 * Every `search_memory` call of an agent (MCP): what it asked, redacted as memory text is, and what it got, in rank
 * order. Reviewers label the results (retrieval_judgments) for M6. Deleted after RETRIEVAL_KEEP_DAYS
 * (lib/curation/retrievals.ts): unlike memory, a search log is not kept for ever.
 */
export const memoryRetrievals = pgTable(
  'memory_retrievals',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Who searched, as the MCP layer knows the caller: `api_key:<id>`. */
    actor: text('actor').notNull(),
    query: text('query').notNull(),
    redactions: jsonb('redactions').$type<Redaction[]>().notNull().default([]),
    /** `hybrid` or `keyword`: the mode the search ran in (keyword when the server has no model). */
    mode: text('mode').notNull(),
    resultLimit: integer('result_limit').notNull(),
    items: jsonb('items').$type<RetrievedItem[]>().notNull().default([]),
    /**
     * The reader the search was limited to (its `reader` argument, empty values left out): it could return only what
     * that reader reads. Null: the search ran over the whole of durable memory.
     */
    reader: jsonb('reader').$type<Reader>(),
  },
  // The Retrievals tab, newest first, a page at a time; and the sweep of old ones.
  (t) => [index('memory_retrievals_at_idx').on(t.projectId, t.at.desc(), t.id)],
);

/**
 * A reviewer's label on one item of a logged search: relevant or not. `returned` is false for an item the reviewer
 * added because the search should have returned it. One per item and search: a later label replaces the earlier.
 */
export const retrievalJudgments = pgTable(
  'retrieval_judgments',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    retrievalId: uuid('retrieval_id')
      .notNull()
      .references(() => memoryRetrievals.id, { onDelete: 'cascade' }),
    source: text('source').$type<RetrievalSource>().notNull(),
    itemId: text('item_id').notNull(),
    relevant: boolean('relevant').notNull(),
    returned: boolean('returned').notNull(),
    /** The reviewer: a user name, or `local-user`. */
    judgedBy: text('judged_by').notNull(),
    judgedAt: timestamp('judged_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.retrievalId, t.source, t.itemId] })],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * The server's embedding of a project's text (a memory entry's content, an artifact's text), by model and the text's
 * SHA-256: read by a process that starts, or by another instance, instead of embedding every entry again
 * (server/services/text-vectors.ts). A vector is a function of the model and the text alone, so a row is written once
 * and never changed. Derived data: not exported with the project.
 */
export const textVectors = pgTable(
  'text_vectors',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    modelId: text('model_id').notNull(),
    /** SHA-256 of the text (UTF-8), in hex. */
    textSha256: text('text_sha256').notNull(),
    /** The unit vector, float32 little-endian. */
    vector: bytea('vector').notNull(),
    /** When it was stored: a model's rows are kept for a while after no instance stores any more of them. */
    storedAt: timestamp('stored_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.modelId, t.textSha256] })],
);
