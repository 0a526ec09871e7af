import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNextServer, type NextServer } from '../server/test/next-server';
import { launch } from './browser';

/** Users mode: a server with sign-in on, an admin from the environment, and a viewer the admin adds. */
const ADMIN = { user: 'ada', password: 'admin password 123' };
let server: NextServer;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-auth-'));
  server = await startNextServer({
    MNEMOSCOPE_AUTH: 'users',
    MNEMOSCOPE_ADMIN_USER: ADMIN.user,
    MNEMOSCOPE_ADMIN_PASSWORD: ADMIN.password,
    MNEMOSCOPE_DATA_DIR: dir,
    DATABASE_URL: '',
    MNEMOSCOPE_DEMO: '1',
    MNEMOSCOPE_TRUST_PROXY: '1', // as behind nginx: the client address is the last X-Forwarded-For entry
  });
  browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const trpcGet = (cookie: string | null, proc: string) =>
  fetch(`${server.url}/api/trpc/${proc}`, { headers: cookie ? { cookie } : {} });
/** Signs in over HTTP; the session cookie as a `name=value` pair, or null when refused. */
async function signIn(user: string, password: string) {
  const r = await fetch(`${server.url}/api/auth/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: user, password, next: '/sessions' }),
  });
  return /mnemoscope_session=([^;]+)/.exec(r.headers.get('set-cookie') ?? '')?.[0] ?? null;
}
const post = (cookie: string, proc: string, json: unknown) =>
  fetch(`${server.url}/api/trpc/${proc}`, {
    method: 'POST',
    headers: { cookie, origin: server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ json }),
  });

describe('sign-in (users mode)', () => {
  it('sends pages to sign-in and answers the API with 401 until signed in', async () => {
    const page = await fetch(`${server.url}/curation`, { redirect: 'manual' });
    expect(page.status).toBe(307);
    // Load balancers probe without a session: health and readiness answer them.
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/ready`)).status).toBe(200);
    expect(page.headers.get('location')).toMatch(/\/sign-in\?next=%2Fcuration$/);
    expect((await trpcGet(null, 'sessions.list')).status).toBe(401);
    expect((await trpcGet('mnemoscope_session=forged', 'sessions.list')).status).toBe(401);
  });

  it('signs in with an httpOnly cookie, refuses a wrong password, signs out for good', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/sessions`);
    await page.waitForURL(/\/sign-in/);
    await page.getByLabel('Username').fill(ADMIN.user);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Next's route announcer is an (empty) alert too: wait for ours.
    await expect.poll(() => page.getByRole('alert').filter({ hasText: /\S/ }).textContent()).toContain('do not match');
    // The username is kept; the password is asked for again.
    expect(await page.getByLabel('Username').inputValue()).toBe(ADMIN.user);
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    // Focused by the page's autofocus, which the browser applies at its first rendering, not when the alert is parsed.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('password');
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/sessions$/);
    await page.getByTestId('signed-in').waitFor();
    expect(await page.getByTestId('signed-in').textContent()).toBe('ada · admin');
    const [c] = (await context.cookies()).filter((x) => x.name === 'mnemoscope_session');
    expect([c!.httpOnly, c!.sameSite]).toEqual([true, 'Lax']);
    const cookie = `mnemoscope_session=${c!.value}`;
    expect((await trpcGet(cookie, 'sessions.list')).status).toBe(200);
    // An approval held for the undo window (5 s) when the reviewer signs out is sent first, while the session stands.
    await page.goto(`${server.url}/curation`);
    await page.locator('html[data-inbox-keys]').waitFor({ state: 'attached' });
    const heldId = (await page.locator('.inbox-row[aria-current="true"]').getAttribute('data-proposal'))!;
    await page.getByTestId('proposal-content').waitFor();
    await page.keyboard.press('a');
    await page.getByTestId('held-banner').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    expect((await trpcGet(cookie, 'sessions.list')).status).toBe(401);
    const again = (await signIn(ADMIN.user, ADMIN.password))!;
    const proposal = await trpcGet(
      again,
      `curation.proposal?input=${encodeURIComponent(JSON.stringify({ json: { id: heldId } }))}`,
    );
    expect(
      ((await proposal.json()) as { result: { data: { json: { proposal: { status: string } } } } }).result.data.json
        .proposal.status,
    ).toBe('approved');
    await context.close();
  });

  it('refuses a cross-site sign-in post, and a viewer cannot decide proposals', async () => {
    const cross = await fetch(`${server.url}/api/auth/sign-in`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: `username=${ADMIN.user}&password=x`,
    });
    expect(cross.status).toBe(403);
    const admin = (await signIn(ADMIN.user, ADMIN.password))!;
    // Behind a TLS-terminating proxy (X-Forwarded-Proto: https) the session cookie is Secure; over plain HTTP not.
    const viaProxy = await fetch(`${server.url}/api/auth/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        origin: server.url,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-proto': 'https',
      },
      body: new URLSearchParams({ username: ADMIN.user, password: ADMIN.password, next: '/sessions' }),
    });
    expect(viaProxy.headers.get('set-cookie')).toMatch(/; Secure/);
    expect(
      (
        await fetch(`${server.url}/api/auth/sign-in`, {
          method: 'POST',
          redirect: 'manual',
          headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ username: ADMIN.user, password: ADMIN.password, next: '/sessions' }),
        })
      ).headers.get('set-cookie'),
    ).not.toMatch(/Secure/);
    expect(
      (await post(admin, 'members.set', { username: 'vic', role: 'viewer', password: 'viewer password 1' })).status,
    ).toBe(200);
    const viewer = (await signIn('vic', 'viewer password 1'))!;
    const inbox = (await (
      await trpcGet(
        viewer,
        `curation.inbox?input=${encodeURIComponent(JSON.stringify({ json: { status: 'pending' } }))}`,
      )
    ).json()) as { result: { data: { json: { items: { id: string }[] } } } };
    const id = inbox.result.data.json.items[0]!.id;
    const denied = await post(viewer, 'curation.decide', { id, decision: { action: 'approve' } });
    expect(denied.status).toBe(403);
    expect((await post(viewer, 'members.set', { username: 'vic', role: 'admin' })).status).toBe(403);
    expect((await post(admin, 'curation.decide', { id, decision: { action: 'approve' } })).status).toBe(200);
  });

  it('offers a viewer no action the server would refuse: deciding, forking, keys, webhooks', async () => {
    const viewer = (await signIn('vic', 'viewer password 1'))!;
    const context = await browser.newContext();
    const [name, value] = viewer.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    await page.goto(`${server.url}/curation`);
    await page.getByTestId('viewer-only').waitFor();
    await page.getByTestId('proposal-content').waitFor();
    expect(
      await page
        .getByTestId('proposal-detail')
        .getByRole('button', { name: /^Approve/ })
        .count(),
    ).toBe(0);
    expect(await page.getByRole('checkbox', { name: 'Select for a bulk decision' }).first().isDisabled()).toBe(true);
    // No undo window to choose: a viewer has no decision to hold.
    expect(await page.getByLabel('Undo window: how long a decision is held before it is sent').count()).toBe(0);
    await page.keyboard.press('a');
    await new Promise((r) => setTimeout(r, 300));
    expect(await page.getByTestId('held-banner').count()).toBe(0);
    await page.goto(`${server.url}/sessions/itops-nginx-502`);
    await expect.poll(() => page.getByTestId('fork-open').isDisabled()).toBe(true);
    await page.goto(`${server.url}/settings`);
    await page.getByTestId('api-keys-admins-only').waitFor();
    expect(await page.getByTestId('webhooks-admins-only').textContent()).toContain('you are a viewer');
    expect(await page.getByLabel('Key name').count()).toBe(0);
    await context.close();
  });

  it('offers to remove an annotation only to its author, and every one to an admin', async () => {
    const admin = (await signIn(ADMIN.user, ADMIN.password))!;
    const member = { username: 'rey', role: 'reviewer', password: 'reviewer password 1' };
    expect((await post(admin, 'members.set', member)).status).toBe(200);
    const rey = (await signIn('rey', member.password))!;
    for (const [cookie, comment] of [
      [rey, 'a note by rey'],
      [admin, 'a note by ada'],
    ] as const)
      expect(
        (await post(cookie, 'annotations.create', { target: 'turn', session_id: 'itops-nginx-502', turn: 2, comment }))
          .status,
      ).toBe(200);
    const removable = async (cookie: string) => {
      const context = await browser.newContext();
      const [name, value] = cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: server.url }]);
      const page = await context.newPage();
      await page.goto(`${server.url}/annotations`);
      const rows = page.locator('[data-annotation]');
      await rows.first().waitFor();
      const out: Record<string, boolean> = {};
      for (const row of await rows.all())
        out[(await row.locator('.annotation-comment').textContent()) ?? ''] =
          (await row.getByRole('button', { name: /^Remove/ }).count()) > 0;
      await context.close();
      return out;
    };
    expect(await removable(rey)).toMatchObject({ 'a note by rey': true, 'a note by ada': false });
    expect(await removable(admin)).toMatchObject({ 'a note by rey': true, 'a note by ada': true });
  });

  it('backs off failed sign-ins per account and address; a guesser elsewhere never locks the owner out', async () => {
    const attempt = async (from: string, username: string, password: string) => {
      const r = await fetch(`${server.url}/api/auth/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          origin: server.url,
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': from,
        },
        body: new URLSearchParams({ username, password, next: '/sessions' }),
      });
      const q = new URL(r.headers.get('location')!, server.url).searchParams;
      return q.get('error') ? `${q.get('error')}${q.get('wait') ? ` ${q.get('wait')}` : ''}` : 'ok';
    };
    const guesses = [];
    for (let i = 0; i < 6; i++) guesses.push(await attempt('198.51.100.7', ADMIN.user, `wrong guess ${i}`));
    // Five free failures, then a wait of 1 s; during a wait not even the right password is checked.
    expect(guesses).toEqual(['invalid', 'invalid', 'invalid', 'invalid', 'invalid', 'slow 1']);
    expect(await attempt('198.51.100.7', ADMIN.user, ADMIN.password)).toBe('slow 1');
    await new Promise((r) => setTimeout(r, 1100));
    expect(await attempt('198.51.100.7', ADMIN.user, 'wrong guess 6')).toBe('invalid');
    expect(await attempt('198.51.100.7', ADMIN.user, 'wrong guess 7')).toBe('slow 2');
    // The owner, from their own address, signs in at once.
    expect(await attempt('203.0.113.9', ADMIN.user, ADMIN.password)).toBe('ok');
    const page = await (await fetch(`${server.url}/sign-in?error=slow&wait=240`)).text();
    expect(page).toContain('Too many failed attempts: try again in 4 minutes.');
    // Spraying many usernames from one address backs off after twenty failures.
    const spray = [];
    for (let i = 0; i < 21; i++) spray.push(await attempt('198.51.100.8', `user${i}`, 'password1234'));
    expect(spray.slice(0, 20).every((g) => g === 'invalid')).toBe(true);
    expect(spray[20]).toBe('slow 1');
    // Guessing one account from many addresses slows it down everywhere, by at most a minute.
    for (let i = 0; i < 20; i++) expect(await attempt(`192.0.2.${i + 1}`, 'nobody', `guess ${i}`)).toBe('invalid');
    expect(await attempt('192.0.2.200', 'nobody', 'guess 20')).toBe('slow 1');
  });
});
