import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { CcsTerms } from '@/lib/ccs/contract';
import type { ArtifactRef, Footprint, Redaction } from '@/lib/ingest/contract';
import { projects } from './projects';

export const sessions = pgTable(
  'sessions',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    id: text('id').notNull(),
    agentId: text('agent_id').notNull(),
    title: text('title'),
    domain: text('domain'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /** False while the session exists only because turns named it; a session record then fills it in once. */
    declared: boolean('declared').notNull().default(false),
    // Fields of the session record beyond the known ones, kept so an export gives them back.
    extra: jsonb('extra').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] })],
);

export const turns = pgTable(
  'turns',
  {
    projectId: text('project_id').notNull(),
    sessionId: text('session_id').notNull(),
    turn: integer('turn').notNull(),
    agentId: text('agent_id').notNull(),
    input: text('input').notNull(),
    output: text('output').notNull(),
    /** The CCS as sent (a JSON object or the TOON-style text); null when it is exactly `ccs`, to store it once. */
    ccsRaw: jsonb('ccs_raw').$type<unknown>(),
    /** The CCS parsed into terms per field, so both forms render alike. */
    ccs: jsonb('ccs').$type<CcsTerms>().notNull(),
    recalled: jsonb('recalled').$type<ArtifactRef[]>().notNull(),
    qualified: jsonb('qualified').$type<ArtifactRef[]>().notNull(),
    footprint: jsonb('footprint').$type<Footprint>(),
    judge: jsonb('judge').$type<Record<string, number>>(),
    hallucination: doublePrecision('hallucination'),
    drift: doublePrecision('drift'),
    /** The timestamp as sent (kept verbatim for export); `ts` is the same instant, for queries. */
    timestamp: text('timestamp'),
    ts: timestamp('ts', { withTimezone: true, mode: 'string' }),
    extra: jsonb('extra').$type<Record<string, unknown>>().notNull().default({}),
    redactions: jsonb('redactions').$type<Redaction[]>().notNull().default([]),
    ingestedAt: timestamp('ingested_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.sessionId, t.turn] }),
    foreignKey({ columns: [t.projectId, t.sessionId], foreignColumns: [sessions.projectId, sessions.id] }),
    // A traced span is one turn: an export retried while its original is still being written cannot store it under
    // a second number (the insert's `on conflict do nothing` makes it a duplicate; server/services/otel-turns.ts).
    // The span before the session: calls that arrive after their turn find it by their parent span alone
    // (server/services/otel-pending.ts).
    uniqueIndex('turns_otel_span')
      .on(t.projectId, sql`(${t.extra}->'otel'->>'span_id')`, t.sessionId)
      .where(sql`(${t.extra}->'otel'->>'span_id') is not null`),
    // A trace's turns: calls that arrive after their turn under one of its calls (a chain inside the agent) find it.
    index('turns_otel_trace')
      .on(t.projectId, sql`(${t.extra}->'otel'->>'trace_id')`)
      .where(sql`(${t.extra}->'otel'->>'trace_id') is not null`),
  ],
);

/**
 * Spans of a trace whose turn has not arrived yet (lib/otel/otlp.ts `pending`): an exporter sends the calls of a
 * long agent invocation in earlier batches than the invocation's own span. Kept until the turn's span comes (then they
 * become its calls and are removed), or until the sweep places them as turns of their own
 * (server/services/otel-pending.ts); none is kept longer than 7 days. Stored redacted.
 */
export const otelPendingSpans = pgTable(
  'otel_pending_spans',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    traceId: text('trace_id').notNull(),
    spanId: text('span_id').notNull(),
    /** The span as OTLP/JSON carries it, and its resource's attributes. */
    span: jsonb('span').$type<Record<string, unknown>>().notNull(),
    resource: jsonb('resource').$type<unknown[]>().notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.traceId, t.spanId] }),
    index('otel_pending_spans_received').on(t.receivedAt),
  ],
);

/**
 * The sessions list's figures of one session, kept up to date as turns arrive (`server/services/session-stats.ts`,
 * `lib/sessions/stats.ts`), so that listing sessions never reads turns. Derived: not in project exports, rebuilt
 * from the turns on import.
 */
export const sessionStats = pgTable(
  'session_stats',
  {
    projectId: text('project_id').notNull(),
    sessionId: text('session_id').notNull(),
    turnCount: integer('turn_count').notNull().default(0),
    firstAt: timestamp('first_at', { withTimezone: true, mode: 'string' }),
    lastAt: timestamp('last_at', { withTimezone: true, mode: 'string' }),
    hSum: doublePrecision('h_sum').notNull().default(0),
    hN: integer('h_n').notNull().default(0),
    /** D̄ (ACC §5.3): the drift summed and counted over every turn but the first (lib/sessions/stats.ts). */
    dSum: doublePrecision('d_sum').notNull().default(0),
    dN: integer('d_n').notNull().default(0),
    /** The session's first turn number and its drift, which D̄ leaves out. */
    firstTurn: integer('first_turn'),
    firstDrift: doublePrecision('first_drift'),
    /** Turn numbers per footprint bucket (a power of two); at most 64 buckets of [sum, count]. */
    width: integer('width').notNull().default(1),
    ccs: jsonb('ccs').$type<[number, number][]>().notNull().default([]),
    transcript: jsonb('transcript').$type<[number, number][]>().notNull().default([]),
    /** A traced agent's work summed over the turns that sent it (whole OTLP traces): tokens in + out, cost, latency. */
    tokens: doublePrecision('tokens').notNull().default(0),
    tokensN: integer('tokens_n').notNull().default(0),
    cost: doublePrecision('cost').notNull().default(0),
    costN: integer('cost_n').notNull().default(0),
    latencySum: doublePrecision('latency_sum').notNull().default(0),
    latencyN: integer('latency_n').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.sessionId] }),
    foreignKey({ columns: [t.projectId, t.sessionId], foreignColumns: [sessions.projectId, sessions.id] }),
    index('session_stats_recent_idx').on(t.projectId, t.lastAt),
  ],
);

/**
 * The replay's digest of a session (`lib/ccs/digest.ts`): per-turn figures, change sizes and stress reduced to at
 * most 1,024 buckets, turn numbers as runs, constraint presence as runs; with the last turn's CCS, so the next turns
 * extend it (`server/services/session-digest.ts`). Derived: not in project exports, rebuilt from the turns.
 */
export const sessionDigests = pgTable(
  'session_digests',
  {
    projectId: text('project_id').notNull(),
    sessionId: text('session_id').notNull(),
    /** Turns the digest holds, and the number of the last. */
    turns: integer('turns').notNull(),
    lastTurn: integer('last_turn'),
    /** The session's declared stress turns the digest was built with (JSON text). */
    stressMeta: text('stress_meta').notNull(),
    digest: jsonb('digest').notNull(),
    lastCcs: jsonb('last_ccs').$type<CcsTerms>().notNull(),
    builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.sessionId] }),
    foreignKey({ columns: [t.projectId, t.sessionId], foreignColumns: [sessions.projectId, sessions.id] }),
  ],
);

/**
 * What happened to each CCS term of a session, turn by turn (added, removed, changed from/to another): the
 * provenance the replay shows on a term, looked up by term (its md5, so long terms fit the index). Derived with
 * the digest.
 */
export const termEvents = pgTable(
  'term_events',
  {
    projectId: text('project_id').notNull(),
    sessionId: text('session_id').notNull(),
    field: text('field').notNull(),
    term: text('term').notNull(),
    turn: integer('turn').notNull(),
    kind: text('kind').notNull(),
    other: text('other'),
  },
  (t) => [
    foreignKey({ columns: [t.projectId, t.sessionId], foreignColumns: [sessions.projectId, sessions.id] }),
    index('term_events_term_idx').on(t.projectId, t.sessionId, t.field, sql`md5(${t.term})`, t.turn),
  ],
);

/** The external artifact store M of the ACC loop: evidence referenced (not copied) by turns. */
export const artifacts = pgTable(
  'artifacts',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    id: text('id').notNull(),
    sessionId: text('session_id'),
    agentId: text('agent_id'),
    kind: text('kind'),
    content: text('content').notNull(),
    provenance: jsonb('provenance').$type<Record<string, unknown>>(),
    createdTurn: integer('created_turn'),
    /** The timestamp as sent (kept verbatim for export); `ts` is the same instant, for queries. */
    timestamp: text('timestamp'),
    ts: timestamp('ts', { withTimezone: true, mode: 'string' }),
    extra: jsonb('extra').$type<Record<string, unknown>>().notNull().default({}),
    redactions: jsonb('redactions').$type<Redaction[]>().notNull().default([]),
    ingestedAt: timestamp('ingested_at', { withTimezone: true }).notNull().defaultNow(),
    /** 'active', or 'deprecated' by an approved proposal (records are never deleted). */
    status: text('status').notNull().default('active'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }),
    statusChangedBy: text('status_changed_by'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] }), index('artifacts_session_idx').on(t.projectId, t.sessionId)],
);
