import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '@/server/log';
import { sql } from 'drizzle-orm';
import { rowsOf, type DbHandle } from '@/server/db';
import { RecallEngine, type Embedder } from '@/lib/recall/engine';
import type { RecallItem } from '@/lib/recall/items';
import { DRIVERS, freshDb } from '@/server/test/db';
import { ingest } from './ingest';
import { createEntry, editEntry } from './curation-edits';
import { dropIndex, entryIndex } from './curation-index';
import { searchMemory } from './memory-search';
import { serverEmbedder } from './embeddings';
import {
  embedStored,
  readVectors,
  rememberVectors,
  storedVectorCache,
  sweepVectors,
  textSha256,
  vectorsStored,
  writeVectors,
} from './text-vectors';

const P = 'default';

/** A model that says what it was asked to embed: a text's vector is made from its characters (unit length). */
function counting(asked: string[], modelId = 'test/counting-8'): Embedder {
  return {
    modelId,
    dims: 8,
    async embed(texts) {
      asked.push(...texts);
      const out = new Float32Array(texts.length * 8);
      texts.forEach((t, i) => {
        const v = out.subarray(i * 8, (i + 1) * 8);
        for (let c = 0; c < t.length; c++) v[c % 8]! += t.charCodeAt(c) / 1000 + 0.1;
        const norm = Math.hypot(...v);
        for (let d = 0; d < 8; d++) v[d]! /= norm;
      });
      return out;
    },
  };
}

describe.each(DRIVERS)('stored text vectors on %s', (driver) => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb(driver);
  });
  afterAll(async () => {
    await vectorsStored();
    await h.close();
  });

  it('gives back every bit of a stored vector by model and text; a text stored again keeps its first', async () => {
    const model = counting([]);
    const a = new Float32Array([0.1, -0.2, 1e-30, 3.4e38, -0, 0.5, Math.PI, -Math.E]);
    const b = a.map((x) => x * 2);
    await writeVectors(h.db, P, model.modelId, [
      ['a text', a],
      ['a text', b],
      ['é — another', b],
    ]);
    await writeVectors(h.db, P, model.modelId, [['a text', b]]);
    const [ra, missing, rb] = await readVectors(h.db, P, model, ['a text', 'never stored', 'é — another']);
    expect([...ra!]).toEqual([...a]);
    expect(Object.is(ra![4], -0)).toBe(true);
    expect(missing).toBeUndefined();
    expect([...rb!]).toEqual([...b]);
    // Another model's vector of the same text is another row; another project's would be too.
    expect(await readVectors(h.db, P, { modelId: 'test/other', dims: 8 }, ['a text'])).toEqual([undefined]);
    // A vector whose length is not the model's is no vector of it.
    expect(await readVectors(h.db, P, { modelId: model.modelId, dims: 4 }, ['a text'])).toEqual([undefined]);
  });

  it('logs why a background write failed, without the statement or its values', async () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    try {
      // No such project: the database refuses the rows.
      rememberVectors(h.db, 'no-such-project', 'test/log-4', [['a secret-bearing text', new Float32Array(4)]]);
      await vectorsStored();
      const [fields, message] = warn.mock.calls.find(
        ([f]) => (f as { event?: string }).event === 'text_vectors.write_failed',
      )!;
      expect(message).toBe('vectors not stored');
      const err = (fields as { err: string }).err;
      expect(err).toMatch(/foreign key/);
      expect(err).not.toMatch(/insert into|params|no-such-project,|AAAA/);
    } finally {
      warn.mockRestore();
    }
  });

  it('reads 12,345 texts, several statements, each vector where its text is asked', async () => {
    const model = { modelId: 'test/many-4', dims: 4 };
    const texts = Array.from({ length: 12_345 }, (_, i) => `scan text ${i}`);
    const vector = (i: number) => new Float32Array([i, -i, i / 7, 1]);
    await writeVectors(
      h.db,
      P,
      model.modelId,
      texts.flatMap((t, i) => (i % 1000 === 7 ? [] : [[t, vector(i)] as const])),
    );
    // Asked twice for one text, and for texts never stored.
    const asked = [...texts, texts[42]!, 'not stored'];
    const got = await readVectors(h.db, P, model, asked);
    expect(got).toHaveLength(asked.length);
    asked.forEach((_, i) => {
      const v = got[i];
      const n = i === texts.length ? 42 : i;
      if (i === texts.length + 1 || n % 1000 === 7) expect(v, asked[i]).toBeUndefined();
      else expect([...v!], asked[i]).toEqual([...vector(n)]);
    });
    // A few at a time.
    const few = [texts[7]!, texts[8]!, texts[12_344]!, 'not stored'];
    expect((await readVectors(h.db, P, model, few)).map((v) => (v ? [...v] : v))).toEqual([
      undefined,
      [...vector(8)],
      [...vector(12_344)],
      undefined,
    ]);
    // What is not stored is embedded, and only that.
    const made: string[] = [];
    const vectors = await embedStored(h.db, h.db, P, { ...counting(made, model.modelId), dims: 4 }, asked);
    expect(made).toEqual(asked.filter((_, i) => i === texts.length + 1 || (i < texts.length && i % 1000 === 7)));
    expect([...vectors.subarray(42 * 4, 43 * 4)]).toEqual([...vector(42)]);
  });

  it("a process that starts builds the curator's entry index from the table, embedding no entry", async () => {
    for (const content of ['Deploys go out on Tuesdays', 'The staging database is pg-14', 'Backups run at 02:00'])
      await createEntry(h.db, P, { scope: 'project', kind: 'fact', content }, 'tester');
    const asked: string[] = [];
    const first = await entryIndex(h.db, h.db, P, counting(asked));
    expect(asked).toHaveLength(first.rows.length);
    expect(asked).toContain('The staging database is pg-14');
    const before = first.rows.map((r, i) => [r.id, [...first.vectors.row(i)]] as const);
    await vectorsStored();

    // Forgotten, as by a restart (or never known, on another instance): nothing is embedded again.
    dropIndex(h.db, P);
    asked.length = 0;
    const again = await entryIndex(h.db, h.db, P, counting(asked));
    expect(asked).toEqual([]);
    expect(again.rows.map((r, i) => [r.id, [...again.vectors.row(i)]])).toEqual(before);

    // An entry written since is embedded, alone, and so is one whose text changed.
    await createEntry(h.db, P, { scope: 'project', kind: 'fact', content: 'On-call rotates on Mondays' }, 'tester');
    dropIndex(h.db, P);
    await entryIndex(h.db, h.db, P, counting(asked));
    expect(asked).toEqual(['On-call rotates on Mondays']);
  });

  it('an index read while another call still embeds what it read holds those entries, each at its newest', async () => {
    // One call reads a new entry and is slow to embed it (a first load of the model, a busy core): the curator's call
    // meanwhile (inside its transaction, where it may not wait) must not return an index without it.
    const { id } = await createEntry(h.db, P, { scope: 'project', kind: 'fact', content: 'Canaries wait' }, 'tester');
    const other = 'Rollbacks need two approvals';
    const { id: otherId } = await createEntry(h.db, P, { scope: 'project', kind: 'fact', content: other }, 'tester');
    let reached!: () => void;
    const inEmbed = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: Embedder = {
      ...counting([]),
      async embed(texts) {
        reached();
        await gate;
        return counting([]).embed(texts);
      },
    };
    const held = entryIndex(h.db, h.db, P, slow);
    await inEmbed;
    // Changed meanwhile, too: the slow call's older version must not replace it when it ends.
    await editEntry(h.db, P, id, { content: 'Canaries wait for the nightly run', reason: 'more precise' }, 'tester');
    const quick = await h.db.transaction((tx) => entryIndex(h.db, tx, P, counting([])));
    const row = (idx: typeof quick, which = id) => idx.rows[idx.byId.get(which)!];
    expect(row(quick, otherId)?.content).toBe(other);
    expect(row(quick)?.content).toBe('Canaries wait for the nightly run');
    release();
    const late = await held;
    expect(late).toBe(quick);
    expect(row(late)?.content).toBe('Canaries wait for the nightly run');
    expect(late.rows.filter((r) => r.id === id)).toHaveLength(1);
    const want = await counting([]).embed(['Canaries wait for the nightly run']);
    expect([...late.vectors.row(late.byId.get(id)!)]).toEqual([...want]);
  });

  it('a call outside a transaction waits for the one under way, not embedding the same entries again', async () => {
    await createEntry(h.db, P, { scope: 'project', kind: 'fact', content: 'Freeze starts on the 20th' }, 'tester');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const inEmbed = new Promise<void>((r) => (reached = r));
    const first = entryIndex(h.db, h.db, P, {
      ...counting([]),
      async embed(texts) {
        reached();
        await gate;
        return counting([]).embed(texts);
      },
    });
    await inEmbed;
    const asked: string[] = [];
    let answered = false;
    const second = entryIndex(h.db, h.db, P, counting(asked)).then((idx) => ((answered = true), idx));
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBe(false);
    release();
    const idx = await second;
    expect(idx).toBe(await first);
    expect(asked).toEqual([]);
    expect(idx.rows.some((r) => r.content === 'Freeze starts on the 20th')).toBe(true);
  });

  it("the search engine's vectors come from the table for texts any process embedded", async () => {
    const items: RecallItem[] = ['alpha beta', 'gamma delta', 'epsilon'].map((text, i) => ({
      id: `memory_entry:${i}`,
      kind: 'memory_entry',
      text,
      label: null,
      agent: null,
      session: null,
      scope: 'project',
      ts: null,
      href: '',
    }));
    const asked: string[] = [];
    const model = counting(asked, 'test/engine-8');
    const one = new RecallEngine(model, storedVectorCache(h.db, P, model));
    one.sync(items);
    await one.embedPending();
    expect(asked).toEqual(['alpha beta', 'gamma delta', 'epsilon']);
    await vectorsStored();
    asked.length = 0;
    const two = new RecallEngine(model, storedVectorCache(h.db, P, model));
    two.sync(items);
    await two.embedPending();
    expect(asked).toEqual([]);
    expect((await two.search('gamma delta', { mode: 'vector', limit: 1 }))[0]!.item.id).toBe('memory_entry:1');
  });

  it("stores the vectors of the entries the curator writes, and of those an agent's search embedded", async () => {
    const model = await serverEmbedder();
    const content = 'The release train leaves every second Thursday at 16:00 UTC';
    const summary = await ingest(
      h.db,
      P,
      [
        {
          ok: true,
          value: {
            type: 'memory_event',
            data: {
              event_id: 'memevt_vectors_0001',
              timestamp: '2026-11-27T10:00:00Z',
              source_agent: 'planner',
              task_id: 'release',
              memory_kind: 'fact',
              content,
              suggested_scope: 'project',
              sensitivity: 'internal',
              confidence: 'high',
              evidence_refs: ['docs/release.md'],
              ttl: 'durable',
            },
          },
        },
      ],
      'tester',
    );
    expect(summary.curation).toMatchObject({ written: 1 });
    await vectorsStored();
    const [stored] = await readVectors(h.db, P, model, [content]);
    expect(stored).toBeDefined();
    expect([...stored!]).toEqual([...(await model.embed([content]))]);

    // Entries written before any vector was kept (an upgrade): the first search stores theirs.
    await h.db.execute(sql`delete from text_vectors where model_id = ${model.modelId}`);
    await searchMemory(h.db, P, 'release train');
    await vectorsStored();
    const entries = rowsOf<{ content: string }>(
      await h.db.execute(sql`select content from memory_entries where project_id = ${P}`),
    );
    const kept = new Set(
      rowsOf<{ h: string }>(
        await h.db.execute(sql`select text_sha256 as h from text_vectors where model_id = ${model.modelId}`),
      ).map((r) => r.h),
    );
    expect(entries.length).toBeGreaterThan(3);
    for (const e of entries) expect(kept.has(textSha256(e.content)), e.content).toBe(true);
  });

  it('sweeps the vectors no text needs: texts edited away, and a model none has stored for a week', async () => {
    const v = new Float32Array(8).fill(0.5);
    await createEntry(h.db, P, { scope: 'project', kind: 'fact', content: 'Sweep: kept' }, 'tester');
    await h.db.execute(
      sql`insert into artifacts (project_id, id, content) values (${P}, 'sweep-a1', 'Sweep: artifact é')`,
    );
    await createEntry(h.db, P, { scope: 'project', kind: 'fact', content: 'Sweep: before edit' }, 'tester');
    const [{ id: edited } = { id: '' }] = rowsOf<{ id: string }>(
      await h.db.execute(sql`select id from memory_entries where content = 'Sweep: before edit'`),
    );
    const texts = ['Sweep: kept', 'Sweep: artifact é', 'Sweep: before edit', 'Sweep: never an entry'];
    for (const model of ['sweep/current', 'sweep/recent', 'sweep/old'])
      await writeVectors(
        h.db,
        P,
        model,
        texts.map((t) => [t, v]),
      );
    await h.db.execute(
      sql`update text_vectors set stored_at = now() - interval '10 days' where model_id = 'sweep/current'`,
    );
    await h.db.execute(sql`update text_vectors set stored_at = now() - interval '8 days' where model_id = 'sweep/old'`);
    await h.db.execute(
      sql`update text_vectors set stored_at = now() - interval '6 days' where model_id = 'sweep/recent'`,
    );
    await editEntry(h.db, P, edited, { content: 'Sweep: after edit', reason: 'reworded' }, 'tester');
    const left = async () =>
      rowsOf<{ m: string; h: string }>(
        await h.db.execute(sql`select model_id as m, text_sha256 as h from text_vectors where model_id like 'sweep/%'
          order by 1, 2`),
      ).map((r) => `${r.m} ${texts.find((t) => textSha256(t) === r.h)}`);

    expect(await sweepVectors(h.db, 'sweep/current', P)).toBeGreaterThanOrEqual(2 + 2 + 4);
    expect(await left()).toEqual(
      ['sweep/current', 'sweep/recent'].flatMap((m) => [`${m} Sweep: artifact é`, `${m} Sweep: kept`]).sort(),
    );
    // Swept again, nothing more goes; a model that did not load deletes no model's rows.
    expect(await sweepVectors(h.db, 'sweep/current', P)).toBe(0);
    await h.db.execute(
      sql`update text_vectors set stored_at = now() - interval '30 days' where model_id like 'sweep/%'`,
    );
    expect(await sweepVectors(h.db, null)).toBe(0);
    expect(await sweepVectors(h.db, 'sweep/current')).toBe(2);
    expect(await left()).toEqual(['sweep/current Sweep: artifact é', 'sweep/current Sweep: kept']);
    // A model that has just taken over keeps the one before until it has been storing for a week itself.
    await writeVectors(h.db, P, 'sweep/new', [['Sweep: kept', v]]);
    expect(await sweepVectors(h.db, 'sweep/new', P)).toBe(0);
    await h.db.execute(sql`update text_vectors set stored_at = now() - interval '8 days' where model_id = 'sweep/new'`);
    expect(await sweepVectors(h.db, 'sweep/new', P)).toBe(2);
    expect(await left()).toEqual(['sweep/new Sweep: kept']);
    // What the index reads of an entry kept is its vector still.
    expect((await readVectors(h.db, P, { modelId: 'sweep/new', dims: 8 }, ['Sweep: kept']))[0]).toEqual(v);
  });
});
