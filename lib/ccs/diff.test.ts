import { describe, expect, it } from 'vitest';
import { diffCcs, diffField } from './diff';
import { blame, buildHistory, segments } from './provenance';
import { parseTerm, termName, firstArg } from './terms';

describe('parseTerm', () => {
  it('parses nested predicates into a tree', () => {
    expect(parseTerm('timing(502_spikes after(http2_enable))')).toEqual({
      ok: true,
      node: { name: 'timing', args: ['502_spikes', { name: 'after', args: ['http2_enable'] }] },
    });
    expect(parseTerm('level(medium)')).toEqual({ ok: true, node: { name: 'level', args: ['medium'] } });
    expect(parseTerm('plain_atom')).toEqual({ ok: true, node: 'plain_atom' });
  });
  it('flags malformed terms and keeps them raw', () => {
    expect(parseTerm('timing(502 after(x)')).toMatchObject({ ok: false, raw: 'timing(502 after(x)' });
    expect(parseTerm('x) y(')).toMatchObject({ ok: false });
    expect(parseTerm('(orphan)')).toMatchObject({ ok: false });
  });
  it('names the predicate and its first argument', () => {
    expect(termName('service(nginx)')).toBe('service');
    expect(firstArg('service(nginx)')).toBe('nginx');
    expect(termName('free text')).toBeNull();
  });
});

describe('diffCcs', () => {
  it('is term-level: a term that moved is no change', () => {
    const d = diffCcs({ constraints: ['a(1)', 'b(2)'] }, { constraints: ['b(2)', 'a(1)'] });
    expect(d.same).toBe(true);
  });
  it('reports added, removed and changed terms per field', () => {
    const d = diffCcs(
      {
        constraints: ['no_restart(nginx)', 'retry_only(x)'],
        uncertainty_signal: ['level(medium)', 'gaps(root_cause)'],
      },
      {
        constraints: ['no_restart(nginx)', 'safe(y)'],
        uncertainty_signal: ['level(low)', 'gaps(root_cause)'],
        predictive_cue: ['check(z)'],
      },
    );
    expect(d.counts).toEqual({ added: 2, removed: 1, changed: 1 });
    const byField = Object.fromEntries(d.fields.map((f) => [f.field, f]));
    expect(byField.constraints).toMatchObject({
      added: ['safe(y)'],
      removed: ['retry_only(x)'],
      unchanged: ['no_restart(nginx)'],
      changed: [],
    });
    expect(byField.uncertainty_signal?.changed).toEqual([{ from: 'level(medium)', to: 'level(low)' }]);
    expect(byField.predictive_cue?.added).toEqual(['check(z)']);
  });
  it('never pairs two different entities as a change', () => {
    expect(diffField('focal_entities', ['service(nginx)'], ['service(redis)'])).toMatchObject({
      added: ['service(redis)'],
      removed: ['service(nginx)'],
      changed: [],
    });
  });
  it('does not pair when a name is ambiguous', () => {
    expect(diffField('predictive_cue', ['check(a)', 'check(b)'], ['check(c)'])).toMatchObject({
      changed: [],
      added: ['check(c)'],
    });
  });
});

describe('provenance', () => {
  const turns = [
    { turn: 1, ccs: { constraints: ['a'], uncertainty_signal: ['level(high)'] } },
    { turn: 2, ccs: { constraints: ['a', 'b'], uncertainty_signal: ['level(medium)'] } },
    { turn: 3, ccs: { constraints: ['b'], uncertainty_signal: ['level(medium)'] } },
    { turn: 5, ccs: { constraints: ['b', 'a'], uncertainty_signal: ['level(low)'] } },
  ];
  const h = buildHistory(turns);

  it('knows the turn that brought a term in, and its history', () => {
    expect(blame(h, 'constraints', 'a', 5).introduced).toEqual({ turn: 5, kind: 'added' });
    expect(blame(h, 'constraints', 'a', 2).introduced).toEqual({ turn: 1, kind: 'added' });
    expect(blame(h, 'constraints', 'a', 5).history.map((e) => `${e.kind}@${e.turn}`)).toEqual([
      'added@1',
      'removed@3',
      'added@5',
    ]);
    expect(blame(h, 'uncertainty_signal', 'level(low)', 5).introduced).toEqual({
      turn: 5,
      kind: 'changed_to',
      other: 'level(medium)',
    });
  });

  it('marks the turns that changed nothing', () => {
    expect(h.diffs.map((d) => d.same)).toEqual([false, false, false, false]);
    expect(buildHistory([turns[1]!, { ...turns[1]!, turn: 3 }]).diffs[1]!.same).toBe(true);
  });

  it('gives each constraint its runs of presence', () => {
    expect(h.constraints.map((c) => [c.term, segments(c.present)])).toEqual([
      [
        'a',
        [
          [0, 1],
          [3, 3],
        ],
      ],
      ['b', [[1, 3]]],
    ]);
  });
});
