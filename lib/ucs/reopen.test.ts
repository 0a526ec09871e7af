import { describe, expect, it } from 'vitest';
import { highlight, wouldReopen, words } from './reopen';

const deadEnds = [
  {
    id: 'a',
    topic: 'foundry_metrics for debug',
    reopenConditions: 'new evidence that foundry_metrics output changed',
    capabilities: ['foundry_metrics'],
    keywords: ['debug', 'flaky'],
  },
  {
    id: 'b',
    topic: 'read for research',
    reopenConditions: 'new evidence that read output changed',
    capabilities: ['read'],
    keywords: ['research'],
  },
];

describe('would this reopen?', () => {
  it('matches a situation to dead ends by the words of their reopen conditions', () => {
    const r = wouldReopen('The foundry_metrics output changed after the upgrade', deadEnds);
    expect(r.map((m) => m.deadEnd.id)).toEqual(['a']);
    expect(r[0]?.matched.sort()).toEqual(['changed', 'foundry_metrics', 'output']);
    expect(r[0]).toMatchObject({ coverage: 0.75, kind: 'reopen', via: [] });
  });
  it("needs a word of the dead end's own: words every dead end shares do not reopen them all", () => {
    expect(wouldReopen('some output changed', deadEnds)).toEqual([]);
    expect(wouldReopen('research output changed', deadEnds).map((m) => m.deadEnd.id)).toEqual(['b']);
  });
  it('tells a situation that only names a capability or keyword (related) from one that meets the conditions', () => {
    const r = wouldReopen('the debug session was flaky again', deadEnds);
    expect(r).toMatchObject([{ deadEnd: { id: 'a' }, kind: 'related', via: ['debug', 'flaky'], coverage: 0 }]);
    const both = wouldReopen('research notes; foundry_metrics output changed', deadEnds);
    expect(both.map((m) => [m.deadEnd.id, m.kind])).toEqual([
      ['a', 'reopen'],
      ['b', 'related'],
    ]);
    expect(both[1]).toMatchObject({ via: ['research'], coverage: 0.5 });
  });
  it('ignores common words and finds nothing in an unrelated situation', () => {
    expect(words('The and for new')).toEqual([]);
    expect(wouldReopen('lunch menu', deadEnds)).toEqual([]);
  });
  it('highlights matched words in place', () => {
    expect(highlight('evidence that read output changed', ['output', 'READ'])).toEqual([
      { text: 'evidence that ', hit: false },
      { text: 'read', hit: true },
      { text: ' ', hit: false },
      { text: 'output', hit: true },
      { text: ' changed', hit: false },
    ]);
  });
});
