import { describe, expect, it } from 'vitest';
import type { ChainLink } from './items';
import { describeUtilitySources, f2, filterItems, groupChains, itemsInChains, pct, turnHref } from './lab-view';

const turn = (step: number, utility: number | null = 0.1) => ({ session: 's', turn: step, step, utility });
const link = (item: string, step: number): ChainLink => ({ item, turn: turn(step) });

describe('groupChains', () => {
  it('merges chains that differ only in their last wrong turn, keeping those turns side by side', () => {
    const chains = [
      [link('a', 1), link('b', 4), link('c', 9)],
      [link('a', 1), link('b', 4), link('c', 12)],
      [link('a', 1), link('b', 4), link('c', 9)], // the same chain twice: its turn only once
      [link('a', 2), link('b', 4), link('c', 9)], // another first turn: another chain
      [link('x', 3), link('y', 5)],
    ];
    expect(groupChains(chains)).toEqual([
      {
        links: [
          { item: 'a', turns: [turn(1)] },
          { item: 'b', turns: [turn(4)] },
          { item: 'c', turns: [turn(9), turn(12)] },
        ],
      },
      {
        links: [
          { item: 'a', turns: [turn(2)] },
          { item: 'b', turns: [turn(4)] },
          { item: 'c', turns: [turn(9)] },
        ],
      },
      {
        links: [
          { item: 'x', turns: [turn(3)] },
          { item: 'y', turns: [turn(5)] },
        ],
      },
    ]);
    expect(groupChains([])).toEqual([]);
  });

  it('collects the items of every chain', () => {
    expect([
      ...itemsInChains([
        [link('a', 1), link('b', 2)],
        [link('b', 2), link('c', 3)],
      ]),
    ]).toEqual(['a', 'b', 'c']);
  });
});

describe('filterItems', () => {
  const it0 = (id: string, o: Partial<{ content: string; source: string; misaligned: boolean; recalled: number }>) => ({
    id,
    content: o.content ?? id,
    source: o.source ?? 'artifact',
    misaligned: o.misaligned ?? false,
    recalled: o.recalled ?? 0,
    addedStep: Number(id.slice(1)),
  });
  const items = [
    it0('r1', { recalled: 2 }),
    it0('r2', { recalled: 0, content: 'SELECT heart_rate' }),
    it0('r3', { recalled: 5, misaligned: true }),
    it0('e4', { recalled: 2, source: 'entry' }),
    it0('r0', { recalled: 2 }),
  ];
  const ids = (xs: { id: string }[]) => xs.map((x) => x.id);
  const chains = new Set(['r1', 'r2']);

  it('sorts misaligned first, then by recalls (most first), then by the step added (oldest first)', () => {
    expect(ids(filterItems(items, 'all', '', chains))).toEqual(['r3', 'r0', 'r1', 'e4', 'r2']);
  });

  it('filters by kind of flag, recall and source', () => {
    expect(ids(filterItems(items, 'misaligned', '', chains))).toEqual(['r3']);
    expect(ids(filterItems(items, 'chains', '', chains))).toEqual(['r1', 'r2']);
    expect(ids(filterItems(items, 'recalled', '', chains))).toEqual(['r3', 'r0', 'r1', 'e4']);
    expect(ids(filterItems(items, 'never', '', chains))).toEqual(['r2']);
    expect(ids(filterItems(items, 'entries', '', chains))).toEqual(['e4']);
  });

  it('searches id and content in any case, and leaves the input alone', () => {
    expect(ids(filterItems(items, 'all', 'HEART', chains))).toEqual(['r2']);
    expect(ids(filterItems(items, 'all', 'E4', chains))).toEqual(['e4']);
    expect(ids(filterItems(items, 'recalled', 'r', chains))).toEqual(['r3', 'r0', 'r1']);
    expect(ids(items)).toEqual(['r1', 'r2', 'r3', 'e4', 'r0']);
  });
});

describe('the lab’s words and numbers', () => {
  it('names where utilities came from, with counts and the turns without', () => {
    expect(describeUtilitySources({ utility: 96, success: 0, judge: 0, hallucination: 0, none: 0 })).toBe(
      'reported utility (96)',
    );
    expect(describeUtilitySources({ utility: 3, success: 1, judge: 1200, hallucination: 2, none: 4 })).toBe(
      'reported utility (3), reported success (1), judge scores (1,200), 1 − H_t (2); 4 turns without',
    );
    expect(describeUtilitySources({ utility: 0, success: 0, judge: 0, hallucination: 0, none: 7 })).toBe(
      'nothing; 7 turns without',
    );
  });

  it('formats similarities with two decimals, shares as percentages, unknowns as a dash', () => {
    expect([f2(0.456), f2(1), f2(null), f2(undefined)]).toEqual(['0.46', '1.00', '—', '—']);
    expect([pct(0.456), pct(1), pct(0), pct(null)]).toEqual(['46%', '100%', '0%', '—']);
  });

  it('links a turn in Sessions, its session id escaped', () => {
    expect(turnHref('ehr day/1', 14)).toBe('/sessions/ehr%20day%2F1?turn=14');
  });
});
