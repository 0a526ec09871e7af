import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@/server/db';
import { freshDb } from '@/server/test/db';
import { errorReason, log, serializeErr } from './log';

// A parameter of memory text that holds a stack trace of its own: no line of it may pass for a frame.
const PARAM = 'the patient in bed 4 is allergic to penicillin\n    at notAFrame (secret.ts:1:1)';

describe('errors in log lines', () => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb('pglite');
  });
  afterAll(() => h.close());

  const failedInsert = async (): Promise<unknown> => {
    try {
      await h.db.execute(
        sql`insert into text_vectors (project_id, model_id, text_sha256, vector)
            values ('no-such-project', ${PARAM}, 'h', '\\x00')`,
      );
    } catch (e) {
      return e;
    }
    throw new Error('the insert was expected to fail');
  };

  it("say why a query failed, with the driver's code and the stack's frames, never its parameters", async () => {
    const e = await failedInsert();
    // The query layer's own message quotes the statement and every value bound to it.
    expect((e as Error).message).toContain('allergic to penicillin');
    expect((e as Error).stack).toContain('allergic to penicillin');
    const line = serializeErr(e) as { message: string; code: string; stack: string };
    expect(line.message).toMatch(/^insert or update on table "text_vectors" violates foreign key constraint/);
    expect(line.code).toBe('23503');
    expect(line.stack).toMatch(/^\s+at /);
    expect(JSON.stringify(line)).not.toMatch(/penicillin|params|insert into|notAFrame/);
    expect(errorReason(e)).toBe(line.message);
  });

  it('cut the parameters off a message logged as text', () => {
    expect(serializeErr('Failed query: insert into x values ($1)\nparams: a secret')).toBe(
      'Failed query: insert into x values ($1)',
    );
    expect(errorReason(undefined)).toBe('undefined');
  });

  it("say any other error whole, with its cause's reason, or its code when it has no message", () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:5432') });
    expect(errorReason(refused)).toBe('fetch failed: connect ECONNREFUSED 127.0.0.1:5432');
    expect(errorReason(new Error('Invalid environment:\n  PORT: must be a number'))).toBe(
      'Invalid environment:\n  PORT: must be a number',
    );
    expect(errorReason(Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' }))).toBe('ECONNREFUSED');
    expect(errorReason(new AggregateError([], ''))).toBe('AggregateError');
    const frames = (serializeErr(new Error('boom')) as { stack: string }).stack;
    expect(frames).toMatch(/^\s+at .*log\.test\.ts/);
  });

  it('are what the server logger writes for `err`', () => {
    const serializers = (log as unknown as Record<symbol, Record<string, unknown>>)[pino.symbols.serializersSym]!;
    expect(serializers.err).toBe(serializeErr);
  });
});
