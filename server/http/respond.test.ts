import { NextResponse } from 'next/server';
import { describe, expect, it, vi } from 'vitest';

// A database that is down: the key cannot be checked, nor a rate-limit token taken.
const refused = () =>
  new Error('Failed query', {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  });
const state = { opens: true };
vi.mock('@/server/bootstrap', () => ({
  ready: () => (state.opens ? Promise.resolve({ db: {} }) : Promise.reject(refused())),
}));
vi.mock('@/server/services/api-keys', () => ({ verifyKey: () => Promise.reject(refused()) }));
vi.mock('@/server/services/limits', () => ({ takeToken: () => Promise.reject(refused()) }));

const { authenticate, rateLimit } = await import('./respond');
const { signInPost } = await import('./auth');
const keyed = new Request('http://x/api/v1/sessions/s/export', { headers: { authorization: 'Bearer k' } });

describe('what runs before a route handler, and sign-in', () => {
  it('answer a database that cannot be reached with a JSON 503 and Retry-After, as a handler would', async () => {
    for (const opens of [true, false]) {
      state.opens = opens;
      const res = await authenticate(keyed);
      expect(res).toBeInstanceOf(NextResponse);
      const answer = res as NextResponse;
      expect(answer.status, `database opens: ${opens}`).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect((await answer.json()).error).toBe('the database cannot be reached or written now; retry later');
    }
    const limited = await rateLimit({} as never, 'key-1');
    expect(limited?.status).toBe(503);
    expect((await limited!.json()).error).toMatch(/cannot be reached/);
  });

  it('sends a sign-in back to its form saying the database cannot be reached, the username kept', async () => {
    for (const opens of [true, false]) {
      state.opens = opens;
      const form = new FormData();
      form.set('username', 'alice');
      form.set('password', 'pw');
      form.set('next', '/curation');
      const res = await signInPost(new Request('http://x/api/auth/sign-in', { method: 'POST', body: form }));
      expect(res.status, `database opens: ${opens}`).toBe(303);
      expect(res.headers.get('location')).toBe('/sign-in?error=unavailable&next=%2Fcuration&user=alice');
    }
  });
});
