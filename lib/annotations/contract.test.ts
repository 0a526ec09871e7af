import { describe, expect, it } from 'vitest';
import { normalizeEnvelope } from '@/lib/ingest/normalize';
import { formatScore, scoreDefinitionSchema, scoreProblem, targetLabel, type ScoreDefinition } from './contract';

const def = (d: Partial<ScoreDefinition>): ScoreDefinition => ({
  name: 's',
  kind: 'numeric',
  min: null,
  max: null,
  categories: [],
  description: null,
  ...d,
});

describe('score definitions', () => {
  it('check a value against the kind, the range and the categories', () => {
    expect(scoreProblem(def({ min: 0, max: 1 }), 0.5)).toBeNull();
    expect(scoreProblem(def({ min: 0, max: 1 }), -0.1)).toBe('must be ≥ 0 (score s)');
    expect(scoreProblem(def({ max: 1 }), 2)).toBe('must be ≤ 1 (score s)');
    expect(scoreProblem(def({}), 'high')).toMatch(/must be a number/);
    expect(scoreProblem(def({ kind: 'boolean' }), 1)).toMatch(/true or false/);
    expect(scoreProblem(def({ kind: 'categorical', categories: ['a', 'b'] }), 'b')).toBeNull();
    expect(scoreProblem(def({ kind: 'categorical', categories: ['a', 'b'] }), 'A')).toBe(
      'must be one of: a, b (score s)',
    );
  });

  it('refuse definitions that cannot hold a value, naming the field', () => {
    const issues = (v: unknown) =>
      scoreDefinitionSchema.safeParse(v).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(issues({ name: 'q', kind: 'numeric', min: 2, max: 1 })).toEqual([
      'max: the highest value must be ≥ the lowest (2)',
    ]);
    expect(issues({ name: 'v', kind: 'categorical', categories: ['x'] })).toEqual([
      'categories: a categorical score needs at least 2 categories',
    ]);
    expect(issues({ name: 'v', kind: 'categorical', categories: ['x', 'y', 'x'] })).toEqual([
      'categories: lists "x" twice',
    ]);
    expect(issues({ name: 'b', kind: 'boolean', min: 0 })).toEqual(['min: only a numeric score has a range']);
    expect(issues({ name: 'has space', kind: 'boolean' })[0]).toMatch(/^name: must be 1–64 letters/);
    expect(issues({ name: 'ok.name-1', kind: 'boolean' })).toEqual([]);
  });

  it('format values and targets for people', () => {
    expect([formatScore(true), formatScore(0.33333), formatScore(4), formatScore('wrong')]).toEqual([
      'yes',
      '0.333',
      '4',
      'wrong',
    ]);
    const none = { turn: null, field: null, term: null, artifactId: null, proposalId: null, entryId: null };
    expect(targetLabel({ ...none, target: 'term', turn: 3, field: 'constraints', term: 'keep(x)' })).toBe(
      'turn 3 · constraints: keep(x)',
    );
    expect(targetLabel({ ...none, target: 'proposal', proposalId: 'p1' })).toBe('proposal p1');
  });
});

describe('annotation records', () => {
  const norm = (data: unknown) => normalizeEnvelope({ type: 'annotation', data });
  it('name every field a target needs and a score without its other half', () => {
    const r = norm({ id: 'a', target: 'term', session_id: 's', name: 'q' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      'data.turn: required for a term annotation',
      'data.field: required for a term annotation',
      'data.term: required for a term annotation',
      'data.value: required with a name (the value of score q)',
    ]);
    expect(!r.ok && r.id).toBe('a');
    const unknown = norm({ id: 'b', target: 'turn', session_id: 's', turn: 1, comment: 'x', score: 1 });
    expect(!unknown.ok && unknown.errors).toEqual([{ path: 'data', message: 'unknown field(s): score' }]);
  });

  it('redact secrets in a comment and keep the rest as sent', () => {
    const r = norm({
      id: 'c',
      target: 'artifact',
      artifact_id: 'doc-1',
      name: 'relevant',
      value: false,
      comment: 'password=hunter2hunter2 was in it',
    });
    expect(r.ok).toBe(true);
    if (!r.ok || r.record.type !== 'annotation') return;
    expect(r.record).toMatchObject({ target: 'artifact', artifactId: 'doc-1', value: false, sessionId: null });
    expect(r.record.comment).not.toContain('hunter2');
    expect(r.record.redactions.length).toBe(1);
  });
});
