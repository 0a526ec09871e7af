import { ready } from '@/server/bootstrap';
import { SESSION_COOKIE, signIn, signOut } from '@/server/services/auth';
import { backoffWait, forgetFailures, recordFailure, takeToken, type Backoff } from '@/server/services/limits';
import { currentClient, log } from '@/server/log';
import { isInfrastructureError } from '@/server/services/errors';

/**
 * Only same-site paths: a sign-in never redirects elsewhere. Browsers drop tabs and newlines from URLs and read
 * `\\` as `/`, so `/\t/evil.example` would become `//evil.example`: any control character, space or backslash
 * refuses the target, and what is left must resolve to this origin.
 */
export function safeNext(next: FormDataEntryValue | null): string {
  const n = typeof next === 'string' ? next : '';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (!n.startsWith('/') || /[\u0000-\u0020\u007f\\]/.test(n)) return '/sessions';
  const base = 'http://mnemoscope.invalid';
  return new URL(n, base).origin === base && !n.startsWith('//') ? n : '/sessions';
}

/** Exponential backoff on failed sign-ins (`backoffWait`): free attempts, then 1 s, 2 s, 4 s … up to the cap. */
export const SIGN_IN_BACKOFF = {
  /** One username from one address. */
  account: { free: 5, capSeconds: 15 * 60 },
  /** One address, whatever the usernames. */
  address: { free: 20, capSeconds: 15 * 60 },
  /** One username from any address: capped at a minute, so that nobody can lock its owner out. */
  anywhere: { free: 20, capSeconds: 60 },
} satisfies Record<string, Backoff>;

/** The sign-in form posts here (cross-site posts are refused by proxy.ts): a session cookie, or back with an error. */
export async function signInPost(request: Request) {
  const form = await request.formData();
  const username = String(form.get('username') ?? '').trim();
  const password = String(form.get('password') ?? '');
  const next = safeNext(form.get('next'));
  const back = (error: string, wait = 0) =>
    new Response(null, {
      status: 303,
      headers: {
        // The username comes back to its field (never the password), so a mistyped password is all there is to redo.
        location:
          `/sign-in?error=${error}${wait ? `&wait=${wait}` : ''}&next=${encodeURIComponent(next)}` +
          (username ? `&user=${encodeURIComponent(username.slice(0, 64))}` : ''),
      },
    });
  try {
    return await attempt(request, username, password, next, back);
  } catch (e) {
    // A database that cannot be reached: said on the form, not an empty 500.
    if (!isInfrastructureError(e)) throw e;
    log.error({ err: e }, 'sign-in failed');
    return back('unavailable');
  }
}

async function attempt(
  request: Request,
  username: string,
  password: string,
  next: string,
  back: (error: string, wait?: number) => Response,
): Promise<Response> {
  const { db } = await ready();
  // Counted in the database for all instances. A flood limit of thirty attempts a minute from one address; then
  // exponential backoff on failures, per username from one address (guessing a password), per address across
  // usernames (guessing accounts) and per username from anywhere (guessing from many addresses). The last waits at
  // most a minute, so an attacker elsewhere can slow the account's owner down but never lock them out; a success
  // forgets the failures.
  const client = currentClient() ?? 'unknown';
  const user = username.toLowerCase();
  const subjects: [string, Backoff][] = [
    [`${user}@${client}`, SIGN_IN_BACKOFF.account],
    [`@${client}`, SIGN_IN_BACKOFF.address],
    [`${user}@*`, SIGN_IN_BACKOFF.anywhere],
  ];
  if (!(await takeToken(db, `sign-in-from:${client}`, 30)).ok) return back('slow', 60);
  // No password is checked while a wait runs: a guess during the wait learns nothing.
  const wait = Math.max(...(await Promise.all(subjects.map(([k, b]) => backoffWait(db, k, b)))));
  if (wait > 0) return back('slow', wait);
  const s = username && password ? await signIn(db, username, password) : null;
  if (!s) {
    for (const [k] of subjects) await recordFailure(db, k);
    return back('invalid');
  }
  for (const [k] of subjects) await forgetFailures(db, k);
  // Behind a TLS-terminating proxy the app sees http: the proxy's X-Forwarded-Proto says what the browser used.
  const https =
    new URL(request.url).protocol === 'https:' ||
    request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
  const secure = https ? '; Secure' : '';
  return new Response(null, {
    status: 303,
    headers: {
      location: next,
      'set-cookie':
        `${SESSION_COOKIE}=${s.token}; Path=/; HttpOnly; SameSite=Lax; ` +
        `Expires=${s.expires.toUTCString()}${secure}`,
    },
  });
}

/** Ends the browser session and goes back to the sign-in page. */
export async function signOutPost(request: Request) {
  const token = /(?:^|;\s*)mnemoscope_session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  if (token) await signOut((await ready()).db, decodeURIComponent(token));
  return new Response(null, {
    status: 303,
    headers: { location: '/sign-in', 'set-cookie': `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0` },
  });
}
