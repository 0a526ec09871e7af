import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { DbHandle } from '@/server/db';
import { log } from '@/server/log';
import { NotFoundError } from '@/server/services/errors';
import { freshDb } from '@/server/test/db';
import { logUnforeseen, procedure, router, type Context } from './init';

describe('a procedure that fails', () => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb('pglite');
  });
  afterAll(() => h.close());

  const testRouter = router({
    broken: procedure.query(async ({ ctx }) => {
      // A query the database refuses, whose values are memory text.
      await ctx.db.execute(
        sql`insert into text_vectors (project_id, model_id, text_sha256, vector)
            values ('no-such-project', ${'the patient in bed 4 is allergic to penicillin'}, 'h', '\\x00')`,
      );
      return 'stored';
    }),
    echo: procedure.input(z.object({ filter: z.object({ q: z.string() }) })).query(async ({ ctx, input }) => {
      await ctx.db.execute(sql`select ${input.filter.q}::text`);
      return input.filter.q;
    }),
    missing: procedure.query(() => {
      throw new NotFoundError('session', 'nope');
    }),
  });
  const call = async (path: string) => {
    const res = await fetchRequestHandler({
      endpoint: '/api/trpc',
      req: new Request(`http://localhost/api/trpc/${path}`),
      router: testRouter,
      createContext: (): Context => ({
        db: h.db,
        driver: 'pglite',
        location: 'memory',
        projectId: 'default',
        actor: 'tester',
        role: 'viewer',
      }),
      onError: logUnforeseen,
    });
    return { status: res.status, body: (await res.json()) as { error: { json: { message: string } } } };
  };

  it("answers the driver's reason, not the statement and its values, and logs it with the procedure", async () => {
    const spy = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    try {
      const { status, body } = await call('broken');
      expect(status).toBe(500);
      expect(body.error.json.message).toMatch(
        /^insert or update on table "text_vectors" violates foreign key constraint/,
      );
      expect(JSON.stringify(body)).not.toMatch(/penicillin|params/);
      expect(spy).toHaveBeenCalledTimes(1);
      const [fields, message] = spy.mock.calls[0]!;
      expect(message).toBe('procedure failed');
      expect((fields as { procedure: string }).procedure).toBe('broken');
      // The error itself: the logger's err serializer (server/log.ts) writes its reason, code and frames.
      expect(((fields as { err: Error }).err as Error & { cause?: { code?: string } }).cause?.code).toBe('23503');
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses a NUL character in any string of an input by its field, before a query fails on it', async () => {
    const input = (q: string) => `echo?input=${encodeURIComponent(JSON.stringify({ json: { filter: { q } } }))}`;
    expect(await call(input('keep-alive'))).toMatchObject({ status: 200 });
    const { status, body } = await call(input('a\u0000b'));
    expect(status).toBe(400);
    expect(body.error.json.message).toBe('filter.q: must not contain a NUL character');
  });

  it('answers a foreseen failure as it is, and logs nothing', async () => {
    const spy = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    try {
      const { status, body } = await call('missing');
      expect(status).toBe(404);
      expect(body.error.json.message).toBe('session "nope" not found');
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
