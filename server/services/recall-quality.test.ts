import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallEngine } from '@/lib/recall/engine';
import type { RecallItem } from '@/lib/recall/items';
import { evaluate, type LabelledQuery } from '@/lib/recall/quality';
import type { DbHandle, Tx } from '@/server/db';
import { freshDb } from '@/server/test/db';
import { seedDemo } from '@/server/demo/seed';
import { serverEmbedder } from './embeddings';
import { corpusPage } from './recall';

const labelled = JSON.parse(readFileSync(path.join(process.cwd(), 'bench', 'recall', 'labelled.json'), 'utf8')) as {
  memories: { id: string; text: string }[];
  queries: LabelledQuery[];
};

/** The labelled memories among the whole demo corpus (as distractors), indexed by the real model. */
async function labelledEngine(db: Tx): Promise<RecallEngine> {
  const engine = new RecallEngine(await serverEmbedder());
  const items: RecallItem[] = labelled.memories.map((m) => ({
    id: m.id,
    kind: 'memory_entry',
    text: m.text,
    label: null,
    agent: null,
    session: null,
    scope: 'project',
    ts: null,
    href: '/',
  }));
  let cursor = null;
  do {
    const page = await corpusPage(db, 'default', cursor);
    items.push(...page.items);
    cursor = page.next;
  } while (cursor);
  engine.sync(items);
  await engine.embedPending();
  return engine;
}

describe('recall quality on the labelled set (104 query→memory pairs, demo corpus as distractors)', () => {
  let h: DbHandle;
  let engine: RecallEngine;
  beforeAll(async () => {
    h = await freshDb('pglite');
    await seedDemo(h.db, 'default');
    engine = await labelledEngine(h.db);
  }, 120_000);
  afterAll(() => h?.close());

  it('hybrid ranking beats keyword-only and vector-only on recall@5 and MRR', async () => {
    const [hybrid, keyword, vector] = await Promise.all([
      evaluate(engine, labelled.queries, 'hybrid'),
      evaluate(engine, labelled.queries, 'keyword'),
      evaluate(engine, labelled.queries, 'vector'),
    ]);
    console.log(
      `[recall quality] hybrid r@5 ${hybrid.recallAt5.toFixed(3)} ` +
        `mrr ${hybrid.mrr.toFixed(3)} ` +
        `· ` +
        `keyword ${keyword.recallAt5.toFixed(3)} / ${keyword.mrr.toFixed(3)} · ` +
        `vector ${vector.recallAt5.toFixed(3)} / ${vector.mrr.toFixed(3)}`,
    );
    expect(labelled.queries.length).toBeGreaterThanOrEqual(100);
    expect(hybrid.recallAt5).toBeGreaterThan(keyword.recallAt5);
    expect(hybrid.recallAt5).toBeGreaterThan(vector.recallAt5);
    expect(hybrid.mrr).toBeGreaterThan(keyword.mrr);
    expect(hybrid.recallAt5).toBeGreaterThanOrEqual(0.75);
  });

  it('finds the nginx 502 turns of the demo by meaning, with none of the words', async () => {
    const hits = await engine.search('the web server keeps returning bad gateway', {
      mode: 'vector',
      limit: 10,
      filters: { kinds: ['turn'] },
    });
    expect(hits.slice(0, 5).filter((x) => x.item.session === 'itops-nginx-502').length).toBeGreaterThanOrEqual(3);
  });

  it('finds exact identifiers the model does not know through the keyword side', async () => {
    const hits = await engine.search('OPS-2291', { limit: 5 });
    expect(hits[0]!.item.id).toBe('m50');
    expect(hits[0]!.keywordRank).toBe(1);
  });
});
