import { environmentManager } from '@tanstack/query-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { worthRetrying } from './query-client';

const trpcError = (httpStatus: number) => Object.assign(new Error('x'), { data: { httpStatus } });

describe('worthRetrying, in the browser', () => {
  beforeAll(() => environmentManager.setIsServer(() => false));
  afterAll(() => environmentManager.setIsServer(() => true));

  it('shows a refusal for what was asked at once: not found, bad input, not signed in', () => {
    for (const status of [400, 401, 403, 404, 409, 413])
      expect(worthRetrying(0, trpcError(status)), `${status}`).toBe(false);
  });

  it('tries a server error, a timeout, a rate limit or a dropped connection twice more', () => {
    for (const error of [
      trpcError(500),
      trpcError(503),
      trpcError(408),
      trpcError(429),
      new TypeError('fetch failed'),
    ]) {
      expect([0, 1, 2].map((n) => worthRetrying(n, error))).toEqual([true, true, false]);
    }
  });
});

describe('worthRetrying, on the server', () => {
  it("retries nothing while a page is rendered (query-core's own default there): the page answers at once", () => {
    expect(worthRetrying(0, trpcError(503))).toBe(false);
  });
});
