import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@/server/db';
import { freshDb } from '@/server/test/db';
import { archiveUpload, bodyLines } from './archive';
import { withDomainErrors } from './respond';
import { UnavailableError } from '@/server/services/errors';

const lines = async (body: Uint8Array, chunk = 1 << 16) => {
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < body.length; i += chunk) c.enqueue(body.subarray(i, i + chunk));
      c.close();
    },
  });
  const out: string[] = [];
  for await (const l of bodyLines(stream)) out.push(l);
  return out;
};

describe('project import bodies', () => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb('pglite');
  });
  afterAll(async () => h?.close());

  it('splits lines across chunks, plain or gzip', async () => {
    const text = 'a\nbb\n\nccc';
    expect(await lines(new TextEncoder().encode(text), 2)).toEqual(['a', 'bb', '', 'ccc']);
    expect(await lines(gzipSync(text), 3)).toEqual(['a', 'bb', '', 'ccc']);
  });

  it('reads one long line in time linear in its length', async () => {
    const t = async (n: number) => {
      const body = new TextEncoder().encode('x'.repeat(n) + '\n');
      const t0 = performance.now();
      expect((await lines(body, 1024))[0]).toHaveLength(n);
      return performance.now() - t0;
    };
    await t(100_000);
    const ratio = ((await t(4_000_000)) + 1) / ((await t(400_000)) + 1);
    expect(ratio).toBeLessThan(30); // linear: ~10×; the old carry-and-split was ~100×
  });

  it('answers 400, not 500, for truncated or corrupt gzip and for bytes that are not UTF-8', async () => {
    const gz = gzipSync('{"format":"mnemoscope-project"}\n'.repeat(1000));
    const bodies: [string, Uint8Array][] = [
      ['truncated gzip', gz.subarray(0, gz.length >> 1)],
      ['corrupt gzip', Uint8Array.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xde, 0xad, 0xbe, 0xef])],
      ['invalid UTF-8', Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])],
    ];
    for (const [what, body] of bodies) {
      const r = await archiveUpload(
        h.db,
        'default',
        new Request('http://x/', { method: 'POST', body: new Uint8Array(body) }),
      );
      expect(r.status, what).toBe(400);
      expect((await r.json()).error, what).toMatch(/could not be read|not an export|line 1/);
    }
  });
});

describe('withDomainErrors', () => {
  it('answers an unavailable database with 503 and Retry-After, so clients retry instead of dropping', async () => {
    const res = await withDomainErrors(() => Promise.reject(new UnavailableError('disk full; retry later')));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect((await res.json()).error).toBe('disk full; retry later');
  });

  it('answers an unreachable database with a JSON 503 and Retry-After, anything else a JSON 500', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const down = await withDomainErrors(() => Promise.reject(new Error('Failed query', { cause: refused })));
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect((await down.json()).error).toBe('the database cannot be reached or written now; retry later');
    const bug = await withDomainErrors(() => Promise.reject(new TypeError('x is undefined')));
    expect(bug.status).toBe(500);
    // The cause stays in the log, not in the answer.
    expect(await bug.json()).toEqual({ error: 'internal error: the server log has it under this request id' });
  });
});
