import { describe, expect, it } from 'vitest';
import { changeMarks, countChanges, diffStates, preview, wholeValue } from './diff';

const before = {
  messages: [{ type: 'human', content: 'Disk at 95%' }],
  plan: {
    steps: [
      { step: 'measure', done: false },
      { step: 'free WAL', done: false },
    ],
  },
  notes: ['a'],
  owner: 'sre',
};
const after = {
  messages: [
    { type: 'human', content: 'Disk at 95%' },
    { type: 'ai', content: 'Checking.' },
  ],
  plan: {
    steps: [
      { step: 'measure', done: true },
      { step: 'free WAL', done: false },
    ],
  },
  notes: ['a'],
  'on call': true,
};

describe('the path-level diff of two states', () => {
  it('lists each changed path as added, removed or changed, with old and new values', () => {
    const d = diffStates(before, after);
    expect(d.map((c) => [c.kind, c.path])).toEqual([
      ['added', 'messages[1]'],
      ['changed', 'plan.steps[0].done'],
      ['removed', 'owner'],
      ['added', '["on call"]'],
    ]);
    expect(d[0]).toEqual({
      path: 'messages[1]',
      segments: ['messages', 1],
      kind: 'added',
      to: { type: 'ai', content: 'Checking.' },
    });
    expect(d[1]).toMatchObject({ from: false, to: true });
    expect(d[2]).toMatchObject({ from: 'sre' });
    expect(d[2]).not.toHaveProperty('to');
    expect(countChanges(d)).toEqual({ added: 2, removed: 1, changed: 1 });
  });

  it('is empty for equal states, and handles states that are not objects', () => {
    expect(diffStates(before, structuredClone(before))).toEqual([]);
    expect(diffStates(3, 3)).toEqual([]);
    expect(diffStates({ a: 1 }, [1])).toEqual([{ path: '', segments: [], kind: 'changed', from: { a: 1 }, to: [1] }]);
    expect(diffStates(undefined, { a: 1 })).toEqual([{ path: '', segments: [], kind: 'added', to: { a: 1 } }]);
    // An item removed from the front of an array: index by index.
    expect(diffStates({ l: [1, 2, 3] }, { l: [2, 3] }).map((c) => [c.kind, c.path])).toEqual([
      ['changed', 'l[0]'],
      ['changed', 'l[1]'],
      ['removed', 'l[2]'],
    ]);
  });

  it('marks where the changes are for the tree: at a path, and how many within each container', () => {
    const { at, within } = changeMarks(diffStates(before, after));
    expect([...at]).toEqual([
      ['messages[1]', 'added'],
      ['plan.steps[0].done', 'changed'],
      ['owner', 'removed'],
      ['["on call"]', 'added'],
    ]);
    expect([...within]).toEqual([
      ['messages', 1],
      ['plan', 1],
      ['plan.steps', 1],
      ['plan.steps[0]', 1],
    ]);
  });
});

describe('values in the diff', () => {
  it('show on one line, clipped with a mark, and whole on demand', () => {
    expect(preview('short')).toEqual({ text: '"short"', clipped: false });
    expect(preview({ a: [1, 2] })).toEqual({ text: '{"a":[1,2]}', clipped: false });
    expect(preview(undefined)).toEqual({ text: '—', clipped: false });
    const p = preview('x'.repeat(300), 40);
    expect(p).toEqual({ text: `"${'x'.repeat(38)}…`, clipped: true });
    expect(p.text).toHaveLength(40);
    expect(wholeValue('line 1\nline 2')).toBe('line 1\nline 2');
    expect(wholeValue({ a: 1 })).toBe('{\n  "a": 1\n}');
  });
});
