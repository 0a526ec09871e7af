import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Db, type DbHandle, type Tx } from '@/server/db';
import { auditLog } from '@/server/db/schema/projects';
import { webhookDeliveries, webhooks } from '@/server/db/schema/webhooks';
import {
  MAX_DELIVERY_ATTEMPTS,
  SIGNATURE_HEADER,
  WEBHOOK_EVENTS,
  retryDelaySeconds,
  signWebhook,
  webhookUrlProblem,
  type WebhookEvent,
} from '@/lib/webhooks/contract';
import { log } from '@/server/log';
import { onShutdown, shuttingDown } from '@/server/lifecycle';
import { InvalidInputError, NotFoundError } from './errors';
import { notify } from './live';

/**
 * Per-project webhooks: an admin's URL is called, signed, when the curator asks for a review, a reviewer decides, or
 * an entry is deprecated. Deliveries are an outbox in the database, written in the deciding transaction; any
 * instance sends what is due (woken by NOTIFY, and every few seconds), holding a row by a short lease so that two
 * instances never send it at once, and a crashed instance's row is taken over when its lease runs out.
 */

export const WEBHOOKS_CHANNEL = 'mnemoscope_webhooks';
/** How long an instance may take over one call before another may try it. */
const LEASE_SECONDS = 60;
const TIMEOUT_MS = 10_000;
const BATCH = 10;

export interface WebhookInput {
  url: string;
  events: WebhookEvent[];
}

function check(w: WebhookInput) {
  const problem = webhookUrlProblem(w.url);
  if (problem) throw new InvalidInputError(`url: ${problem}`);
  if (!w.events.length) throw new InvalidInputError('events: choose at least one');
  const unknown = w.events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (unknown.length) throw new InvalidInputError(`events: ${unknown.join(', ')} is not one of ${WEBHOOK_EVENTS}`);
}

export async function createWebhook(db: Db, projectId: string, w: WebhookInput, actor: string) {
  check(w);
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhooks)
      .values({ projectId, url: w.url, events: [...new Set(w.events)], secret, createdBy: actor })
      .returning();
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'webhook.create',
      subjectType: 'webhook',
      subjectId: row!.id,
      // The origin only: a hook's path may carry its token (Slack, Discord), and viewers read the audit log.
      detail: { origin: new URL(w.url).origin, events: row!.events },
    });
    return row!;
  });
}

/** The project's webhooks (without their secrets), each with its deliveries counted by status. */
export async function listWebhooks(db: Tx, projectId: string) {
  const [hooks, counts] = await Promise.all([
    db
      .select({
        id: webhooks.id,
        url: webhooks.url,
        events: webhooks.events,
        enabled: webhooks.enabled,
        createdBy: webhooks.createdBy,
        createdAt: webhooks.createdAt,
      })
      .from(webhooks)
      .where(eq(webhooks.projectId, projectId))
      .orderBy(webhooks.createdAt),
    db
      .select({ id: webhookDeliveries.webhookId, status: webhookDeliveries.status, n: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.projectId, projectId))
      .groupBy(webhookDeliveries.webhookId, webhookDeliveries.status),
  ]);
  return hooks.map((h) => {
    const mine = counts.filter((c) => c.id === h.id);
    const n = (s: string) => mine.find((c) => c.status === s)?.n ?? 0;
    return { ...h, delivered: n('delivered'), pending: n('pending'), failed: n('failed') };
  });
}

/** One webhook's secret, for an admin who asks to see it (to set up or check a receiver). */
export async function webhookSecret(db: Tx, projectId: string, id: string): Promise<string> {
  const [row] = await db
    .select({ secret: webhooks.secret })
    .from(webhooks)
    .where(and(eq(webhooks.projectId, projectId), eq(webhooks.id, id)));
  if (!row) throw new NotFoundError('webhook', id);
  return row.secret;
}

async function audit(tx: Tx, projectId: string, actor: string, action: string, id: string, detail = {}) {
  await tx.insert(auditLog).values({ projectId, actor, action, subjectType: 'webhook', subjectId: id, detail });
}

/** Turns a webhook on or off; turned off, its waiting deliveries fail when they come due. */
export async function setWebhookEnabled(db: Db, projectId: string, id: string, enabled: boolean, actor: string) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhooks)
      .set({ enabled })
      .where(and(eq(webhooks.projectId, projectId), eq(webhooks.id, id)))
      .returning({ id: webhooks.id });
    if (!row) throw new NotFoundError('webhook', id);
    await audit(tx, projectId, actor, enabled ? 'webhook.enable' : 'webhook.disable', id);
  });
}

/** Removes a webhook and its delivery log (the audit keeps that it existed). */
export async function removeWebhook(db: Db, projectId: string, id: string, actor: string) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(webhooks)
      .where(and(eq(webhooks.projectId, projectId), eq(webhooks.id, id)))
      .returning({ url: webhooks.url });
    if (!row) throw new NotFoundError('webhook', id);
    await audit(tx, projectId, actor, 'webhook.remove', id, { origin: new URL(row.url).origin });
  });
}

/** The delivery log, newest first: of one webhook, or of all. */
export async function listDeliveries(db: Tx, projectId: string, f: { webhookId?: string | null; limit?: number }) {
  return db
    .select({
      id: webhookDeliveries.id,
      webhookId: webhookDeliveries.webhookId,
      url: webhooks.url,
      event: webhookDeliveries.event,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      lastStatus: webhookDeliveries.lastStatus,
      lastError: webhookDeliveries.lastError,
      lastAttemptAt: webhookDeliveries.lastAttemptAt,
      deliveredAt: webhookDeliveries.deliveredAt,
      createdAt: webhookDeliveries.createdAt,
      body: webhookDeliveries.body,
    })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(
      and(
        eq(webhookDeliveries.projectId, projectId),
        f.webhookId ? eq(webhookDeliveries.webhookId, f.webhookId) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(f.limit ?? 50);
}

/** Sends a delivery again, as a new delivery with the same body (the log keeps both). */
export async function redeliver(db: Db, projectId: string, deliveryId: string, actor: string) {
  return db.transaction(async (tx) => {
    const [d] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.projectId, projectId), eq(webhookDeliveries.id, deliveryId)));
    if (!d) throw new NotFoundError('delivery', deliveryId);
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({ projectId, webhookId: d.webhookId, event: d.event, body: d.body })
      .returning({ id: webhookDeliveries.id });
    await audit(tx, projectId, actor, 'webhook.redeliver', d.webhookId, { delivery: deliveryId, again: row!.id });
    await notify(tx, WEBHOOKS_CHANNEL, projectId, ['due']);
    return row!;
  });
}

/**
 * Queues one call per enabled webhook of the project that wants `event`, for each payload (or what `payloads()`
 * makes, called only when a hook wants the event); part of the deciding transaction, so a decision that rolls back
 * announces nothing.
 */
export async function enqueueWebhooks(
  tx: Tx,
  projectId: string,
  event: WebhookEvent,
  payloads: object[] | (() => Promise<object[]>),
) {
  if (Array.isArray(payloads) && !payloads.length) return;
  const hooks = await tx
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.projectId, projectId),
        eq(webhooks.enabled, true),
        sql`${webhooks.events} @> ${JSON.stringify([event])}::jsonb`,
      ),
    );
  if (!hooks.length) return;
  // Built only when some hook wants it (a decision's payload reads the decision again).
  const bodies = Array.isArray(payloads) ? payloads : await payloads();
  const at = new Date().toISOString();
  const rows = hooks.flatMap((h) =>
    bodies.map((data) => {
      const id = randomUUID();
      return {
        id,
        projectId,
        webhookId: h.id,
        event,
        body: JSON.stringify({ id, type: event, created_at: at, project_id: projectId, data }),
      };
    }),
  );
  for (let i = 0; i < rows.length; i += 1000) await tx.insert(webhookDeliveries).values(rows.slice(i, i + 1000));
  await notify(tx, WEBHOOKS_CHANNEL, projectId, ['due']);
}

interface Claimed {
  id: string;
  webhook_id: string;
  event: string;
  body: string;
  attempts: number;
}

/**
 * Sends what is due, at most `limit` calls: claims them under a lease (SKIP LOCKED, so instances never take the same
 * row), posts each signed, then records the answer. Returns how many it claimed.
 */
export async function deliverDue(db: Db, o: { limit?: number; fetch?: typeof fetch } = {}): Promise<number> {
  const claimed = rowsOf<Claimed>(
    await db.execute(sql`
      update webhook_deliveries d
         set lease_until = now() + make_interval(secs => ${LEASE_SECONDS}),
             attempts = d.attempts + 1,
             last_attempt_at = now()
       where d.id in (select id from webhook_deliveries
                       where status = 'pending' and next_attempt_at <= now()
                         and (lease_until is null or lease_until < now())
                       order by next_attempt_at
                       limit ${o.limit ?? BATCH}
                       for update skip locked)
      returning d.id, d.webhook_id, d.event, d.body, d.attempts`),
  );
  if (!claimed.length) return 0;
  const hooks = await db
    .select({ id: webhooks.id, url: webhooks.url, secret: webhooks.secret, enabled: webhooks.enabled })
    .from(webhooks)
    .where(
      inArray(
        webhooks.id,
        claimed.map((c) => c.webhook_id),
      ),
    );
  await Promise.all(
    claimed.map(async (c) => {
      const hook = hooks.find((h) => h.id === c.webhook_id);
      const result = !hook?.enabled
        ? { ok: false, status: null, error: 'the webhook is turned off', final: true }
        : await post(hook.url, hook.secret, c, o.fetch ?? fetch);
      await record(db, c, result);
    }),
  );
  return claimed.length;
}

interface Sent {
  ok: boolean;
  status: number | null;
  error: string | null;
  final?: boolean;
  retryAfterSeconds?: number;
}

async function post(url: string, secret: string, c: Claimed, fetchImpl: typeof fetch): Promise<Sent> {
  const signature = await signWebhook(secret, c.body, Math.floor(Date.now() / 1000));
  try {
    const res = await fetchImpl(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Mnemoscope-Webhooks/1',
        [SIGNATURE_HEADER]: signature,
        'mnemoscope-event': c.event,
        // The body's id: the same on a re-send, so a receiver can tell it has seen this announcement.
        'mnemoscope-delivery': (JSON.parse(c.body) as { id: string }).id,
      },
      body: c.body,
      // A redirect is an answer, not a new target: the signed body goes only where the admin said.
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text().catch(() => '');
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status, error: null };
    const after = Number(res.headers.get('retry-after'));
    return {
      ok: false,
      status: res.status,
      error: `HTTP ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}`,
      ...(Number.isFinite(after) && after > 0 ? { retryAfterSeconds: Math.min(after, 3600) } : {}),
    };
  } catch (e) {
    const err = e as Error & { cause?: Error };
    const why =
      err.name === 'TimeoutError' ? `no answer in ${TIMEOUT_MS / 1000} s` : (err.cause?.message ?? err.message);
    return { ok: false, status: null, error: why.slice(0, 300) };
  }
}

async function record(db: Db, c: Claimed, r: Sent) {
  const last = { lastStatus: r.status, lastError: r.error, leaseUntil: null };
  // Only while the claim is still ours: past its lease another instance may have taken the row and tried again.
  const mine = and(eq(webhookDeliveries.id, c.id), eq(webhookDeliveries.attempts, c.attempts));
  if (r.ok) {
    await db
      .update(webhookDeliveries)
      .set({ ...last, status: 'delivered', deliveredAt: sql`now()` })
      .where(mine);
    return;
  }
  const giveUp = r.final || c.attempts >= MAX_DELIVERY_ATTEMPTS;
  const wait = Math.max(retryDelaySeconds(c.attempts), r.retryAfterSeconds ?? 0);
  await db
    .update(webhookDeliveries)
    .set({
      ...last,
      status: giveUp ? 'failed' : 'pending',
      nextAttemptAt: sql`now() + make_interval(secs => ${wait})`,
    })
    .where(mine);
}

const g = globalThis as unknown as { __mnemoscopeWebhooks?: { handle: DbHandle; stop: () => Promise<void> } };
/** How often an instance looks for due deliveries without being told (retries come due this way). */
const POLL_MS = 5000;

/**
 * Sends due deliveries from this process, as long as it runs: on every NOTIFY of new ones and every few seconds. One
 * worker per process; started again for another database handle (tests open several in turn). A shutdown stops it
 * and waits for the deliveries under way (each at most TIMEOUT_MS), so that their outcome is recorded rather than
 * sent again by another instance once their lease has run out.
 */
export function startWebhookWorker(handle: DbHandle) {
  if (g.__mnemoscopeWebhooks?.handle === handle) return;
  void g.__mnemoscopeWebhooks?.stop();
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const run = async () => {
    // Nothing new is claimed once the instance is shutting down (requests may still be draining): a batch claimed
    // then would hold the shutdown for up to TIMEOUT_MS after the drain.
    if (stopped || shuttingDown()) return;
    if (running) return void (again = true);
    running = (async () => {
      try {
        do {
          again = false;
          while (!stopped && !shuttingDown() && (await deliverDue(handle.db)) === BATCH);
        } while (again && !stopped && !shuttingDown());
      } catch (e) {
        if (!stopped) log.warn({ event: 'webhooks', err: (e as Error).message }, 'webhook deliveries failed to run');
      } finally {
        running = null;
      }
    })();
    await running;
  };
  const timer = setInterval(() => void run(), POLL_MS);
  timer.unref?.();
  let unlisten: (() => Promise<void>) | null = null;
  void handle
    .listen(
      WEBHOOKS_CHANNEL,
      () => void run(),
      () => void run(),
    )
    .then((off) => {
      if (stopped) void off();
      else unlisten = off;
    })
    .catch(() => undefined);
  const stop = async () => {
    stopped = true;
    clearInterval(timer);
    unregister();
    if (g.__mnemoscopeWebhooks?.stop === stop) g.__mnemoscopeWebhooks = undefined;
    void unlisten?.().catch(() => undefined);
    await running;
  };
  const unregister = onShutdown(stop);
  g.__mnemoscopeWebhooks = { handle, stop };
  void run();
}
