import { doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { Redaction } from '@/lib/ingest/contract';
import type { ScoreKind } from '@/lib/annotations/contract';
import { projects } from './projects';

/** A project's definition of a score: what values a score of that name may take (like Langfuse's score configs). */
export const scoreDefinitions = pgTable(
  'score_definitions',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    name: text('name').notNull(),
    kind: text('kind').$type<ScoreKind>().notNull(),
    /** Numeric scores: the allowed range (either end may be open). */
    min: doublePrecision('min'),
    max: doublePrecision('max'),
    /** Categorical scores: the allowed values, in the order they are offered. */
    categories: jsonb('categories').$type<string[]>().notNull().default([]),
    description: text('description'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.name] })],
);

/** The columns of a definition that check a value (what `scoreProblem` reads). */
export const definitionColumns = {
  name: scoreDefinitions.name,
  kind: scoreDefinitions.kind,
  min: scoreDefinitions.min,
  max: scoreDefinitions.max,
  categories: scoreDefinitions.categories,
  description: scoreDefinitions.description,
};

/**
 * Scores and comments on a turn, a CCS term, an artifact, a proposal or a memory entry, by a person (in the app) or
 * a judge (with an API key). Not tied to their target by a foreign key: a judge may score a turn before the turn
 * arrives, and an import brings annotations in any order.
 */
export const annotations = pgTable(
  'annotations',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    id: text('id').notNull(),
    target: text('target').notNull(),
    sessionId: text('session_id'),
    turn: integer('turn'),
    field: text('field'),
    term: text('term'),
    artifactId: text('artifact_id'),
    proposalId: text('proposal_id'),
    entryId: text('entry_id'),
    name: text('name'),
    /** The score's value as sent: a number, a boolean or a category. */
    value: jsonb('value').$type<number | boolean | string>(),
    comment: text('comment'),
    author: text('author').notNull(),
    /** Who stored it: a user name, `local-user`, or `api_key:<id>` (an automated judge). */
    actor: text('actor').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    redactions: jsonb('redactions').$type<Redaction[]>().notNull().default([]),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index('annotations_session_turn').on(t.projectId, t.sessionId, t.turn),
    index('annotations_created').on(t.projectId, t.createdAt, t.id),
    index('annotations_proposal').on(t.projectId, t.proposalId),
    index('annotations_entry').on(t.projectId, t.entryId),
  ],
);
