import {
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  boolean,
} from 'drizzle-orm/pg-core';
import { projects } from './projects';

type Json = Record<string, unknown>;

const owner = {
  projectId: text('project_id')
    .notNull()
    .references(() => projects.id),
  agentId: text('agent_id').notNull(),
};

/**
 * A torus field engine state (the live state file or a snapshot), one per agent and engine step t.
 * The big parts get their own columns; `rest` holds everything else so the file can be rebuilt as sent.
 */
export const ucsSnapshots = pgTable(
  'ucs_snapshots',
  {
    ...owner,
    t: integer('t').notNull(),
    version: text('version'),
    thetaBins: integer('theta_bins').notNull(),
    phiBins: integer('phi_bins').notNull(),
    /** energy, memory, salience, context_energy, ...: flat row-major lists, idx = theta * phi_bins + phi. */
    fields: jsonb('fields').$type<Record<string, number[]>>().notNull(),
    ports: jsonb('ports').$type<Record<string, number>>(),
    graph: jsonb('graph').$type<Json>(),
    artifacts: jsonb('artifacts').$type<unknown[]>(),
    policy: jsonb('policy').$type<Json>(),
    pp: jsonb('pp').$type<Record<string, number>>(),
    trace: jsonb('trace').$type<Json>(),
    cursor: jsonb('cursor').$type<Json>(),
    injectionSchedule: jsonb('injection_schedule').$type<unknown[]>(),
    rest: jsonb('rest').$type<Json>().notNull(),
    source: text('source'),
    ingestedAt: timestamp('ingested_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.agentId, t.t] })],
);

/** Whole UCS documents kept verbatim (index, export package, pp history, status, consult samples, knowledge notes). */
export const ucsDocuments = pgTable(
  'ucs_documents',
  {
    ...owner,
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    content: jsonb('content').$type<unknown>().notNull(),
    source: text('source'),
    ingestedAt: timestamp('ingested_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.agentId, t.kind, t.key] })],
);

export const ucsArtifacts = pgTable(
  'ucs_artifacts',
  {
    ...owner,
    id: text('id').notNull(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Json>().notNull(),
    score: doublePrecision('score'),
    createdT: integer('created_t'),
    meta: jsonb('meta').$type<Json>(),
    lastSeenT: integer('last_seen_t'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.agentId, t.id] })],
);

export const ucsAnnotations = pgTable(
  'ucs_annotations',
  {
    ...owner,
    artifactId: text('artifact_id').notNull(),
    text: text('text'),
    failureCondition: text('failure_condition'),
    generalizedPattern: text('generalized_pattern'),
    annotatedAt: text('annotated_at'),
    data: jsonb('data').$type<Json>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.agentId, t.artifactId] })],
);

export const ucsMethodology = pgTable(
  'ucs_methodology',
  {
    ...owner,
    id: text('id').notNull(),
    date: text('date'),
    summary: text('summary').notNull(),
    sourceType: text('source_type'),
    capabilities: jsonb('capabilities').$type<string[]>().notNull().default([]),
    keywords: jsonb('keywords').$type<string[]>().notNull().default([]),
    data: jsonb('data').$type<Json>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.agentId, t.id] })],
);

export const ucsDeadEnds = pgTable(
  'ucs_dead_ends',
  {
    ...owner,
    id: text('id').notNull(),
    date: text('date'),
    topic: text('topic').notNull(),
    whyClosed: text('why_closed'),
    reopenConditions: text('reopen_conditions'),
    /** How often the bridge recorded this dead end in one document (it may write the same one twice). */
    occurrences: integer('occurrences').notNull().default(1),
    capabilities: jsonb('capabilities').$type<string[]>().notNull().default([]),
    keywords: jsonb('keywords').$type<string[]>().notNull().default([]),
    data: jsonb('data').$type<Json>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.agentId, t.id] })],
);

export const ucsJudgments = pgTable(
  'ucs_judgments',
  {
    ...owner,
    id: text('id').notNull(),
    ts: text('ts'),
    action: text('action'),
    outcome: text('outcome'),
    outcomeSuccess: text('outcome_success'),
    significance: text('significance'),
    reward: doublePrecision('reward'),
    data: jsonb('data').$type<Json>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.agentId, t.id] })],
);

export const ucsPpHistory = pgTable(
  'ucs_pp_history',
  {
    ...owner,
    t: integer('t').notNull(),
    ts: text('ts'),
    pp: jsonb('pp').$type<Record<string, number>>().notNull(),
    health: doublePrecision('health'),
    data: jsonb('data').$type<Json>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.agentId, t.t] })],
);

export const ucsActions = pgTable(
  'ucs_actions',
  {
    ...owner,
    t: integer('t').notNull(),
    ts: text('ts'),
    action: text('action').notNull(),
    outcome: text('outcome'),
    success: text('success'),
    significance: text('significance'),
    reward: doublePrecision('reward'),
    edge: text('edge'),
    cursorBefore: text('cursor_before'),
    cursorAfter: text('cursor_after'),
    routed: boolean('routed'),
    /** The action log line as written by the bridge. */
    data: jsonb('data').$type<Json>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.agentId, t.t] }),
    index('ucs_actions_action_idx').on(t.projectId, t.agentId, t.action),
  ],
);

export const ucsPolicyOverrides = pgTable(
  'ucs_policy_overrides',
  {
    ...owner,
    key: text('key').notNull(),
    t: integer('t'),
    fromNode: text('from_node'),
    toNode: text('to_node'),
    reason: text('reason'),
    data: jsonb('data').$type<Json>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.agentId, t.key] })],
);
