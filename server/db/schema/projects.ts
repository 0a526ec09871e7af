import { sql } from 'drizzle-orm';
import { jsonb, pgTable, primaryKey, text, timestamp, uuid, index, bigserial } from 'drizzle-orm/pg-core';

export const projects = pgTable('projects', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    name: text('name').notNull(),
    // First characters of the key, shown so a person can tell keys apart; the key itself is never stored.
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    /**
     * `agent`: sends sessions and memory, reads through MCP and exports single sessions. `admin`: also exports and
     * imports the whole project (every session, entry and audit record).
     */
    role: text('role', { enum: ['agent', 'admin'] })
      .notNull()
      .default('agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_project_idx').on(t.projectId)],
);

export const agents = pgTable(
  'agents',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    id: text('id').notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] })],
);

/** Append-only: a trigger in the migrations refuses UPDATE and DELETE. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('audit_log_subject_idx').on(t.projectId, t.subjectType, t.subjectId)],
);

/** People who sign in (users mode). Passwords as scrypt hashes; nothing else secret is kept. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  username: text('username').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
});

/**
 * A user's role in a project: viewer reads, reviewer also decides proposals, admin also manages keys, members and
 * policy.
 */
export const memberships = pgTable(
  'memberships',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] })],
);

/** Sign-in sessions; the cookie holds a random token, the table only its SHA-256. */
export const userSessions = pgTable(
  'user_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('user_sessions_user_idx').on(t.userId)],
);

/**
 * Versions of records that a request superseded (a correction sent with `supersede`): the stored row as it was,
 * which fields the new version changed, and who sent it. Append-only, like the audit log.
 */
export const recordVersions = pgTable(
  'record_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    recordType: text('record_type').notNull(),
    /** The record's own id: a session or artifact id, `session/turn` for a turn, an annotation id. */
    recordId: text('record_id').notNull(),
    fields: jsonb('fields').$type<string[]>().notNull(),
    old: jsonb('old').$type<Record<string, unknown>>().notNull(),
    supersededBy: text('superseded_by').notNull(),
    supersededAt: timestamp('superseded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('record_versions_record').on(t.projectId, t.recordType, t.recordId)],
);
