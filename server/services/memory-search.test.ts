import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DbHandle } from '@/server/db';
import type { Embedder } from '@/lib/recall/engine';
import { DRIVERS, freshDb } from '@/server/test/db';
import { createEntry } from './curation-edits';
import { searchMemory } from './memory-search';
import { vectorsStored } from './text-vectors';

/** The server's model, slow to embed until the test lets it (the first search of a large project, or a busy core). */
const gate = vi.hoisted(() => {
  const g = { open: Promise.resolve(), release: () => {}, calls: 0 };
  return {
    g,
    close() {
      g.open = new Promise<void>((r) => (g.release = r));
    },
  };
});

vi.mock('./embeddings', () => ({
  serverEmbedder: async (): Promise<Embedder> => ({
    modelId: 'test/gated-4',
    dims: 4,
    async embed(texts) {
      // The entries' texts wait; a query's (one text, no period) does not: a hybrid search must wait for the former.
      if (!(texts.length === 1 && !texts[0]!.includes('.'))) {
        gate.g.calls++;
        await gate.g.open;
      }
      const out = new Float32Array(texts.length * 4);
      texts.forEach((t, i) => {
        const v = [t.length, t.charCodeAt(0), 1, 1];
        out.set(
          v.map((x) => x / Math.hypot(...v)),
          i * 4,
        );
      });
      return out;
    },
  }),
}));

describe.each(DRIVERS)("search_memory's first search on %s", (driver) => {
  let h: DbHandle;
  const P = 'default';
  beforeAll(async () => {
    h = await freshDb(driver);
    for (const content of ['The gateway retries 502s twice.', 'Deploys freeze on Fridays.', 'Backups run nightly.'])
      await createEntry(h.db, P, { scope: 'project', kind: 'fact', content }, 'tester');
  });
  afterAll(async () => {
    gate.g.release();
    await vectorsStored();
    await h.close();
  });

  it('answers a keyword search without waiting for the vectors; a hybrid one waits for them', async () => {
    gate.close();
    const calls = gate.g.calls;
    const keyword = await searchMemory(h.db, P, 'gateway', { mode: 'keyword' });
    expect(keyword.mode).toBe('keyword');
    expect(keyword.results.map((r) => r.content)).toEqual(['The gateway retries 502s twice.']);
    // The entries' vectors are being made meanwhile (none was stored): a hybrid search waits for them.
    await vi.waitFor(() => expect(gate.g.calls).toBeGreaterThan(calls));
    // Memory written meanwhile: a keyword search sees it at once, still without waiting for any vector.
    await createEntry(
      h.db,
      P,
      { scope: 'project', kind: 'fact', content: 'The gateway pool has 8 workers.' },
      'tester',
    );
    const again = await searchMemory(h.db, P, 'gateway workers', { mode: 'keyword' });
    expect(again.results[0]?.content).toBe('The gateway pool has 8 workers.');
    let answered = false;
    const hybrid = searchMemory(h.db, P, 'gateway', { mode: 'hybrid' }).then((r) => ((answered = true), r));
    await new Promise((r) => setTimeout(r, 100));
    expect(answered).toBe(false);
    gate.g.release();
    const r = await hybrid;
    expect(r.mode).toBe('hybrid');
    expect(r.results[0]?.content).toBe('The gateway retries 502s twice.');
    expect(r.results[0]?.vector_rank).not.toBeNull();
  });
});
