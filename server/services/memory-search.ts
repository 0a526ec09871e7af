import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/server/db';
import { RecallEngine, type SearchMode } from '@/lib/recall/engine';
import type { RecallItem } from '@/lib/recall/items';
import type { RetrievalSource } from '@/lib/curation/retrievals';
import { sees, type Reader } from '@/lib/curation/read-as';
import { entryOwners, given, type EntryOwner } from './curation-read-as';
import { onShutdown, shuttingDown } from '@/server/lifecycle';
import { serverEmbedder } from './embeddings';
import { storedVectorCache } from './text-vectors';
import { artifactsPage, memoryEntriesPage, type Fetcher } from './recall';

/**
 * Search over a project's durable memory (its memory entries and the artifact store) for agents (MCP
 * `search_memory`), ranked as the app's recall ranks: the same `RecallEngine` (BM25 keywords and exact cosine on the
 * bundled model, fused by reciprocal rank), here with the server's copy of the model. Each process keeps one engine
 * per project, a cache checked against the database on every search (row counts, latest changes, superseded
 * versions), so a search on any instance sees what any instance wrote.
 */

export type MemorySearchMode = Extract<SearchMode, 'hybrid' | 'keyword'>;

interface Cached {
  version: string;
  engine: RecallEngine;
  /** Entry and artifact status by item id (`active`, `in_conflict`, `deprecated` …). */
  status: Map<string, string>;
  semantic: boolean;
  /**
   * Settles once every item has its vector (read from `text_vectors`, or embedded): a keyword search does not wait
   * for it (2–4 s for a project's first search at 100,000 entries), a hybrid one does.
   */
  vectors: Promise<void>;
  /** Each live entry's read scope and owner, loaded by the first search with a reader (for every later one). */
  owners?: Promise<Map<string, EntryOwner>>;
  /** By reader (as JSON), the item ids of the entries it reads; the readers searched most recently. */
  readable?: Map<string, Set<string>>;
}

const ENTRY = 'memory_entry:';

/**
 * Readers whose entries a project's cache keeps: few, as each is a set of up to every entry id (a few MB at 100,000
 * entries) and one is made again in one pass over the owners (milliseconds).
 */
const READERS_KEPT = 16;

/** The item ids of the entries a reader reads, in the version of the project's memory the cache holds. */
async function readableBy(db: Db, projectId: string, cached: Cached, reader: Reader): Promise<Set<string>> {
  const key = JSON.stringify(reader);
  const kept = (cached.readable ??= new Map());
  const hit = kept.get(key);
  if (hit) {
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  const owners = await (cached.owners ??= entryOwners(db, projectId).catch((e: unknown) => {
    cached.owners = undefined;
    throw e;
  }));
  const ids = new Set<string>();
  for (const [id, e] of owners) if (sees(reader, e.scope, e.owner)) ids.add(`${ENTRY}${id}`);
  kept.set(key, ids);
  if (kept.size > READERS_KEPT) kept.delete(kept.keys().next().value!);
  return ids;
}

const cache = new WeakMap<Db, Map<string, Promise<Cached>>>();

async function version(db: Db, projectId: string): Promise<string> {
  const [r] = rowsOf<{ v: string }>(
    await db.execute(sql`select concat_ws('|',
      (select concat(count(*), ':', max(updated_at)) from memory_entries where project_id = ${projectId}),
      (select concat(count(*), ':', max(greatest(ingested_at, status_changed_at)))
         from artifacts where project_id = ${projectId}),
      (select count(*) from record_versions where project_id = ${projectId} and record_type = 'artifact')) as v`),
  );
  return r!.v;
}

async function all(db: Db, projectId: string, fetch: Fetcher): Promise<RecallItem[]> {
  const out: RecallItem[] = [];
  for (let after: string[] | null = null; ;) {
    const page = await fetch(db, projectId, after, 5000);
    out.push(...page.items);
    if (!page.last || page.items.length < 5000) return out;
    after = page.last;
  }
}

async function load(db: Db, projectId: string, v: string, prev: Cached | null): Promise<Cached> {
  const embedder = prev ? null : await serverEmbedder().catch(() => null);
  // The vectors of texts any process embedded before are read, not made again (text-vectors.ts).
  const engine = prev?.engine ?? new RecallEngine(embedder, embedder && storedVectorCache(db, projectId, embedder));
  const [entries, records, statuses] = await Promise.all([
    all(db, projectId, memoryEntriesPage),
    all(db, projectId, artifactsPage),
    db.execute(sql`select 'memory_entry:' || id as id, status from memory_entries where project_id = ${projectId}
                   union all
                   select 'artifact:' || id, status from artifacts where project_id = ${projectId}`),
  ]);
  // Items are only appended (a changed text gets a new row), so the run under way may go on: this one, for the items
  // it did not see, starts when it ends. Not past the start of a shutdown (the database is about to close).
  engine.sync([...entries, ...records]);
  const vectors = (prev?.vectors.catch(() => undefined) ?? Promise.resolve()).then(() =>
    engine.embedPending(undefined, shuttingDown),
  );
  vectors.catch(() => undefined); // awaited by hybrid searches, which see the failure
  // A shutdown waits for the run (it stops at its next batch), and then for the vectors it hands over.
  const unregister = onShutdown(() =>
    vectors.then(
      () => undefined,
      () => undefined,
    ),
  );
  void vectors.then(unregister, unregister);
  const status = new Map(rowsOf<{ id: string; status: string }>(statuses).map((r) => [r.id, r.status]));
  return { version: v, engine, status, semantic: prev ? prev.semantic : embedder !== null, vectors };
}

async function engineFor(db: Db, projectId: string): Promise<Cached> {
  let byProject = cache.get(db);
  if (!byProject) cache.set(db, (byProject = new Map()));
  const v = await version(db, projectId);
  const current = byProject.get(projectId);
  const prev = current ? await current.catch(() => null) : null;
  if (prev && prev.version === v) return prev;
  const next = load(db, projectId, v, prev);
  byProject.set(projectId, next);
  // A load that failed, or whose vectors could not be read or made, is made again by the next search.
  const forget = () => byProject.get(projectId) === next && byProject.delete(projectId);
  next.then((c) => c.vectors.catch(forget), forget);
  return next;
}

export interface MemoryHit {
  source: RetrievalSource;
  id: string;
  scope?: string;
  label: string | null;
  status: string | null;
  content: string;
  /** The fused score (reciprocal rank fusion), higher is better. */
  score: number;
  keyword_rank: number | null;
  vector_rank: number | null;
  cosine: number | null;
  url: string;
}

/** Results a search returns when the caller gives no limit. */
export const SEARCH_LIMIT = 10;

/** Entries and artifacts nearest the query, best first; deprecated ones only when asked. */
export async function searchMemory(
  db: Db,
  projectId: string,
  query: string,
  o: { limit?: number; includeDeprecated?: boolean; mode?: MemorySearchMode; reader?: Reader } = {},
): Promise<{ mode: MemorySearchMode; results: MemoryHit[] }> {
  const limit = o.limit ?? SEARCH_LIMIT;
  const cached = await engineFor(db, projectId);
  const { engine, status, semantic } = cached;
  const mode = semantic ? (o.mode ?? 'hybrid') : 'keyword';
  if (mode !== 'keyword') await cached.vectors;
  const live = (id: string) => o.includeDeprecated || ['active', 'in_conflict'].includes(status.get(id) ?? 'active');
  // A reader's search ranks the memory entries it reads (as Curation → Read as lists them) and the artifact store.
  // Whose each entry is, is kept with the index it was read with (the same version of the project's memory).
  let read: ((item: RecallItem) => boolean) | undefined;
  if (o.reader) {
    const ids = await readableBy(db, projectId, cached, given(o.reader));
    read = (item) => !item.id.startsWith(ENTRY) || ids.has(item.id);
  }
  const found = await engine.search(query, { mode, limit: limit * 4, ...(read ? { only: read } : {}) });
  const hits = found.filter((h) => live(h.item.id)).slice(0, limit);
  return {
    mode,
    results: hits.map((h) => {
      const [source, ...rest] = h.item.id.split(':') as [RetrievalSource, ...string[]];
      return {
        source,
        id: rest.join(':'),
        ...(h.item.scope ? { scope: h.item.scope } : {}),
        label: h.item.label,
        status: status.get(h.item.id) ?? null,
        content: h.item.text.length > 1000 ? `${h.item.text.slice(0, 1000)}…` : h.item.text,
        score: Number(h.score.toFixed(4)),
        keyword_rank: h.keywordRank,
        vector_rank: h.vectorRank,
        cosine: h.cosine === null ? null : Number(h.cosine.toFixed(4)),
        url: h.item.href,
      };
    }),
  };
}
