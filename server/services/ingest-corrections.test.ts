import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type DbHandle } from '@/server/db';
import { DRIVERS, freshDb } from '@/server/test/db';
import { ingest } from './ingest';
import { ensureProject } from './projects';
import { searchMemory } from './memory-search';
import { sessionDigestJson, sessionStamp } from './session-digest';

const env = (type: string, data: Record<string, unknown>) => ({ ok: true as const, value: { type, data } });
const turn = (n: number, over: Record<string, unknown> = {}) =>
  env('turn', {
    session_id: 'fix',
    agent: 'bot',
    turn: n,
    input: `question ${n}`,
    output: `answer ${n}`,
    ccs: { goal_orientation: ['restore(api)'] },
    hallucination: 0,
    ...over,
  });

describe.each(DRIVERS)('a record sent again with other content, on %s', (driver) => {
  let h: DbHandle;
  const one = <T>(q: ReturnType<typeof sql>) => h.db.execute(q).then((r) => rowsOf<T>(r)[0]!);
  beforeAll(async () => {
    h = await freshDb(driver);
    await ensureProject(h.db, 'default', 'Default');
    await ingest(h.db, 'default', [env('session', { id: 'fix', agent: 'bot', title: 'First' }), turn(1), turn(2)], 'k');
  }, 120_000);
  afterAll(() => h?.close());

  it('is a conflict naming the fields that differ, the stored version kept; the same content a duplicate', async () => {
    const r = await ingest(
      h.db,
      'default',
      [
        turn(1),
        turn(2, { output: 'another answer', hallucination: 1 }),
        env('session', { id: 'fix', agent: 'bot', title: 'Second' }),
      ],
      'k',
    );
    expect(r.results.map((x) => x.status)).toEqual(['duplicate', 'conflict', 'conflict']);
    expect(r.results[1]).toMatchObject({
      fields: ['output', 'hallucination'],
      message: expect.stringMatching(/supersede=true/),
    });
    expect(r.results[2]).toMatchObject({ fields: ['title'] });
    expect(r).toMatchObject({ accepted: 0, duplicates: 1, conflicts: 2, rejected: 0, superseded: 0 });
    expect(await one<{ output: string }>(sql`select output from turns where session_id = 'fix' and turn = 2`)).toEqual({
      output: 'answer 2',
    });
  });

  it('with supersede, replaces it: the old version kept, the change audited, digest and figures follow', async () => {
    // The digest exists before the correction.
    expect(JSON.parse(await sessionDigestJson(h.db, 'default', 'fix')).n).toBe(2);
    const stamp = await sessionStamp(h.db, 'default', 'fix');
    const r = await ingest(
      h.db,
      'default',
      [turn(2, { output: 'another answer', hallucination: 1, ccs: { goal_orientation: ['verify(api)'] } })],
      'api_key:k',
      { supersede: true },
    );
    expect(r.results[0]).toMatchObject({ status: 'superseded', fields: ['output', 'ccs', 'hallucination'] });
    expect(r).toMatchObject({ superseded: 1, conflicts: 0 });
    expect(await one(sql`select output, hallucination from turns where session_id = 'fix' and turn = 2`)).toEqual({
      output: 'another answer',
      hallucination: 1,
    });
    const v = await one<{ record_type: string; record_id: string; old: { output: string }; superseded_by: string }>(
      sql`select record_type, record_id, old, superseded_by from record_versions`,
    );
    expect(v).toMatchObject({
      record_type: 'turn',
      record_id: 'fix/2',
      old: { output: 'answer 2' },
      superseded_by: 'api_key:k',
    });
    expect(
      await one(sql`select detail from audit_log where action = 'record.supersede' and subject_id = 'fix/2'`),
    ).toEqual({ detail: { fields: ['output', 'ccs', 'hallucination'] } });
    // The session's figures and its replay digest are those of the new version.
    expect(await one(sql`select h_sum, turn_count from session_stats where session_id = 'fix'`)).toMatchObject({
      h_sum: 1,
      turn_count: 2,
    });
    const digest = JSON.parse(await sessionDigestJson(h.db, 'default', 'fix')) as { n: number; stamp: string };
    expect(digest.n).toBe(2);
    // Open replay pages hear of it: the stamp moved though the count did not, and the digest answers to it.
    expect(digest.stamp).not.toBe(stamp);
    expect(digest.stamp).toBe(await sessionStamp(h.db, 'default', 'fix'));
    const terms = await one<{ n: number }>(
      sql`select count(*)::int as n from term_events where session_id = 'fix' and term = 'verify(api)'`,
    );
    expect(terms.n).toBe(1);
  });

  it('supersedes artifacts and annotations too; never a memory event the curator has seen', async () => {
    const art = (content: string) => env('artifact', { id: 'rb-1', session_id: 'fix', agent: 'bot', content });
    const note = (comment: string) =>
      env('annotation', { id: 'n-1', target: 'turn', session_id: 'fix', turn: 1, comment });
    const event = (content: string) =>
      env('memory_event', {
        event_id: 'memevt_correction_0001',
        source_agent: 'bot',
        task_id: 'T',
        memory_kind: 'fact',
        content,
        suggested_scope: 'project',
        confidence: 'high',
        sensitivity: 'internal',
        ttl: 'durable',
        evidence_refs: ['commit:abc1234'],
        timestamp: '2026-11-25T10:00:00Z',
      });
    await ingest(
      h.db,
      'default',
      [art('runbook: restart the gateway'), note('fine'), event('The API restarts in 30 s.')],
      'k',
    );
    // Search holds the first version; after the correction it finds the new one, not the old.
    expect((await searchMemory(h.db, 'default', 'gateway', { mode: 'keyword' })).results.map((r) => r.id)).toEqual([
      'rb-1',
    ]);
    const r = await ingest(h.db, 'default', [art('v2'), note('wrong'), event('The API restarts in 60 s.')], 'k', {
      supersede: true,
    });
    expect(r.results.map((x) => [x.status, 'fields' in x ? x.fields : null])).toEqual([
      ['superseded', ['content']],
      ['superseded', ['comment']],
      ['conflict', ['raw']],
    ]);
    expect(r.results[2]).toMatchObject({ message: expect.stringMatching(/supersedes/) });
    expect(await one(sql`select content from artifacts where id = 'rb-1'`)).toEqual({ content: 'v2' });
    expect((await searchMemory(h.db, 'default', 'gateway', { mode: 'keyword' })).results).toEqual([]);
    expect(await one(sql`select comment from annotations where id = 'n-1'`)).toEqual({ comment: 'wrong' });
    expect(
      await one(sql`select raw->>'content' as c from memory_events where event_id = 'memevt_correction_0001'`),
    ).toEqual({ c: 'The API restarts in 30 s.' });
  });

  it('a session first made implicit by its turns takes its declaration without a conflict', async () => {
    await ingest(h.db, 'default', [turn(1, { session_id: 'implicit' })], 'k');
    const r = await ingest(
      h.db,
      'default',
      [env('session', { id: 'implicit', agent: 'bot', title: 'Named later' })],
      'k',
    );
    expect(r.results[0]!.status).toBe('accepted');
  });
  it('refuses a turn whose traced span another turn of its session holds, naming that turn', async () => {
    const traced = (n: number, span: string, over: Record<string, unknown> = {}) =>
      env('turn', { ...turn(n, over).value.data, session_id: 'spans', otel: { span_id: span, trace_id: 't1' } });
    await ingest(h.db, 'default', [traced(1, 'span-a'), traced(3, 'span-c')], 'k');
    const again = await ingest(h.db, 'default', [traced(2, 'span-a'), traced(4, 'span-d')], 'k');
    expect(again.results.map((r) => r.status)).toEqual(['rejected', 'accepted']);
    expect(again.results[0]).toMatchObject({
      errors: [{ path: 'data.otel.span_id', message: expect.stringMatching(/span span-a is turn 1 of session spans/) }],
    });
    // A correction may keep its span, not take another turn's.
    const moved = await ingest(h.db, 'default', [traced(1, 'span-c', { output: 'moved' })], 'k', { supersede: true });
    expect(moved.results[0]).toMatchObject({
      status: 'rejected',
      errors: [{ path: 'data.otel.span_id', message: expect.stringMatching(/is turn 3 of session spans/) }],
    });
    const kept = await ingest(h.db, 'default', [traced(1, 'span-a', { output: 'kept' })], 'k', { supersede: true });
    expect(kept.results[0]).toMatchObject({ status: 'superseded', fields: ['output'] });
    const rows = rowsOf<{ turn: number; span: string; output: string }>(
      await h.db.execute(
        sql`select turn, extra->'otel'->>'span_id' as span, output from turns where session_id = 'spans' order by turn`,
      ),
    );
    expect(rows.map((r) => [Number(r.turn), r.span, r.output])).toEqual([
      [1, 'span-a', 'kept'],
      [3, 'span-c', 'answer 3'],
      [4, 'span-d', 'answer 4'],
    ]);
  });
});
