import { describe, expect, it } from 'vitest';
import { filterSessions, sessionsListParams, sortSessions, type SessionListItem } from './list';

const s = (id: string, over: Partial<SessionListItem> = {}): SessionListItem => ({
  id,
  agentId: 'a',
  title: null,
  domain: null,
  turnCount: 1,
  firstAt: null,
  lastAt: null,
  meanHallucination: null,
  meanDrift: null,
  ...over,
});
const rows = [
  s('a', {
    title: 'Nginx 502',
    domain: 'it_ops',
    turnCount: 50,
    lastAt: '2026-11-18T10:00:00Z',
    meanHallucination: 0.02,
  }),
  s('b', {
    title: 'OAuth consent',
    domain: 'cybersecurity',
    turnCount: 12,
    lastAt: '2026-11-19T10:00:00Z',
    meanHallucination: 0.05,
  }),
  s('c', { agentId: 'acc-clinical', turnCount: 30 }),
];

describe('sessions list', () => {
  it('matches every word against title, id, agent and domain', () => {
    expect(filterSessions(rows, 'nginx').map((r) => r.id)).toEqual(['a']);
    expect(filterSessions(rows, 'CLINICAL').map((r) => r.id)).toEqual(['c']);
    expect(filterSessions(rows, 'oauth it_ops')).toEqual([]);
    expect(filterSessions(rows, '  ')).toHaveLength(3);
  });
  it('sorts by recency with undated last, by turns, and by hallucination', () => {
    expect(sortSessions(rows, 'recent').map((r) => r.id)).toEqual(['b', 'a', 'c']);
    expect(sortSessions(rows, 'turns').map((r) => r.id)).toEqual(['a', 'c', 'b']);
    expect(sortSessions(rows, 'hallucination').map((r) => r.id)).toEqual(['b', 'a', 'c']);
  });
});

describe('sessionsListParams', () => {
  it("reads the list's search and sort from its address, anything else as the default", () => {
    expect(sessionsListParams(' oauth ', 'oldest')).toEqual({ search: 'oauth', sort: 'oldest' });
    expect(sessionsListParams(undefined, 'toString')).toEqual({
      search: '',
      sort: 'recent',
      sortProblem:
        'sort “toString” is none of recent, oldest, turns, title, hallucination, drift, tokens, cost, latency: ' +
        'most recent first',
    });
    expect(sessionsListParams(['a', 'b'], ['oldest'])).toEqual({ search: '', sort: 'recent' });
    expect(sessionsListParams('x'.repeat(300), undefined).search).toHaveLength(200);
  });
});
