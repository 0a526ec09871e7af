import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/server/db';
import { memoryEntries } from '@/server/db/schema/curation';
import { pick } from '@/lib/curation/event';
import type { Neighbour } from '@/lib/curation/pipeline';
import { VectorMatrix, topK } from '@/lib/recall/vectors';
import type { Embedder } from '@/lib/recall/engine';
import { serverEmbedder } from './embeddings';
import { embedStored } from './text-vectors';

/**
 * The entry index: vectors of a project's live entries, kept in step with the table, cached per
 * database handle. The curator finds an event's neighbours in it; a reviewer sees a proposal's.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Entry ids are uuids (the primary key's type): anything else an agent names is no entry, and must not be cast. */
export const isEntryId = (id: string) => UUID.test(id);

/** The columns of an entry the index keeps beside its vector. */
const INDEXED_FIELDS = ['id', 'scope', 'kind', 'content', 'status', 'sourceEventId'] as const;
export const indexedColumns = pick(memoryEntries, INDEXED_FIELDS);
export type IndexedEntry = Pick<typeof memoryEntries.$inferSelect, (typeof INDEXED_FIELDS)[number]>;

export interface EntryIndex {
  vectors: VectorMatrix;
  rows: IndexedEntry[];
  byId: Map<string, number>;
  /** The `updated_at` of the version of each entry indexed (none for a row put by a write not yet read back). */
  stamps: Map<string, string>;
  /** Every entry updated at or before it is indexed (as it was then, or later). */
  watermark: string | null;
  modelId: string;
}

/** Statuses of the entries that count: dedup, conflicts and the nearest list ignore the rest. */
export const ACTIVE = ['active', 'in_conflict'];

const indexes = new WeakMap<object, Map<string, EntryIndex>>();

/**
 * Every writer of entries holds this lock and stamps rows with clock_timestamp(), so the index's
 * watermark (newest updated_at it has read) never skips a row committed later.
 */
export async function lockCuration(tx: Tx, projectId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`curation:${projectId}`}))`);
}

export const NOW = sql`clock_timestamp()`;

/**
 * `root` is the database handle the index belongs to (a transaction is new each time; the handle is not), `db` what it
 * reads with. An entry's vector is read from `text_vectors` when any process embedded its text before; the ones
 * embedded here are stored through `root` in the background, so `root` must never be a transaction (on PGlite its
 * write waits for the transaction the caller holds: awaiting it inside one would never end).
 *
 * Calls may overlap (a reviewer's detail while the curator runs): the watermark moves only once what was read below it
 * is in the index, so a call never returns without a row another call has read but not yet embedded (it embeds the
 * row itself). A call outside a transaction first waits for the one outside a transaction under way (a few details
 * opened during a first build of 100,000 entries would each build it again); a call inside one never waits (on
 * PGlite, waiting there for a call outside it would never end).
 */
export async function entryIndex(root: Db, db: Tx, projectId: string, embedder: Embedder): Promise<EntryIndex> {
  let perDb = indexes.get(root);
  if (!perDb) indexes.set(root, (perDb = new Map()));
  const outside = db === root;
  const key = `${projectId}\n${embedder.modelId}`;
  const before = outside ? building.get(root)?.get(key) : undefined;
  if (before) await before.catch(() => undefined);
  let idx = perDb.get(projectId);
  if (!idx || idx.modelId !== embedder.modelId) {
    idx = {
      vectors: new VectorMatrix(embedder.dims, 4096),
      rows: [],
      byId: new Map(),
      stamps: new Map(),
      watermark: null,
      modelId: embedder.modelId,
    };
    perDb.set(projectId, idx);
  }
  if (!outside) return update(root, db, projectId, embedder, idx);
  let runs = building.get(root);
  if (!runs) building.set(root, (runs = new Map()));
  const run = update(root, db, projectId, embedder, idx);
  runs.set(key, run);
  const done = () => runs.get(key) === run && runs.delete(key);
  run.then(done, done);
  return run;
}

/** The calls outside a transaction under way, by database handle, project and model. */
const building = new WeakMap<object, Map<string, Promise<EntryIndex>>>();

async function update(root: Db, db: Tx, projectId: string, embedder: Embedder, idx: EntryIndex): Promise<EntryIndex> {
  const changed = await db
    // In UTC with six decimals: compared as strings (the session's zone may step back an hour in autumn).
    .select({
      ...indexedColumns,
      updatedAt: sql<string>`to_char(${memoryEntries.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(memoryEntries)
    .where(
      and(
        eq(memoryEntries.projectId, projectId),
        idx.watermark ? gt(memoryEntries.updatedAt, sql`${idx.watermark}::timestamptz`) : undefined,
      ),
    );
  // A version older than the one indexed (by a call that read later and ended first) is not put back.
  const newer = (id: string, stamp: string) => {
    const had = idx.stamps.get(id);
    return had === undefined || had < stamp;
  };
  let newest = idx.watermark;
  const toEmbed: { row: IndexedEntry; stamp: string }[] = [];
  for (const r of changed) {
    if (!newest || r.updatedAt > newest) newest = r.updatedAt;
    if (!newer(r.id, r.updatedAt)) continue;
    const at = idx.byId.get(r.id);
    const row: IndexedEntry = pick(r, INDEXED_FIELDS);
    if (at === undefined || idx.rows[at]!.content !== r.content) toEmbed.push({ row, stamp: r.updatedAt });
    else {
      idx.rows[at] = row;
      idx.stamps.set(r.id, r.updatedAt);
    }
  }
  if (toEmbed.length) {
    const vectors = await embedStored(
      root,
      db,
      projectId,
      embedder,
      toEmbed.map((e) => e.row.content),
    );
    toEmbed.forEach(({ row, stamp }, i) => {
      if (!newer(row.id, stamp)) return;
      indexPut(idx, row, vectors.subarray(i * embedder.dims, (i + 1) * embedder.dims));
      idx.stamps.set(row.id, stamp);
    });
  }
  if (newest && (!idx.watermark || newest > idx.watermark)) idx.watermark = newest;
  return idx;
}

export function indexPut(idx: EntryIndex, row: IndexedEntry, vector: Float32Array) {
  const at = idx.byId.get(row.id);
  if (at !== undefined) {
    idx.rows[at] = row;
    idx.vectors.row(at).set(vector);
    return;
  }
  idx.byId.set(row.id, idx.rows.length);
  idx.rows.push(row);
  idx.vectors.push(vector);
}

/** Forgets a project's index (after a failed write, so nothing phantom stays in it). */
export function dropIndex(db: object, projectId: string) {
  indexes.get(db)?.delete(projectId);
}

export function asNeighbour(idx: EntryIndex, row: number, cosine: number): Neighbour {
  const r = idx.rows[row]!;
  return { ...r, entryId: r.id, cosine };
}

/**
 * The live entries of a scope nearest in meaning to a text, from the curator's cached entry index
 * (nothing is re-embedded but the text): what a reviewer sees beside a proposal.
 */
export async function nearestInScope(
  db: Db,
  projectId: string,
  content: string,
  scope: string,
  k: number,
  /** Entries left out: the one an approved proposal wrote or merged into is itself, not its neighbour. */
  except: { ids?: readonly string[] } = {},
): Promise<(IndexedEntry & { cosine: number })[]> {
  const embedder = await serverEmbedder().catch(() => null);
  if (!embedder) return [];
  const idx = await entryIndex(db, db, projectId, embedder);
  const q = await embedder.embed([content]);
  const left = (e: IndexedEntry) => !!except.ids?.includes(e.id);
  const scores = idx.vectors.scoreAll(
    q,
    (row) => idx.rows[row]!.scope === scope && ACTIVE.includes(idx.rows[row]!.status) && !left(idx.rows[row]!),
  );
  return topK(scores, k).map((row) => ({ ...idx.rows[row]!, cosine: scores[row]! }));
}
