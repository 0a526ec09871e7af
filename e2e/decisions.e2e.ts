import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mnemoscope, newEventId, verifyWebhook, type MemoryDecision } from '@/sdk/typescript/index';
import { launchPage } from './browser';
import { open } from './page';
import { uiDb, uiServer } from './ui-server';

/**
 * The human in the loop reaches the agent: an agent proposes a memory through the SDK and waits for the decision; a
 * reviewer edits and approves it in Chromium; the agent's wait returns the text as approved, and the webhook an admin
 * set up in Settings receives a call whose signature checks out.
 */
const srv = uiServer();
let browser: Browser;
let page: Page;
const calls: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    calls.push({ headers: req.headers, body });
    res.end('ok');
  });
});

beforeAll(async () => {
  ({ browser, page } = await launchPage());
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => receiver.close(r));
});

describe(`decisions flow back to the agent on ${uiDb()}`, () => {
  it('an agent waits for a review, a reviewer approves an edit, the agent and a signed webhook hear it', async () => {
    // An admin adds the webhook in Settings; its secret is shown for the receiver.
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/mnemoscope`;
    await open(page, `${srv.url}/settings`);
    const panel = page.getByTestId('webhooks');
    await panel.getByLabel('Webhook URL').fill(hookUrl);
    // With no event ticked, the button is off and says why.
    const add = panel.getByRole('button', { name: 'Add webhook' });
    const decided = panel.getByRole('checkbox', { name: 'proposal.decided' });
    await decided.uncheck();
    expect(await add.isDisabled()).toBe(true);
    const why = (await add.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${why}"]`).textContent()).toBe('Tick at least one event to add a webhook');
    expect(await page.locator(`[id="${why}"]`).isVisible()).toBe(true);
    await decided.check();
    expect(await add.getAttribute('aria-describedby')).toBeNull();
    await add.click();
    const secret = (await panel.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    // It can be hidden again, and shown again by its webhook's name.
    await panel.getByRole('button', { name: `Hide the secret of the webhook to ${hookUrl}` }).click();
    await expect.poll(() => panel.getByTestId('webhook-secret').count()).toBe(0);
    await panel.getByRole('button', { name: `Show the secret of the webhook to ${hookUrl}` }).click();
    await expect.poll(() => panel.getByTestId('webhook-secret').textContent()).toBe(secret);

    const mnemo = new Mnemoscope({ url: srv.url, apiKey: srv.key, flushOnExit: false });
    const eventId = newEventId();
    mnemo.record({
      type: 'memory_event',
      data: {
        event_id: eventId,
        content: 'The billing team owns the invoice export job and pages on its failures.',
        memory_kind: 'fact',
        suggested_scope: 'team_memory',
        source_agent: 'billing-agent',
        task_id: 'T-431',
        confidence: 'high',
        sensitivity: 'internal',
        ttl: 'durable',
        evidence_refs: ['commit:4b1e9a2'],
        timestamp: new Date().toISOString(),
      },
    });
    const now = (await mnemo.decision(eventId))!;
    expect(now).toMatchObject({ disposition: 'proposed', final: false, proposal_status: 'pending' });
    let settled: MemoryDecision | null = null;
    const waiting = mnemo.decision(eventId, { timeoutMs: 90_000 }).then((d) => (settled = d));

    // The reviewer opens the proposal from its review link, edits and approves.
    await open(page, `${srv.url}${now.review_url}`);
    await page.locator('html[data-inbox-keys]').waitFor({ state: 'attached' });
    await expect.poll(() => page.getByTestId('proposal-content').textContent()).toContain('invoice export job');
    await page.keyboard.press('e');
    const box = page.getByLabel('Content');
    await box.fill('The billing team owns the invoice export job; failures page its on-call.');
    expect(settled).toBeNull();
    await box.press('Control+Enter');
    // Held for the undo window (5 s unless the reviewer chose otherwise): the waiting agent hears nothing yet.
    await expect
      .poll(() => page.getByTestId('held-banner').textContent())
      .toMatch(/^Approving with edits “The billing team owns the invoice export job; .*”sent in [45] sUndo u$/);
    await new Promise((r) => setTimeout(r, 1500));
    expect(settled).toBeNull();
    await expect
      .poll(() => page.getByTestId('inbox-banner').textContent(), { timeout: 10_000 })
      .toContain('Approved with your edits');

    const d = (await waiting)!;
    expect(d).toMatchObject({
      disposition: 'approved',
      final: true,
      edited: ['content'],
      entry: { content: 'The billing team owns the invoice export job; failures page its on-call.', status: 'active' },
    });
    expect(d.decided_by).not.toBe('curator');

    // The webhook was called for the decision, signed with the secret shown in Settings.
    await expect.poll(() => calls.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const call = calls.find((c) => c.headers['mnemoscope-event'] === 'proposal.decided')!;
    expect(await verifyWebhook(secret, call.body, call.headers['mnemoscope-signature'] as string)).toBe(true);
    const body = JSON.parse(call.body) as { type: string; data: { decision: MemoryDecision } };
    expect(body.type).toBe('proposal.decided');
    expect(body.data.decision).toMatchObject({ event_id: eventId, edited: ['content'], entry: d.entry });

    // The delivery shows in the log, delivered.
    await open(page, `${srv.url}/settings`);
    await expect
      .poll(() => page.getByTestId('webhook-deliveries').locator('tbody tr').first().textContent())
      .toMatch(/proposal\.decided.*delivered/);
    // Removed (after a confirmation), the webhook and its log are gone; later decisions call nobody.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByTestId('webhooks').getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No webhooks').waitFor();
    await mnemo.shutdown();
  });
});
