import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate';

describe('RateLimiter', () => {
  it('lets a burst through, then refuses with the wait until the next token, per key', () => {
    let now = 0;
    const r = new RateLimiter(60, 3, () => now); // one a second, bursts of 3
    expect([r.take('a'), r.take('a'), r.take('a')].every((x) => x.ok)).toBe(true);
    expect(r.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(r.take('b').ok).toBe(true); // another key has its own bucket
    now = 1000;
    expect(r.take('a').ok).toBe(true);
    expect(r.take('a').ok).toBe(false);
  });
});
