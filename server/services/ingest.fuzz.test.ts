import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@/server/db';
import { rowsOf } from '@/server/db';
import { freshDb } from '@/server/test/db';
import { ingest } from './ingest';
import { REDOS_SHAPES } from '@/lib/redact/hostile-shapes';

/** `{"a": {"a": … depth … }}`. */
const nested = (depth: number) => {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

/**
 * Property-based fuzzing of ingest: 10,000 generated records — valid envelopes of every common type,
 * the same with fields dropped, replaced by arbitrary JSON, stretched, or joined by hostile keys, and
 * arbitrary JSON. The hostile shapes of the red-team pass are among them: 20 KB strings that make a backtracking
 * redaction rule go quadratic, NULs and control characters in ids, nesting past the 64-level limit (up to 5,000
 * levels), numbers JSON cannot hold. Whatever comes in: no exception, a result for every record, every rejection
 * names a field, and a rejected record leaves nothing behind.
 */
const VALID: Record<string, () => Record<string, unknown>> = {
  turn: () => ({
    session_id: 'fuzz-s',
    agent: 'fuzz',
    turn: 1,
    input: 'q',
    output: 'a',
    ccs: 'goal_orientation: fix(502)',
  }),
  session: () => ({ id: 'fuzz-s', agent: 'fuzz', title: 'Fuzz' }),
  artifact: () => ({ id: 'fuzz-a', session_id: 'fuzz-s', kind: 'log', content: 'a log line' }),
  memory_event: () => ({
    event_id: 'memevt_fuzz_00000001',
    timestamp: '2026-11-21T08:00:00Z',
    source_agent: 'fuzz',
    task_id: 't',
    memory_kind: 'fact',
    content: 'The fuzz service answers on port 9.',
    suggested_scope: 'session',
    sensitivity: 'internal',
    confidence: 'low',
    evidence_refs: [],
    ttl: 'session',
  }),
};

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom(
    '',
    ' ',
    '__proto__',
    'constructor',
    '<script>alert(1)</script>',
    '\u0000',
    '\uD800',
    'x'.repeat(70_000),
    '2026-13-45T99:99:99Z',
    'NaN',
    '-1',
    '1e309',
    'fuzz-\u0000-id',
    'memevt_fuzz\u001b[31m',
  ),
  fc.constantFrom(...REDOS_SHAPES.map(([, make]) => make(20_000))),
);
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  hostileString,
  fc.constantFrom(null, -1, 0, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, true, Infinity, -Infinity, NaN),
  fc.constantFrom(nested(63), nested(65), nested(5_000)),
);

const mutated = fc
  .record({
    type: fc.constantFrom(...Object.keys(VALID)),
    ops: fc.array(
      fc.oneof(
        fc.record({ op: fc.constant('drop' as const), key: fc.nat() }),
        fc.record({ op: fc.constant('set' as const), key: fc.nat(), value: anyJson }),
        fc.record({
          op: fc.constant('add' as const),
          key: fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'prototype')),
          value: anyJson,
        }),
      ),
      { maxLength: 4 },
    ),
    typeValue: fc.option(anyJson, { freq: 8 }),
  })
  .map(({ type, ops, typeValue }) => {
    const data = VALID[type]!();
    const keys = Object.keys(data);
    for (const o of ops) {
      if (o.op === 'drop') delete data[keys[o.key % keys.length]!];
      else if (o.op === 'set') data[keys[o.key % keys.length]!] = o.value;
      else Object.defineProperty(data, o.key, { value: o.value, enumerable: true, configurable: true, writable: true });
    }
    return { type: typeValue === null ? type : typeValue, data };
  });

const record = fc.oneof({ arbitrary: mutated, weight: 4 }, { arbitrary: anyJson, weight: 1 });

const TABLES = ['sessions', 'turns', 'artifacts', 'memory_events', 'memory_entries', 'proposals'];

describe('ingest under fuzzing', () => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb('pglite');
  });
  afterAll(() => h?.close());

  const counts = async () =>
    rowsOf<Record<string, number>>(
      await h.db.execute(sql.raw(`select ${TABLES.map((t) => `(select count(*)::int from ${t}) as ${t}`).join(', ')}`)),
    )[0]!;

  it('answers 10,000 generated records with no exception; each rejection names a field, stores nothing', async () => {
    let n = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(record, async (value) => {
        n++;
        // Fresh ids so valid records are new, not duplicates of an earlier case.
        if (
          value &&
          typeof value === 'object' &&
          !Array.isArray(value) &&
          'data' in value &&
          value.data &&
          typeof value.data === 'object'
        ) {
          const d = value.data as Record<string, unknown>;
          for (const k of ['session_id', 'id', 'event_id'] as const)
            if (typeof d[k] === 'string' && (d[k] as string).startsWith(k === 'event_id' ? 'memevt_fuzz' : 'fuzz-'))
              d[k] = `${d[k]}${n}`;
        }
        const before = await counts();
        const r = await ingest(h.db, 'default', [{ ok: true, value }], 'fuzz');
        expect(r.results).toHaveLength(1);
        const res = r.results[0]!;
        if (res.status === 'rejected') {
          expect(res.errors?.length).toBeGreaterThan(0);
          const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
          for (const e of res.errors!) {
            expect(e.message.length).toBeGreaterThan(0);
            if (isObject) expect(e.path).toMatch(/^(type|data)/);
          }
          expect(await counts()).toEqual(before);
        } else accepted++;
      }),
      { numRuns: 10_000, seed: 20261121 },
    );
    console.log(`[fuzz] ${n} records, ${accepted} accepted, ${n - accepted} rejected`);
    expect(accepted).toBeGreaterThan(50);
  }, 300_000);
});
