import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@/server/db';
import { webhookDeliveries } from '@/server/db/schema/webhooks';
import { auditLog } from '@/server/db/schema/projects';
import { DRIVERS, freshDb } from '@/server/test/db';
import { verifyWebhook } from '@/lib/webhooks/contract';
import { decideProposal, deprecateEntry } from './curation-decisions';
import { awaitDecision, memoryEventDecision } from './decisions';
import { ingest } from './ingest';
import { ensureProject } from './projects';
import { beginShutdown, finishWork } from '@/server/lifecycle';
import {
  createWebhook,
  deliverDue,
  listDeliveries,
  redeliver,
  setWebhookEnabled,
  startWebhookWorker,
} from './webhooks';

const event = (id: string, over: Record<string, unknown> = {}) => ({
  ok: true as const,
  value: {
    type: 'memory_event',
    data: {
      event_id: id,
      content: 'The payments team owns the ledger reconciliation job and its alerts.',
      memory_kind: 'fact',
      suggested_scope: 'team_memory',
      source_agent: 'ops-bot',
      task_id: 'T-1',
      confidence: 'high',
      sensitivity: 'internal',
      ttl: 'durable',
      evidence_refs: ['commit:abc1234'],
      timestamp: '2026-11-25T10:00:00Z',
      ...over,
    },
  },
});

/**
 * A receiver on 127.0.0.1 that answers with the statuses given, in turn (then 200), `delayMs` after a request has
 * arrived, and keeps what it got.
 */
function receiver(statuses: number[] = []) {
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const rx = { got, url: Promise.resolve(''), delayMs: 0, close: () => new Promise((r) => server.close(r)) };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.statusCode = statuses.shift() ?? 200;
      setTimeout(() => res.end(res.statusCode === 200 ? 'ok' : 'try later'), rx.delayMs);
    });
  });
  rx.url = new Promise<string>((r) =>
    server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)),
  );
  return rx;
}

describe.each(DRIVERS)('decisions flow back to agents on %s', (driver) => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb(driver);
    await ensureProject(h.db, 'default', 'Default');
  }, 120_000);
  afterAll(() => h?.close());

  it('answers what became of an event: proposed (open), then approved as edited, the entry as it is now', async () => {
    await ingest(h.db, 'default', [event('memevt_decision_1')], 'api_key:k');
    const open = await memoryEventDecision(h.db, 'default', 'memevt_decision_1');
    expect(open).toMatchObject({ disposition: 'proposed', final: false, proposal_status: 'pending', entry: null });
    // With no public URL set, links are paths of this app.
    expect(open!.review_url).toBe(`/curation?proposal=${open!.proposal_id}`);
    // An agent waits; a reviewer edits and approves meanwhile; the wait ends with the decision, well before its limit.
    const t0 = Date.now();
    const waiting = awaitDecision(h, 'default', 'memevt_decision_1', 20_000);
    await new Promise((r) => setTimeout(r, 300));
    await decideProposal(
      h.db,
      'default',
      open!.proposal_id!,
      { action: 'approve', edits: { content: 'The payments team owns ledger reconciliation.' } },
      'ana',
    );
    const d = await waiting;
    expect(Date.now() - t0).toBeLessThan(4000);
    expect(d).toMatchObject({
      disposition: 'approved',
      final: true,
      edited: ['content'],
      decided_by: 'ana',
      entry: { content: 'The payments team owns ledger reconciliation.', status: 'active', version: 1 },
    });
    expect(d!.history.map((x) => x.disposition)).toEqual(['proposed', 'approved']);
    // A later deprecation shows on the entry, with its reason.
    await deprecateEntry(
      h.db,
      'default',
      d!.entry!.id,
      ' the team was reorganized (token ghp_abcdefghijklmnopqrstuvwxyz0123456789)',
      'bo',
    );
    const deprecated = (await memoryEventDecision(h.db, 'default', 'memevt_decision_1'))!.entry;
    expect(deprecated).toMatchObject({ status: 'deprecated', changed_by: 'bo' });
    // The history keeps the reason, redacted as the entry's content is.
    expect(deprecated!.note).toMatch(/^the team was reorganized \(token \[REDACTED:github_token]\)$/);
    expect(JSON.stringify(await h.db.select({ d: auditLog.detail }).from(auditLog))).not.toContain('ghp_abcdefghij');
  });

  it('names the rejection reason, the entry a duplicate repeats, and knows no event it never got', async () => {
    await ingest(h.db, 'default', [event('memevt_decision_2', { content: 'The search team owns the indexer.' })], 'k');
    const p = (await memoryEventDecision(h.db, 'default', 'memevt_decision_2'))!;
    // A reason is redacted as memory text is (the agent, the proposal and the audit log read it), and trimmed.
    const reason = '  not true; the indexer key AKIAIOSFODNN7EXAMPLE is the search team’s ';
    await decideProposal(h.db, 'default', p.proposal_id!, { action: 'reject', reason }, 'ana');
    expect(await memoryEventDecision(h.db, 'default', 'memevt_decision_2')).toMatchObject({
      disposition: 'rejected',
      final: true,
      reason: expect.stringMatching(/^not true; the indexer key \[REDACTED:aws_access_key] is the search team’s$/),
      entry: null,
    });
    const said = JSON.stringify(await h.db.select({ d: auditLog.detail }).from(auditLog));
    expect(said).toContain('not true; the indexer key');
    expect(said).not.toContain('AKIAIOSFODNN7EXAMPLE');
    const fact = { suggested_scope: 'project', content: 'Rollbacks of checkout take four minutes end to end.' };
    await ingest(h.db, 'default', [event('memevt_decision_3', fact)], 'k');
    await ingest(h.db, 'default', [event('memevt_decision_4', fact)], 'k');
    const first = (await memoryEventDecision(h.db, 'default', 'memevt_decision_3'))!;
    expect(first).toMatchObject({ disposition: 'written', final: true });
    expect(await memoryEventDecision(h.db, 'default', 'memevt_decision_4')).toMatchObject({
      disposition: 'duplicate',
      duplicate_of: { id: first.entry_id, content: fact.content },
    });
    expect(await memoryEventDecision(h.db, 'default', 'memevt_neversent')).toBeNull();
    // Waiting on an event that never comes ends at the limit, with nothing.
    expect(await awaitDecision(h, 'default', 'memevt_neversent', 200)).toBeNull();
  });

  it('curates an event sent whole under the id of a malformed one refused before, and answers for it', async () => {
    const fact = { suggested_scope: 'project', content: 'Staging databases are rebuilt every Sunday at 02:00 UTC.' };
    const bad = event('memevt_decision_6', { ...fact, memory_kind: undefined });
    const refused = await ingest(h.db, 'default', [bad], 'k');
    expect(refused.results[0]!.status).toBe('rejected');
    expect(await memoryEventDecision(h.db, 'default', 'memevt_decision_6')).toMatchObject({
      disposition: 'rejected',
      reason: expect.stringMatching(/^malformed: data\.memory_kind required/),
    });
    // Sent again, whole: stored and curated (it was stored, then skipped as decided, and answered 'rejected').
    const fixed = await ingest(h.db, 'default', [event('memevt_decision_6', fact)], 'k');
    expect(fixed.results[0]!.status).toBe('accepted');
    expect(fixed.curation).toMatchObject({ events: 1, written: 1 });
    const d = (await memoryEventDecision(h.db, 'default', 'memevt_decision_6'))!;
    expect(d).toMatchObject({ disposition: 'written', final: true, entry: { content: fact.content } });
    expect(d.history.map((x) => x.disposition)).toEqual(['rejected', 'written']);
    // A malformed copy sent after it (another one: the first is a repeat) changes neither what became of the event
    // nor its history; it is kept among the malformed events.
    const copy = event('memevt_decision_6', { ...fact, content: 'Staging is rebuilt on Sundays.', memory_kind: 1 });
    expect((await ingest(h.db, 'default', [copy], 'k')).curation).toMatchObject({ rejected: 1 });
    const after = (await memoryEventDecision(h.db, 'default', 'memevt_decision_6'))!;
    expect(after).toMatchObject({ disposition: 'written' });
    expect(after.history.map((x) => x.disposition)).toEqual(['rejected', 'written']);
  });

  it('a pending review still pending at the limit comes back open', async () => {
    await ingest(h.db, 'default', [event('memevt_decision_5', { content: 'The infra team owns DNS.' })], 'k');
    expect(await awaitDecision(h, 'default', 'memevt_decision_5', 300)).toMatchObject({
      disposition: 'proposed',
      final: false,
    });
  });
});

describe.each(DRIVERS)('webhooks on %s', (driver) => {
  let h: DbHandle;
  const rx = receiver([500]);
  let secret = '';
  let hookId = '';
  beforeAll(async () => {
    h = await freshDb(driver);
    await ensureProject(h.db, 'default', 'Default');
    const w = await createWebhook(
      h.db,
      'default',
      { url: await rx.url, events: ['proposal.created', 'proposal.decided'] },
      'admin',
    );
    secret = w.secret;
    hookId = w.id;
  }, 120_000);
  afterAll(async () => {
    await rx.close();
    await h?.close();
  });

  it('refuses a URL that is not http(s) or carries credentials, and no events, naming the field', async () => {
    await expect(createWebhook(h.db, 'default', { url: 'ftp://x', events: ['proposal.created'] }, 'a')).rejects.toThrow(
      /^url: must be http or https/,
    );
    await expect(
      createWebhook(h.db, 'default', { url: 'https://u:p@x.org', events: ['proposal.created'] }, 'a'),
    ).rejects.toThrow(/^url: must not carry a user name/);
    await expect(createWebhook(h.db, 'default', { url: 'https://x.org', events: [] }, 'a')).rejects.toThrow(
      /^events: choose at least one/,
    );
  });

  it('calls the URL, signed, for a new proposal and its decision; retries a failed call later', async () => {
    // Behind a proxy at a public address, the links a receiver gets are absolute (a trailing slash is not doubled).
    process.env.MNEMOSCOPE_PUBLIC_URL = 'https://mnemoscope.example.com/';
    let p: Awaited<ReturnType<typeof memoryEventDecision>>;
    try {
      await ingest(h.db, 'default', [event('memevt_hooked_1')], 'k');
      p = (await memoryEventDecision(h.db, 'default', 'memevt_hooked_1'))!;
      await decideProposal(h.db, 'default', p.proposal_id!, { action: 'approve' }, 'ana');
    } finally {
      delete process.env.MNEMOSCOPE_PUBLIC_URL;
    }
    // Both calls are due; the receiver fails the first it gets.
    expect(await deliverDue(h.db)).toBe(2);
    expect(rx.got).toHaveLength(2);
    for (const g of rx.got) {
      expect(await verifyWebhook(secret, g.body, g.headers['mnemoscope-signature'] as string)).toBe(true);
      expect(await verifyWebhook('whsec_other', g.body, g.headers['mnemoscope-signature'] as string)).toBe(false);
      expect(await verifyWebhook(secret, `${g.body} `, g.headers['mnemoscope-signature'] as string)).toBe(false);
    }
    const bodies = rx.got.map((g) => JSON.parse(g.body) as { id: string; type: string; data: Record<string, unknown> });
    const decided = bodies.find((b) => b.type === 'proposal.decided')!;
    expect(decided.data).toMatchObject({
      status: 'approved',
      decided_by: 'ana',
      decision: { event_id: 'memevt_hooked_1', disposition: 'approved', final: true },
    });
    const review = `https://mnemoscope.example.com/curation?proposal=${p!.proposal_id}`;
    expect(bodies.find((b) => b.type === 'proposal.created')!.data.review_url).toBe(review);
    const decision = decided.data.decision as { review_url: string; entry_url: string };
    expect(decision.review_url).toBe(review);
    expect(decision.entry_url).toMatch(/^https:\/\/mnemoscope\.example\.com\/curation\/entries\?entry=/);
    expect(rx.got.map((g) => g.headers['mnemoscope-delivery']).sort()).toEqual(bodies.map((b) => b.id).sort());
    const log = await listDeliveries(h.db, 'default', { webhookId: hookId });
    const failed = log.find((d) => d.status === 'pending')!;
    expect(failed).toMatchObject({ attempts: 1, lastStatus: 500, lastError: 'HTTP 500: try later' });
    expect(log.filter((d) => d.status === 'delivered')).toHaveLength(1);
    // Not due again for 10 s: nothing is sent now.
    expect(await deliverDue(h.db)).toBe(0);
    await h.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(webhookDeliveries.id, failed.id));
    expect(await deliverDue(h.db)).toBe(1);
    expect(rx.got).toHaveLength(3);
    expect((await listDeliveries(h.db, 'default', {})).every((d) => d.status === 'delivered')).toBe(true);
  });

  it('sends a delivery again on request; a turned-off webhook’s due calls fail without a request', async () => {
    const [d] = await listDeliveries(h.db, 'default', {});
    await redeliver(h.db, 'default', d!.id, 'admin');
    expect(await deliverDue(h.db)).toBe(1);
    expect(rx.got.at(-1)!.body).toBe(d!.body);
    await setWebhookEnabled(h.db, 'default', hookId, false, 'admin');
    await redeliver(h.db, 'default', d!.id, 'admin');
    const before = rx.got.length;
    expect(await deliverDue(h.db)).toBe(1);
    expect(rx.got).toHaveLength(before);
    expect((await listDeliveries(h.db, 'default', {}))[0]).toMatchObject({
      status: 'failed',
      lastError: 'the webhook is turned off',
    });
  });

  if (driver === 'postgres')
    it('never sends one delivery twice when instances claim at once', async () => {
      await setWebhookEnabled(h.db, 'default', hookId, true, 'admin');
      const [d] = await listDeliveries(h.db, 'default', {});
      for (let i = 0; i < 12; i++) await redeliver(h.db, 'default', d!.id, 'admin');
      const before = rx.got.length;
      const claimed = await Promise.all([1, 2, 3, 4].map(() => deliverDue(h.db, { limit: 5 })));
      const more = await deliverDue(h.db);
      expect(claimed.reduce((a, b) => a + b, 0) + more).toBe(12);
      expect(rx.got.length - before).toBe(12);
      // Each of the 12 rows was claimed once: one attempt each, all delivered.
      const rows = (await listDeliveries(h.db, 'default', { limit: 12 })).map((d) => [d.status, d.attempts]);
      expect(rows).toEqual(Array.from({ length: 12 }, () => ['delivered', 1]));
      // A re-send carries the announcement's own id: a receiver can tell it has seen it.
      expect(new Set(rx.got.slice(before).map((g) => g.headers['mnemoscope-delivery']))).toEqual(
        new Set([JSON.parse(d!.body).id]),
      );
    });

  it('a shutdown waits for the deliveries under way: their outcome is recorded, not left to a lease', async () => {
    await setWebhookEnabled(h.db, 'default', hookId, true, 'admin');
    const [d] = await listDeliveries(h.db, 'default', {});
    const again = await redeliver(h.db, 'default', d!.id, 'admin');
    const before = rx.got.length;
    rx.delayMs = 400;
    try {
      startWebhookWorker(h);
      // The request has arrived; its answer comes 400 ms later.
      await expect.poll(() => rx.got.length).toBe(before + 1);
      await finishWork();
      // Recorded before the database would close: another instance will not send it again once the lease runs out.
      expect((await listDeliveries(h.db, 'default', {})).find((x) => x.id === again.id)).toMatchObject({
        status: 'delivered',
        lastStatus: 200,
      });
    } finally {
      rx.delayMs = 0;
      await finishWork(); // the worker stopped, whatever failed above
    }
  });

  it('claims nothing once a shutdown has begun: a delivery due then is left to the next instance', async () => {
    const [d] = await listDeliveries(h.db, 'default', {});
    const before = rx.got.length;
    const stopping = globalThis as unknown as { __mnemoscopeStopping?: boolean };
    try {
      startWebhookWorker(h);
      // The worker listens: a delivery made due is sent at once (not at its next poll, 5 s on).
      await redeliver(h.db, 'default', d!.id, 'admin');
      await expect.poll(() => rx.got.length, { timeout: 4000 }).toBe(before + 1);
      beginShutdown();
      // Due at once, and announced (NOTIFY), as the one above: nothing is sent.
      const held = await redeliver(h.db, 'default', d!.id, 'admin');
      await new Promise((r) => setTimeout(r, 1000));
      expect(rx.got.length).toBe(before + 1);
      expect((await listDeliveries(h.db, 'default', {})).find((x) => x.id === held.id)?.status).toBe('pending');
      // The same worker, no longer shutting down, sends it with the next announcement.
      stopping.__mnemoscopeStopping = false;
      await redeliver(h.db, 'default', d!.id, 'admin');
      await expect.poll(() => rx.got.length, { timeout: 4000 }).toBe(before + 3);
    } finally {
      stopping.__mnemoscopeStopping = false;
      await finishWork();
    }
  });
});
