import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf, type DbHandle } from '@/server/db';
import { DRIVERS, freshDb } from '@/server/test/db';
import { ingest } from './ingest';
import { exportSession } from './sessions';
import { exportProject, importProject } from './archive';
import { lockScoreNames, missingTargets } from './annotations-ingest';
import { scoreDefinitions } from '@/server/db/schema/annotations';
import {
  annotate,
  annotatedTurns,
  annotationCounts,
  defineScore,
  listAnnotations,
  listScoreDefinitions,
  removeAnnotation,
  removeScoreDefinition,
} from './annotations';

const rec = (data: Record<string, unknown>) => ({ ok: true as const, value: { type: 'annotation', data } });
const turn = (n: number) => ({
  ok: true as const,
  value: {
    type: 'turn',
    data: { session_id: 's1', agent: 'a', turn: n, input: 'i', output: 'o', ccs: 'constraints: keep(db)' },
  },
});

describe.each(DRIVERS)('annotations on %s', (driver) => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb(driver);
    await ingest(h.db, 'default', [1, 2, 3].map(turn), 'test');
  });
  afterAll(() => h?.close());

  it('refuses a score that does not fit its definition, naming the field; stores the rest of the batch', async () => {
    await defineScore(h.db, 'default', { name: 'correct', kind: 'boolean' }, 'admin');
    await defineScore(h.db, 'default', { name: 'quality', kind: 'numeric', min: 0, max: 5 }, 'admin');
    await defineScore(
      h.db,
      'default',
      { name: 'verdict', kind: 'categorical', categories: ['right', 'wrong', 'unsure'] },
      'admin',
    );
    await expect(defineScore(h.db, 'default', { name: 'quality', kind: 'boolean' }, 'admin')).rejects.toThrow(
      /already defined/,
    );
    const s = await ingest(
      h.db,
      'default',
      [
        rec({ id: 'j1', target: 'turn', session_id: 's1', turn: 2, name: 'quality', value: 4.5 }),
        rec({ id: 'j2', target: 'turn', session_id: 's1', turn: 2, name: 'quality', value: 7 }),
        rec({ id: 'j3', target: 'turn', session_id: 's1', turn: 3, name: 'correct', value: 'yes' }),
        rec({ id: 'j4', target: 'turn', session_id: 's1', turn: 3, name: 'verdict', value: 'maybe' }),
        rec({ id: 'j5', target: 'term', session_id: 's1', turn: 1, field: 'constraints' }),
        rec({ id: 'j6', target: 'turn', session_id: 's1', turn: 1, name: 'free_form', value: 0.3, comment: 'ok' }),
        rec({ id: 'j1', target: 'turn', session_id: 's1', turn: 2, name: 'quality', value: 1 }),
      ],
      'api_key:judge',
    );
    expect(s.results.map((r) => r.status)).toEqual([
      'accepted',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'accepted',
      // j1 again with another value: the first kept, the second named a conflict.
      'conflict',
    ]);
    const errors = s.results.map((r) => (r.status === 'rejected' ? r.errors : []));
    expect(errors[1]).toEqual([{ path: 'data.value', message: 'must be ≤ 5 (score quality)' }]);
    expect(errors[2]![0]!.message).toMatch(/true or false/);
    expect(errors[3]![0]!.message).toBe('must be one of: right, wrong, unsure (score verdict)');
    // Every missing field of a term annotation is named, and that it has neither a score nor a comment.
    expect(errors[4]!.map((e) => e.path).sort()).toEqual(['data.term', 'data.value']);
    const { items } = await listAnnotations(h.db, 'default', { sessionId: 's1' });
    expect(items.map((a) => [a.id, a.value, a.author])).toEqual([
      ['j6', 0.3, 'api_key:judge'],
      ['j1', 4.5, 'api_key:judge'],
    ]);
  });

  it('keeps an annotation whose target is not stored, warning of it by field; one sent with it counts', async () => {
    const event = {
      ok: true as const,
      value: {
        type: 'memory_event',
        data: {
          event_id: 'memevt_warnings1',
          content: 'The payments team owns the ledger reconciliation job.',
          memory_kind: 'fact',
          suggested_scope: 'team_memory',
          source_agent: 'ops-bot',
          task_id: 'T-1',
          confidence: 'high',
          sensitivity: 'internal',
          ttl: 'durable',
          evidence_refs: ['commit:abc1234'],
          timestamp: '2026-11-25T10:00:00Z',
        },
      },
    };
    expect((await ingest(h.db, 'default', [event], 'test')).curation).toMatchObject({ proposed: 1 });
    const nil = '00000000-0000-4000-8000-000000000000';
    const [proposal] = rowsOf<{ id: string }>(await h.db.execute(sql`select id from proposals limit 1`));
    const upper = proposal!.id.toUpperCase();
    const sent = [
      rec({ id: 'w1', target: 'turn', session_id: 's1', turn: 2, comment: 'here' }),
      rec({ id: 'w2', target: 'turn', session_id: 's9', turn: 1, comment: 'early' }),
      rec({ id: 'w3', target: 'turn', session_id: 's1', turn: 99, comment: 'early' }),
      rec({
        id: 'w4',
        target: 'term',
        session_id: 's1',
        turn: 1,
        field: 'constraints',
        term: 'keep(db)',
        comment: 'x',
      }),
      rec({ id: 'w5', target: 'term', session_id: 's1', turn: 1, field: 'constraints', term: 'nope', comment: 'x' }),
      rec({ id: 'w6', target: 'artifact', artifact_id: 'art-x', comment: 'x' }),
      rec({
        id: 'w11',
        target: 'term',
        session_id: 's1',
        turn: 1,
        field: 'constraint',
        term: 'keep(db)',
        comment: 'x',
      }),
      rec({ id: 'w12', target: 'proposal', proposal_id: upper, comment: 'x' }),
      rec({ id: 'w7', target: 'proposal', proposal_id: proposal!.id, comment: 'x' }),
      rec({ id: 'w8', target: 'proposal', proposal_id: 'p0', comment: 'x' }),
      rec({ id: 'w9', target: 'entry', entry_id: nil, comment: 'x' }),
      { ...turn(1), value: { ...turn(1).value, data: { ...turn(1).value.data, session_id: 's7' } } },
      rec({ id: 'w10', target: 'turn', session_id: 's7', turn: 1, comment: 'sent with its turn' }),
    ];
    const s = await ingest(h.db, 'default', sent, 'api_key:judge');
    const warned = (r: (typeof s.results)[number]) =>
      r.status === 'rejected' ? r.status : (r.warnings ?? []).map((w) => `${w.path}: ${w.message}`);
    expect(s.results.map((r) => r.status)).toEqual(Array(sent.length).fill('accepted'));
    const kept = 'the annotation is kept';
    expect(s.results.map(warned)).toEqual([
      [],
      [`data.session_id: no session "s9" is stored yet: ${kept}`],
      [`data.turn: session "s1" has no turn 99 yet: ${kept}`],
      [],
      [`data.term: turn 1's constraints holds no term "nope": ${kept}, but the turn will not show it`],
      [`data.artifact_id: no artifact "art-x" is stored yet: ${kept}`],
      [`data.field: turn 1's CCS has no field "constraint": ${kept}`],
      [`data.proposal_id: no proposal "${upper}" in this project (its ids are the curator's): ${kept}`],
      [],
      [`data.proposal_id: no proposal "p0" in this project (its ids are the curator's): ${kept}`],
      [`data.entry_id: no entry "${nil}" in this project (its ids are the curator's): ${kept}`],
      [],
      [],
    ]);
    // A retry is a duplicate that says so again; the annotations are stored either way.
    const again = await ingest(h.db, 'default', [sent[1]!], 'api_key:judge');
    expect(again.results[0]).toMatchObject({ status: 'duplicate', warnings: [{ path: 'data.session_id' }] });
    const { items } = await listAnnotations(h.db, 'default', { author: 'api_key:judge' });
    expect(items.filter((a) => a.id.startsWith('w')).length).toBe(12);
    // Read back, the same targets are missing (the Annotations page marks them "not stored" instead of a link).
    const mine = items.filter((a) => a.id.startsWith('w'));
    const missing = await missingTargets(h.db, 'default', mine);
    expect(Object.fromEntries(mine.map((a, k) => [a.id, missing[k]?.path ?? null]))).toEqual({
      w1: null,
      w2: 'data.session_id',
      w3: 'data.turn',
      w4: null,
      w5: 'data.term',
      w6: 'data.artifact_id',
      w7: null,
      w8: 'data.proposal_id',
      w9: 'data.entry_id',
      w10: null,
      w11: 'data.field',
      w12: 'data.proposal_id',
    });
    await h.db.execute(sql`delete from annotations where id like 'w%'`);
  });

  it('a person annotates through the same checks; the comment is redacted; marks count per turn', async () => {
    const a = await annotate(
      h.db,
      'default',
      {
        target: 'term',
        session_id: 's1',
        turn: 2,
        field: 'constraints',
        term: 'keep(db)',
        name: 'verdict',
        value: 'wrong',
        comment: 'the key sk-live-abcdefghijklmnopqrstuvwx leaked',
      },
      'ana',
    );
    expect(a).toMatchObject({ author: 'ana', actor: 'ana', target: 'term', value: 'wrong' });
    expect(a.comment).not.toContain('abcdefghijklmnop');
    await expect(
      annotate(h.db, 'default', { target: 'turn', session_id: 's1', name: 'quality', value: 9 }, 'ana'),
    ).rejects.toThrow('turn: required for a turn annotation');
    expect(await annotatedTurns(h.db, 'default', 's1')).toEqual([
      { turn: 1, n: 1, names: ['free_form'] },
      { turn: 2, n: 2, names: ['quality', 'verdict'] },
    ]);
    expect((await listScoreDefinitions(h.db, 'default')).map((d) => [d.name, d.uses])).toEqual([
      ['correct', 0],
      ['quality', 1],
      ['verdict', 1],
    ]);
    await expect(removeScoreDefinition(h.db, 'default', 'quality', 'admin')).rejects.toThrow(/used by 1/);
    await removeScoreDefinition(h.db, 'default', 'correct', 'admin');
  });

  it('pages newest first by keyset, filters, counts on page one; only its author or an admin removes one', async () => {
    for (let i = 0; i < 5; i++)
      await annotate(h.db, 'default', { target: 'proposal', proposal_id: `p${i % 2}`, comment: `c${i}` }, 'bo');
    const first = await listAnnotations(h.db, 'default', { author: 'bo', limit: 2 });
    expect(first.matching).toBe(5);
    expect(first.facets!.author).toMatchObject({ bo: 5, ana: 1 });
    const second = await listAnnotations(h.db, 'default', { author: 'bo', limit: 2, after: first.next });
    const third = await listAnnotations(h.db, 'default', { author: 'bo', limit: 2, after: second.next });
    expect(second.matching).toBeNull();
    expect([...first.items, ...second.items, ...third.items].map((a) => a.comment)).toEqual([
      'c4',
      'c3',
      'c2',
      'c1',
      'c0',
    ]);
    expect(third.next).toBeNull();
    expect(await annotationCounts(h.db, 'default', 'proposal', ['p0', 'p1', 'p9'])).toEqual({ p0: 3, p1: 2 });
    expect((await listAnnotations(h.db, 'default', { commented: false })).items.map((a) => a.id)).toEqual(['j1']);
    const victim = first.items[0]!.id;
    await expect(removeAnnotation(h.db, 'default', victim, 'ana', false)).rejects.toThrow(/only its author \(bo\)/);
    await removeAnnotation(h.db, 'default', victim, 'ana', true);
    expect((await listAnnotations(h.db, 'default', { author: 'bo' })).matching).toBe(4);
  });

  it('the session export carries its annotations, and a project archive brings them back exactly', async () => {
    const env = await exportSession(h.db, 'default', 's1');
    const notes = env.filter((e) => e.type === 'annotation').map((e) => e.data as Record<string, unknown>);
    expect(notes.map((n) => n.id)).toEqual(['j1', 'j6', expect.any(String)]);
    expect(notes[0]).toMatchObject({ target: 'turn', turn: 2, name: 'quality', value: 4.5, author: 'api_key:judge' });
    expect(notes[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    // Sent again into another project, they are annotations there with the same time and author.
    const other = await freshDb(driver);
    try {
      const back = await ingest(
        other.db,
        'default',
        env.map((value) => ({ ok: true, value })),
        'import',
      );
      expect(back.rejected).toBe(0);
      const { items } = await listAnnotations(other.db, 'default', { sessionId: 's1' });
      expect(items.map((a) => a.author).sort()).toEqual(['ana', 'api_key:judge', 'api_key:judge']);
      const lines: string[] = [];
      await exportProject(h.db, 'default', (l) => void lines.push(l));
      const third = await freshDb(driver);
      try {
        await importProject(third.db, lines);
        const a = await listAnnotations(h.db, 'default', {});
        const b = await listAnnotations(third.db, 'default', {});
        expect(b.items).toEqual(a.items);
        expect((await listScoreDefinitions(third.db, 'default')).map((d) => d.name)).toEqual(['quality', 'verdict']);
      } finally {
        await third.close();
      }
    } finally {
      await other.close();
    }
  });
  it('defines a score over free annotations only if every value they hold fits, naming those that do not', async () => {
    const s = await ingest(
      h.db,
      'default',
      [
        rec({ id: 't1', target: 'turn', session_id: 's1', turn: 1, name: 'tone', value: 'warm' }),
        rec({ id: 't2', target: 'turn', session_id: 's1', turn: 2, name: 'tone', value: 'warm' }),
        rec({ id: 't3', target: 'turn', session_id: 's1', turn: 3, name: 'tone', value: 'cold' }),
        rec({ id: 't4', target: 'turn', session_id: 's1', turn: 3, name: 'tone', value: 0.5 }),
      ],
      'api_key:judge',
    );
    expect(s.accepted).toBe(4);
    await expect(
      defineScore(h.db, 'default', { name: 'tone', kind: 'categorical', categories: ['warm', 'neutral'] }, 'admin'),
    ).rejects.toThrow(
      'score tone cannot be defined so: 2 annotations already under it hold values it would not allow: ' +
        '"cold" (1), 0.5 (1). Define it to allow them, or give it another name',
    );
    expect((await listScoreDefinitions(h.db, 'default')).some((d) => d.name === 'tone')).toBe(false);
    // The misfit removed, and the missing category added: defined.
    await removeAnnotation(h.db, 'default', 't4', 'admin', true);
    await defineScore(h.db, 'default', { name: 'tone', kind: 'categorical', categories: ['warm', 'cold'] }, 'admin');
    expect((await listScoreDefinitions(h.db, 'default')).find((d) => d.name === 'tone')).toMatchObject({ uses: 3 });
  });

  it('never writes a value that a definition committed meanwhile refuses (another instance defining it)', async () => {
    let settled = false;
    let write: Promise<Awaited<ReturnType<typeof ingest>>> | undefined;
    // What defineScore does, held open: the name locked and the definition written, not yet committed.
    await h.db.transaction(async (tx) => {
      await lockScoreNames(tx, 'default', ['stars'], 'exclusive');
      await tx.insert(scoreDefinitions).values({
        projectId: 'default',
        name: 'stars',
        kind: 'numeric',
        min: 1,
        max: 5,
        categories: [],
        createdBy: 'admin',
      });
      write = ingest(
        h.db,
        'default',
        [rec({ id: 'r1', target: 'turn', session_id: 's1', turn: 1, name: 'stars', value: 9 })],
        'api_key:judge',
      ).finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toBe(false);
    });
    const s = await write!;
    expect(s.results[0]).toMatchObject({
      status: 'rejected',
      errors: [{ path: 'data.value', message: 'must be ≤ 5 (score stars)' }],
    });
    expect(await listAnnotations(h.db, 'default', { name: 'stars' })).toMatchObject({ items: [] });
  });
});
