import { describe, expect, it } from 'vitest';
import { refuseCrossSite } from './origin';

const req = (method: string, h: Record<string, string>) => ({
  method,
  headers: { get: (n: string) => h[n.toLowerCase()] ?? null },
});

describe('refuseCrossSite', () => {
  it("lets this machine's own pages and JSON calls through", () => {
    expect(refuseCrossSite(req('GET', { host: '127.0.0.1:3000' }))).toBeNull();
    expect(
      refuseCrossSite(
        req('POST', {
          host: '127.0.0.1:3000',
          origin: 'http://127.0.0.1:3000',
          'content-type': 'application/json',
          'sec-fetch-site': 'same-origin',
        }),
      ),
    ).toBeNull();
    expect(refuseCrossSite(req('POST', { host: 'localhost:3000', 'content-type': 'application/json' }))).toBeNull();
  });
  it('refuses DNS rebinding, other origins, opaque origins and non-JSON writes', () => {
    expect(refuseCrossSite(req('GET', { host: 'evil.example:3000' }))).toMatch(/not this machine/);
    expect(
      refuseCrossSite(
        req('POST', { host: '127.0.0.1:3000', origin: 'http://evil.example', 'content-type': 'application/json' }),
      ),
    ).toMatch(/not this site/);
    expect(
      refuseCrossSite(
        req('POST', { host: '127.0.0.1:3000', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }),
      ),
    ).toMatch(/cross-site/);
    expect(
      refuseCrossSite(req('POST', { host: '127.0.0.1:3000', origin: 'null', 'content-type': 'application/json' })),
    ).toMatch(/opaque/);
    expect(refuseCrossSite(req('POST', { host: '127.0.0.1:3000', 'content-type': 'text/plain' }))).toMatch(
      /application\/json/,
    );
  });
  it('with sign-in: any host name, and the sign-in form only from this origin', () => {
    const users = { loopbackOnly: false };
    expect(refuseCrossSite(req('GET', { host: 'memory.example.org' }), users)).toBeNull();
    const form = { host: 'memory.example.org', 'content-type': 'application/x-www-form-urlencoded' };
    expect(
      refuseCrossSite(req('POST', { ...form, origin: 'https://memory.example.org' }), { ...users, formPost: true }),
    ).toBeNull();
    expect(refuseCrossSite(req('POST', form), { ...users, formPost: true })).toMatch(/must carry an Origin/);
    expect(
      refuseCrossSite(req('POST', { ...form, origin: 'https://evil.example' }), { ...users, formPost: true }),
    ).toMatch(/not this site/);
    expect(refuseCrossSite(req('POST', { ...form, origin: 'https://memory.example.org' }), users)).toMatch(
      /application\/json/,
    );
  });
});
