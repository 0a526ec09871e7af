import { describe, expect, it } from 'vitest';
import { checkEditedCcs, editableCcs, forkOrigin } from './fork';

describe('an edited CCS for a fork', () => {
  it('reads the text the replay shows, and names each term that does not parse with its field', () => {
    const ok = checkEditedCcs('goal_orientation: reduce(502_rate)\nconstraints: no_restart(nginx) keep(db)');
    expect(ok).toEqual({
      ccs: { goal_orientation: ['reduce(502_rate)'], constraints: ['no_restart(nginx)', 'keep(db)'] },
      problems: [],
    });
    const bad = checkEditedCcs('constraints: no_restart(nginx keep(db)\nfocal_entities: service(nginx))');
    expect(bad.problems).toHaveLength(2);
    expect(bad.problems[0]).toMatch(/^constraints: no_restart\(nginx keep\(db\) — /);
    expect(bad.problems[1]).toMatch(/^focal_entities: service\(nginx\)\) — /);
    // A field the reviewer adds stays a field of its own, and terms may continue on the lines below.
    expect(checkEditedCcs('constraints: keep(db)\nreviewer_note: checked(by_oncall)\n  seen(twice)').ccs).toEqual({
      constraints: ['keep(db)'],
      reviewer_note: ['checked(by_oncall)', 'seen(twice)'],
    });
    expect(checkEditedCcs('keep(db)\nconstraints: a').problems).toEqual([
      'line 1: terms before any field (start with `field: …`)',
    ]);
    // A line at the margin meant as a field whose name is not one is named, not taken as a term of the field above.
    expect(checkEditedCcs('constraints: keep(db)\n: foo\n2nd_field: x\n  time(12:30)').problems).toEqual([
      'line 2: `: foo` is not a field: a field is a name (letters, digits, _; not starting with a digit) then a ' +
        'colon; indent a term that holds a colon',
      'line 3: `2nd_field: x` is not a field: a field is a name (letters, digits, _; not starting with a digit) ' +
        'then a colon; indent a term that holds a colon',
    ]);
    expect(checkEditedCcs('constraints: keep(db)\nobserved(at(12:30))').problems).toEqual([]);
    expect(checkEditedCcs('  \n').problems).toEqual([
      'the CCS has no terms (write `field: term term(...)`, one field a line)',
    ]);
  });

  it('gives back exactly the terms it showed, free text with spaces included', () => {
    const ccs = {
      goal_orientation: ['restore(checkout)'],
      semantic_gist: ['restart the pod after the CA rotation', 'check(x)'],
      notes: ['{"a":1}'],
    };
    const text = editableCcs(ccs);
    expect(text).toBe(
      [
        'goal_orientation:',
        '  restore(checkout)',
        'semantic_gist:',
        '  restart the pod after the CA rotation',
        '  check(x)',
        'notes:',
        '  {"a":1}',
      ].join('\n'),
    );
    expect(checkEditedCcs(text)).toEqual({ ccs, problems: [] });
  });

  it('reads a fork origin from session metadata, and nothing else as one', () => {
    expect(forkOrigin({ forked_from: { session: 's', turn: 3, by: 'ana', at: '2026-11-25T00:00:00Z' } })).toEqual({
      session: 's',
      turn: 3,
      by: 'ana',
      at: '2026-11-25T00:00:00Z',
    });
    expect(forkOrigin({ forked_from: { session: 's', turn: '3' } })).toBeNull();
    expect(forkOrigin(null)).toBeNull();
  });
});
