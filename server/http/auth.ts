import { ready } from '@/server/bootstrap';
import { SESSION_COOKIE, signIn, signOut } from '@/server/services/auth';
import { takeToken } from '@/server/services/limits';
import { currentClient } from '@/server/log';

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

/** The sign-in form posts here (cross-site posts are refused by proxy.ts): a session cookie, or back with an error. */
export async function signInPost(request: Request) {
  const form = await request.formData();
  const username = String(form.get('username') ?? '').trim();
  const password = String(form.get('password') ?? '');
  const next = safeNext(form.get('next'));
  const back = (error: string) =>
    new Response(null, {
      status: 303,
      headers: { location: `/sign-in?error=${error}&next=${encodeURIComponent(next)}` },
    });
  const { db } = await ready();
  // Counted for all instances: thirty attempts a minute from one address, whatever the usernames (guessing across
  // accounts), and ten a minute for one username from one address (guessing one password). Per address, so that
  // someone hammering an account elsewhere never locks its owner out.
  const client = currentClient() ?? 'unknown';
  if (
    !(await takeToken(db, `sign-in-from:${client}`, 30)).ok ||
    !(await takeToken(db, `sign-in:${username.toLowerCase()}:${client}`, 10)).ok
  )
    return back('slow');
  const s = username && password ? await signIn(db, username, password) : null;
  if (!s) return back('invalid');
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
