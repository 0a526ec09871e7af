import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { WebhookEvent } from '@/lib/webhooks/contract';
import { projects } from './projects';

/**
 * Where a project's decisions are announced: an admin's URL, the secret its calls are signed with (HMAC-SHA256; kept
 * in clear because every delivery needs it, shown to admins only), and which events it wants.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    events: jsonb('events').$type<WebhookEvent[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [index('webhooks_project').on(t.projectId)],
);

/**
 * The outbox: one row per call to make, written in the transaction that made the decision (so exactly the committed
 * decisions are announced), claimed by any instance for a short lease, retried with backoff until delivered or out
 * of attempts. The delivery log in Settings reads it.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: text('event').$type<WebhookEvent>().notNull(),
    /** The JSON body, exactly as it is signed and sent. */
    body: text('body').notNull(),
    /** `pending` (to send, or to retry), `delivered`, `failed` (out of attempts, or the hook was turned off). */
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    /** Set by the instance sending it now; another instance takes the row over once it has passed. */
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'string' }),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, mode: 'string' }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_due')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index('webhook_deliveries_log').on(t.projectId, t.createdAt),
  ],
);
