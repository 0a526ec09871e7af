import { describe, expect, it } from 'vitest';
import { RecallEngine, identifierShare, type Embedder, type VectorCache } from './engine';
import { reciprocalRankFusion } from './fuse';
import type { RecallItem } from './items';
import { VectorMatrix, topK } from './vectors';

/** A toy embedder: a topic word decides the direction, so "meaning" is known exactly. */
const TOPICS = ['web', 'database', 'food'];
const SYNONYMS: Record<string, string> = {
  nginx: 'web',
  proxy: 'web',
  gateway: 'web',
  postgres: 'database',
  sql: 'database',
  vegetarian: 'food',
  peanuts: 'food',
};
const toy = (calls: string[][] = []): Embedder => ({
  modelId: 'toy',
  dims: 3,
  async embed(texts) {
    calls.push(texts);
    const out = new Float32Array(texts.length * 3);
    texts.forEach((t, i) => {
      for (const w of t.toLowerCase().split(/\W+/)) {
        const topic = TOPICS.indexOf(SYNONYMS[w] ?? w);
        if (topic >= 0) out[i * 3 + topic]! += 1;
      }
      const n = Math.hypot(out[i * 3]!, out[i * 3 + 1]!, out[i * 3 + 2]!) || 1;
      for (let k = 0; k < 3; k++) out[i * 3 + k]! /= n;
    });
    return out;
  },
});

const item = (id: string, text: string, extra: Partial<RecallItem> = {}): RecallItem => ({
  id,
  kind: 'memory_entry',
  text,
  label: null,
  agent: 'a1',
  session: null,
  scope: 'project',
  ts: null,
  href: `/x/${id}`,
  ...extra,
});

const ITEMS = [
  item('e1', 'nginx returned 502 to clients', { agent: 'a1', ts: '2026-01-02T00:00:00.000Z' }),
  item('e2', 'postgres migration took a lock', { agent: 'a2', kind: 'dead_end', ts: '2026-03-01T00:00:00.000Z' }),
  item('e3', 'the user is vegetarian', { agent: 'a1' }),
  item('e4', 'error E4012 from billing', { agent: 'a2' }),
];

describe('reciprocal rank fusion', () => {
  it('rewards agreement between lists and keeps each list rank', () => {
    const fused = reciprocalRankFusion([
      [
        { id: 'a', score: 9 },
        { id: 'b', score: 5 },
      ],
      [
        { id: 'b', score: 0.9 },
        { id: 'c', score: 0.8 },
      ],
    ]);
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'c']);
    expect(fused[0]!.ranks).toEqual([2, 1]);
    expect(fused[2]!.ranks).toEqual([null, 2]);
  });
});

describe('vectors', () => {
  it('topK picks the largest scores in order, skipping filtered rows', () => {
    const m = new VectorMatrix(2, 1);
    for (const v of [
      [1, 0],
      [0, 1],
      [0.8, 0.6],
      [-1, 0],
    ])
      m.push(v);
    const scores = m.scoreAll([1, 0], (r) => r !== 2);
    expect(topK(scores, 2)).toEqual([0, 1]);
    expect(topK(m.scoreAll([1, 0]), 2)).toEqual([0, 2]);
    expect(topK(m.scoreAll([1, 0]), 5, 0.5)).toEqual([0, 2]);
  });
});

describe('recall engine', () => {
  it('finds by meaning with no shared word, and by exact identifier', async () => {
    const e = new RecallEngine(toy());
    e.sync(ITEMS);
    await e.embedPending();
    const byMeaning = await e.search('proxy gateway trouble');
    expect(byMeaning[0]!.item.id).toBe('e1');
    expect(byMeaning[0]!.keywordRank).toBeNull();
    expect(byMeaning[0]!.cosine).toBeCloseTo(1, 5);
    const byId = await e.search('E4012');
    expect(byId[0]!.item.id).toBe('e4');
    expect(byId[0]!.keywordRank).toBe(1);
  });

  it('applies filters to both lists: kind, agent, time', async () => {
    const e = new RecallEngine(toy());
    e.sync(ITEMS);
    await e.embedPending();
    expect((await e.search('postgres nginx', { filters: { kinds: ['dead_end'] } })).map((h) => h.item.id)).toEqual([
      'e2',
    ]);
    expect((await e.search('postgres nginx', { filters: { agent: 'a1' } })).map((h) => h.item.id)).toEqual(['e1']);
    expect(
      (await e.search('postgres nginx', { filters: { from: '2026-02-01T00:00:00.000Z' } })).map((h) => h.item.id),
    ).toEqual(['e2']);
    // `only` (a reader's own memory) keeps items before ranking: a kept item below the limit still comes back.
    const all = (await e.search('postgres nginx')).map((h) => h.item.id);
    const last = all.at(-1)!;
    expect(all.length).toBeGreaterThan(1);
    expect((await e.search('postgres nginx', { limit: 1, only: (i) => i.id === last })).map((h) => h.item.id)).toEqual([
      last,
    ]);
  });

  it('embeds only what is new: cached vectors reused, changed text re-embedded, removed items gone', async () => {
    const store = new Map<string, Float32Array>();
    const cache: VectorCache = {
      getMany: async (keys) => keys.map((k) => store.get(k)),
      putMany: async (entries) => entries.forEach(([k, v]) => store.set(k, v)),
    };
    const calls: string[][] = [];
    const first = new RecallEngine(toy(calls), cache);
    first.sync(ITEMS);
    await first.embedPending();
    expect(calls.flat()).toHaveLength(4);
    calls.length = 0;
    const second = new RecallEngine(toy(calls), cache);
    expect(second.sync([...ITEMS.slice(0, 3), item('e4', 'the user eats peanuts')])).toEqual({
      added: 4,
      removed: 0,
    });
    let last = [0, 0, 0];
    await second.embedPending((done, total, fromCache) => (last = [done, total, fromCache]));
    expect(calls.flat()).toEqual(['the user eats peanuts']);
    expect(last).toEqual([4, 4, 3]);
    expect(second.sync(ITEMS.slice(0, 2))).toEqual({ added: 0, removed: 2 });
    expect(second.size).toBe(2);
    expect((await second.search('vegetarian')).length).toBe(0);
  });

  it('more like this ranks by the item own vector, never itself', async () => {
    const e = new RecallEngine(toy());
    e.sync([...ITEMS, item('e5', 'proxy gateway returned errors')]);
    await e.embedPending();
    const hits = await e.moreLikeThis('e1');
    expect(hits[0]!.item.id).toBe('e5');
    expect(hits.some((h) => h.item.id === 'e1')).toBe(false);
  });

  it('clusters near-duplicates and identical texts', async () => {
    const e = new RecallEngine(toy());
    e.sync([...ITEMS, item('e5', 'nginx proxy gateway'), item('e6', 'the user is vegetarian', { agent: 'a9' })]);
    await e.embedPending();
    const clusters = e.duplicates(0.95);
    expect(clusters.map((c) => c.items.map((i) => i.id).sort())).toEqual([
      ['e1', 'e5'],
      ['e3', 'e6'],
    ]);
    // Sessions' titles alike (a fork's) are no duplicate memory.
    e.sync([
      ...ITEMS,
      item('s1', 'nginx proxy gateway', { kind: 'session' }),
      item('s2', 'nginx proxy gateway', { kind: 'session' }),
    ]);
    await e.embedPending();
    expect(e.duplicates(0.95).flatMap((c) => c.items.map((i) => i.id))).not.toContain('s1');
  });

  it('does not chain unlike items into one cluster through the items between them', async () => {
    const e = new RecallEngine(toy());
    // a ~ b and b ~ c at cosine 0.857, a ~ c at 0.471: linked pairwise, all three would be one cluster.
    e.sync([
      item('a', 'nginx nginx nginx nginx postgres'),
      item('b', 'nginx postgres'),
      item('c', 'postgres postgres postgres postgres nginx'),
    ]);
    await e.embedPending();
    const clusters = e.duplicates(0.85);
    expect(clusters.map((c) => c.items.map((i) => i.id))).toEqual([['a', 'b']]);
    expect(clusters[0]!.minCosine).toBeGreaterThanOrEqual(0.85);
  });

  it('without a model, searches by keyword only', async () => {
    const e = new RecallEngine(null);
    e.sync(ITEMS);
    const hits = await e.search('nginx');
    expect(hits.map((h) => [h.item.id, h.vectorRank])).toEqual([['e1', null]]);
    expect(await e.search('proxy gateway trouble')).toEqual([]);
  });

  it('pages past the lists depth at a depth of its own, the rows of earlier pages in the same order', async () => {
    const e = new RecallEngine(toy());
    e.sync(
      Array.from({ length: 300 }, (_, i) => item(`n${i}`, `nginx worker ${i} returned 502 ${'x '.repeat(i % 7)}`)),
    );
    await e.embedPending();
    expect((await e.search('nginx 502')).length).toBe(50);
    // At the default depth (100 a list) no more than the two lists hold.
    expect((await e.search('nginx 502', { limit: 251, mode: 'keyword' })).length).toBe(100);
    const page = (n: number) => e.search('nginx 502', { limit: 50 * n + 1, depth: 1000 });
    const [one, three] = [await page(1), await page(3)];
    expect(three.length).toBe(151);
    expect(three.slice(0, 50).map((h) => h.item.id)).toEqual(one.slice(0, 50).map((h) => h.item.id));
  });

  it('recognises identifier-like queries', () => {
    expect(identifierShare('E4012')).toBe(1);
    expect(identifierShare('--force-sync flag')).toBe(0.5);
    expect(identifierShare('the web server')).toBe(0);
  });
});
