import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { NextResponse } from 'next/server';
import { describe, expect, it } from 'vitest';
import { readBody } from './respond';

/**
 * The body reader under generated sizes, encodings and chunkings: a body within the limit arrives whole, byte for
 * byte; one over it is a 413, never a truncated body; a gzip bomb is refused after `limit` inflated bytes, the rest
 * never inflated. (Before, bodies passed through Next's proxy were cut at 10 MB.)
 */
const LIMIT = 64 * 1024;

/** A request whose body arrives in the given chunk sizes. */
function request(bytes: Uint8Array, chunk: number, headers: Record<string, string>) {
  let offset = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (offset >= bytes.length) return c.close();
        const part = bytes.subarray(offset, offset + chunk);
        offset += part.length;
        c.enqueue(part);
      },
    },
    { highWaterMark: 0 },
  );
  const req = new Request('http://127.0.0.1/api/v1/ingest', { method: 'POST', headers, body, duplex: 'half' } as never);
  return { req };
}

describe('readBody under generated bodies', () => {
  it('gives a body within the limit whole and refuses one over it, plain or gzip, in any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 0, max: 2 * LIMIT }), fc.integer({ min: LIMIT - 64, max: LIMIT + 64 })),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 0, max: 255 }),
        async (size, gzip, declare, chunk, seed) => {
          const plain = new Uint8Array(size);
          for (let i = 0; i < size; i++) plain[i] = (i * 31 + seed) % 251;
          const sent = gzip ? new Uint8Array(gzipSync(plain)) : plain;
          const headers: Record<string, string> = gzip ? { 'content-encoding': 'gzip' } : {};
          if (declare) headers['content-length'] = String(sent.length);
          const out = await readBody(request(sent, chunk, headers).req, LIMIT);
          if (size <= LIMIT) {
            expect(out).toBeInstanceOf(Uint8Array);
            expect(Buffer.from(out as Uint8Array).equals(Buffer.from(plain))).toBe(true);
          } else {
            expect(out).toBeInstanceOf(NextResponse);
            expect((out as NextResponse).status).toBe(413);
          }
        },
      ),
      { numRuns: 300, seed: 20261125 },
    );
  });

  it('refuses a gzip bomb after the limit, without inflating the rest of it', async () => {
    const inflated = 256 * 1024 * 1024;
    const bomb = new Uint8Array(gzipSync(Buffer.alloc(inflated), { level: 9 }));
    const { req } = request(bomb, 1024, { 'content-encoding': 'gzip' });
    const rss = process.memoryUsage().rss;
    const out = await readBody(req, 1024 * 1024);
    expect((out as NextResponse).status).toBe(413);
    expect(await (out as NextResponse).json()).toMatchObject({ limitBytes: 1024 * 1024 });
    // Inflated whole it would take 256 MiB; refused at 1 MiB it takes a few (2 MB measured).
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 1024 * 1024);
  });

  it('reads 10–16 MiB bodies whole under the documented 16 MiB limit', async () => {
    for (const mb of [10, 12, 16]) {
      const plain = new Uint8Array(mb * 1024 * 1024 - (mb === 16 ? 0 : 1)).fill(0x61);
      const out = await readBody(request(plain, 64 * 1024, {}).req, 16 * 1024 * 1024);
      expect((out as Uint8Array).byteLength, `${mb} MiB`).toBe(plain.byteLength);
    }
    const over = new Uint8Array(16 * 1024 * 1024 + 1);
    expect(((await readBody(request(over, 64 * 1024, {}).req, 16 * 1024 * 1024)) as NextResponse).status).toBe(413);
  });
});
