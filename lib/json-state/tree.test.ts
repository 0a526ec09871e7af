import { describe, expect, it } from 'vitest';
import { flattenTree, formatPath, kindOf, openTopLevel, summarize, treeKey, type TreeRow, type ValueRow } from './tree';

const state = {
  messages: [
    { type: 'human', content: 'Disk at 95% on db-7' },
    { type: 'ai', content: 'Checking.', tool_calls: [] },
  ],
  plan: { steps: [{ step: 'measure', done: true }], owner: null },
  'odd key': 3,
  flag: false,
};
const view = (rows: TreeRow[]) =>
  rows.map((r) => `${'  '.repeat(r.depth)}${r.kind === 'more' ? `+${r.hidden}` : `${r.path} ${r.kind}`}`);

describe('JSON paths', () => {
  it('are written as a reader writes them', () => {
    expect(formatPath(['messages', 3, 'content'])).toBe('messages[3].content');
    expect(formatPath(['plan', 'steps', 1, 'done'])).toBe('plan.steps[1].done');
    expect(formatPath(['odd key', 'a.b', '$ok', '9x'])).toBe('["odd key"]["a.b"].$ok["9x"]');
    expect(formatPath([0, 'x'])).toBe('[0].x');
    expect(formatPath([])).toBe('');
  });

  it('name the kind of each JSON value', () => {
    expect([{}, [], 'a', 1, true, null, undefined].map(kindOf)).toEqual([
      'object',
      'array',
      'string',
      'number',
      'boolean',
      'null',
      'null',
    ]);
  });
});

describe('the tree of a state', () => {
  it('shows the top level, each container closed, with its size; opens what is open', () => {
    const top = flattenTree(state, { isOpen: () => false });
    expect(view(top)).toEqual(['messages array', 'plan object', '["odd key"] number', 'flag boolean']);
    expect(top.map((r) => (r as ValueRow).size)).toEqual([2, 2, 0, 0]);
    expect((top[3] as ValueRow).value).toBe(false);

    const open = new Set(['messages', 'messages[1]', 'plan', 'plan.steps']);
    expect(view(flattenTree(state, { isOpen: (p) => open.has(p) }))).toEqual([
      'messages array',
      '  messages[0] object',
      '  messages[1] object',
      '    messages[1].type string',
      '    messages[1].content string',
      '    messages[1].tool_calls array',
      'plan object',
      '  plan.steps array',
      '    plan.steps[0] object',
      '  plan.owner null',
      '["odd key"] number',
      'flag boolean',
    ]);
    // Parents by path; an empty container never opens.
    const rows = flattenTree(state, { isOpen: (p) => open.has(p) }) as ValueRow[];
    expect(rows[3]).toMatchObject({ parent: 'messages[1]', key: 'type', segments: ['messages', 1, 'type'], depth: 2 });
    expect(rows[5]).toMatchObject({ size: 0, open: false });
    expect(openTopLevel('messages', 0) && !openTopLevel('messages[0]', 1)).toBe(true);
  });

  it('shows the first children of a long container and a row for the rest, all when asked', () => {
    const long = { log: Array.from({ length: 7 }, (_, i) => i) };
    const rows = flattenTree(long, { isOpen: () => true, childCap: 3 });
    expect(view(rows)).toEqual(['log array', '  log[0] number', '  log[1] number', '  log[2] number', '  +4']);
    expect(rows[4]).toEqual({ kind: 'more', path: 'log…', parent: 'log', depth: 1, hidden: 4 });
    expect(flattenTree(long, { isOpen: () => true, childCap: 3, showAll: new Set(['log']) })).toHaveLength(8);
    // A long array at the top level too; a value that is not a container is one row.
    expect(view(flattenTree([1, 2, 3], { isOpen: () => true, childCap: 2 }))).toEqual([
      '[0] number',
      '[1] number',
      '+1',
    ]);
    expect(flattenTree('just text', { isOpen: () => true })).toEqual([
      {
        kind: 'string',
        path: '',
        segments: [],
        key: '',
        depth: 0,
        parent: null,
        size: 0,
        value: 'just text',
        open: false,
      },
    ]);
  });
});

describe('the tree’s keys', () => {
  const open = new Set(['messages']);
  const keyed = { ...state, messages: Array.from({ length: 5 }, (_, i) => ({ i })) };
  const rows = flattenTree(keyed, { isOpen: (p) => open.has(p), childCap: 4 });
  it('move up and down, to the first and last row', () => {
    expect(view(rows)).toEqual([
      'messages array',
      ...[0, 1, 2, 3].map((i) => `  messages[${i}] object`),
      '  +1',
      'plan object',
      '["odd key"] number',
      'flag boolean',
    ]);
    expect(treeKey(rows, 0, 'ArrowDown')).toEqual({ focus: 1 });
    expect(treeKey(rows, 8, 'ArrowDown')).toEqual({ focus: 8 });
    expect(treeKey(rows, 0, 'ArrowUp')).toEqual({ focus: 0 });
    expect(treeKey(rows, 6, 'Home')).toEqual({ focus: 0 });
    expect(treeKey(rows, 0, 'End')).toEqual({ focus: 8 });
  });

  it('open, enter, close and leave containers; show the rest of a long one', () => {
    expect(treeKey(rows, 6, 'ArrowRight')).toEqual({ toggle: 'plan' });
    expect(treeKey(rows, 0, 'ArrowRight')).toEqual({ focus: 1 });
    expect(treeKey(rows, 0, 'ArrowLeft')).toEqual({ toggle: 'messages' });
    expect(treeKey(rows, 3, 'ArrowLeft')).toEqual({ focus: 0 });
    expect(treeKey(rows, 5, 'ArrowLeft')).toEqual({ focus: 0 });
    expect(treeKey(rows, 6, 'Enter')).toEqual({ toggle: 'plan' });
    expect(treeKey(rows, 1, ' ')).toEqual({ toggle: 'messages[0]' });
    expect(treeKey(rows, 5, 'Enter')).toEqual({ showAll: 'messages' });
  });

  it('keep → and ← on a leaf from stepping the player, and leave other keys to it', () => {
    expect(treeKey(rows, 8, 'ArrowRight')).toEqual({ none: true });
    expect(treeKey(rows, 8, 'ArrowLeft')).toEqual({ none: true });
    expect(treeKey(rows, 8, 'Enter')).toEqual({ none: true });
    expect(treeKey(rows, 8, 'Enter', () => true)).toEqual({ toggle: 'flag' });
    for (const k of ['j', 'k', 'd', 'n', 'g', '?']) expect(treeKey(rows, 1, k)).toBeNull();
    expect(treeKey(rows, 9, 'ArrowDown')).toBeNull();
  });
});

describe('a closed container on one line', () => {
  it('reads a chat message as its type, text and the tools it calls; anything else as JSON', () => {
    expect(
      summarize({
        id: '904039d8-19cb-4aa7-a55e-ea2f79c451c8',
        type: 'ai',
        content: 'Checking\n disk usage.',
        tool_calls: [{ name: 'disk_usage', args: { host: 'db-7' } }],
      }),
    ).toBe('ai: Checking disk usage. → disk_usage');
    expect(summarize({ type: 'ai', content: [{ type: 'text', text: 'Part one' }, 'two'] })).toBe('ai: Part one two');
    expect(summarize({ step: 'measure disk', done: true })).toBe('{"step":"measure disk","done":true}');
    expect(summarize({ type: 'tool', content: 'x'.repeat(200) }, 20)).toBe(`tool: ${'x'.repeat(13)}…`);
    expect(summarize([1, 2], 4)).toBe('[1,…');
  });
});
