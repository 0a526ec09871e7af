import { describe, expect, it } from 'vitest';
import type { RecallHit } from './engine';
import type { RecallKind } from './items';
import { groupHits } from './group';

const hit = (id: string, kind: RecallKind, agent: string | null, session: string | null = null): RecallHit => ({
  item: { id, kind, text: id, label: null, agent, session, scope: null, ts: null, href: `/${id}` },
  score: 1,
  keywordRank: 1,
  vectorRank: null,
  cosine: null,
});

const show = (rows: ReturnType<typeof groupHits>) =>
  rows.map((r) => (r.type === 'hit' ? r.hit.item.id : `+${r.count} ${r.kind} ${r.agent}`));

describe('groupHits', () => {
  it('keeps the rank order, shows at most three of one kind from one source, and counts the rest in one row', () => {
    const hits = [
      hit('j1', 'judgment', 'aegis'),
      hit('a1', 'artifact', 'ops', 's1'),
      hit('j2', 'judgment', 'aegis'),
      hit('j3', 'judgment', 'aegis'),
      hit('j4', 'judgment', 'aegis'),
      hit('t1', 'turn', 'ops', 's1'),
      hit('j5', 'judgment', 'aegis'),
      hit('j6', 'judgment', 'other'),
    ];
    expect(show(groupHits(hits))).toEqual(['j1', 'a1', 'j2', 'j3', '+2 judgment aegis', 't1', 'j6']);
  });

  it('never holds back memory entries or events, which belong to no session', () => {
    const hits = [
      ...['e1', 'e2', 'e3', 'e4', 'e5'].map((id) => hit(id, 'memory_entry', null)),
      ...['v1', 'v2', 'v3', 'v4'].map((id) => hit(id, 'memory_event', 'worker-a')),
    ];
    expect(show(groupHits(hits))).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'v1', 'v2', 'v3', 'v4']);
  });

  it('another session or kind is another source', () => {
    const hits = ['s1', 's1', 's1', 's2', 's1'].map((s, i) => hit(`t${i}`, 'turn', 'ops', s));
    expect(show(groupHits(hits, 2))).toEqual(['t0', 't1', '+2 turn ops', 't3']);
  });

  it('stops at `max` rows; a source already counted still counts what comes after', () => {
    const hits = [
      ...['x1', 'x2', 'x3'].map((id) => hit(id, 'judgment', 'aegis')),
      ...['y1', 'y2'].map((id) => hit(id, 'turn', 'ops')),
    ];
    const rows = groupHits([...hits, hit('x4', 'judgment', 'aegis'), hit('x5', 'judgment', 'aegis')], 2, 4);
    expect(show(rows)).toEqual(['x1', 'x2', '+3 judgment aegis', 'y1']);
  });
});
