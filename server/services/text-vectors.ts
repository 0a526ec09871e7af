import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '@/server/db';
import type { Embedder, VectorCache } from '@/lib/recall/engine';
import { errorReason, log } from '@/server/log';
import { onShutdown, periodic } from '@/server/lifecycle';
import { claimRun, releaseRun } from './limits';

/**
 * The server's embeddings of a project's texts, kept in the database (`text_vectors`) by model and the text's
 * SHA-256, so that a process that starts, or another instance, reads the vectors of a project's entries instead of
 * embedding every one again: ~250 µs a text on the bundled model, 25 s at 100,000 entries, paid by each instance on
 * its first curation or search. A vector is a function of the model and the text alone: a row is written by
 * whichever process embeds the text first, and never changed. Only the texts of durable memory are kept (entries,
 * artifacts), never a query's.
 */

/** Texts looked up in one statement. */
const CHUNK = 2048;

export const textSha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function toVector(v: string | null | undefined, dims: number): Float32Array | undefined {
  if (v == null) return undefined;
  const bytes = Buffer.from(v, 'base64');
  if (bytes.byteLength !== dims * 4) return undefined;
  // A copy: a Node Buffer may be a view into a larger buffer (its pool), at any offset.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

/** The stored vectors of `texts` (by position; undefined where none is stored). */
export async function readVectors(
  db: Tx,
  projectId: string,
  embedder: Pick<Embedder, 'modelId' | 'dims'>,
  texts: readonly string[],
): Promise<(Float32Array | undefined)[]> {
  // Filled, not sparse: a caller's forEach must meet every text.
  const out: (Float32Array | undefined)[] = new Array<undefined>(texts.length).fill(undefined);
  const keys = texts.map(textSha256);
  for (let start = 0; start < texts.length; start += CHUNK) {
    const chunk = keys.slice(start, start + CHUNK);
    // One lookup of the primary key a text: a plan the table's statistics cannot spoil (before it is analysed, a join
    // or `= any(array)` tested each row against every key: 10 s at 100,000). As base64: PGlite reads a bytea ten
    // times slower.
    const rows = rowsOf<{ h: string; v: string | null }>(
      await db.execute(sql`select k.h, (select encode(t.vector, 'base64') from text_vectors t
          where t.project_id = ${projectId} and t.model_id = ${embedder.modelId} and t.text_sha256 = k.h) as v
        from jsonb_array_elements_text(${JSON.stringify(chunk)}::jsonb) as k(h)`),
    );
    const byKey = new Map(rows.map((r) => [r.h, r.v]));
    chunk.forEach((k, j) => (out[start + j] = toVector(byKey.get(k), embedder.dims)));
  }
  return out;
}

/** Stores vectors of texts (those already stored are left as they are). */
export async function writeVectors(
  db: Tx,
  projectId: string,
  modelId: string,
  entries: readonly (readonly [text: string, vector: Float32Array])[],
): Promise<void> {
  for (let start = 0; start < entries.length; start += CHUNK) {
    const seen = new Set<string>();
    const rows: { h: string; v: string }[] = [];
    for (const [text, vector] of entries.slice(start, start + CHUNK)) {
      const h = textSha256(text);
      if (seen.has(h)) continue;
      seen.add(h);
      rows.push({ h, v: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64') });
    }
    // In the order of the key, so that two writers of the same texts wait for each other instead of deadlocking.
    rows.sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0));
    await db.execute(sql`insert into text_vectors (project_id, model_id, text_sha256, vector)
      select ${projectId}, ${modelId}, x.h, decode(x.v, 'base64')
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(h text, v text)
      on conflict do nothing`);
  }
}

/** Days another model's vectors are kept: after the running model has stored for as long, and they have not. */
export const OTHER_MODEL_KEEP_DAYS = 7;
/** How often the cluster sweeps: each instance's timer asks, the first after the period takes the run. */
const SWEEP_EVERY_MS = 60 * 60_000;
const SWEEP_JOB = 'text-vectors.sweep';

/**
 * Deletes the vectors no text of the project needs any more: those of texts that are no entry's or artifact's content
 * now (an entry edited, a secret redacted), and every vector of a model other than `modelId` once `modelId` has
 * been storing for `keepDays` in the project and the other stored nothing for as long (the bundled model changed;
 * instances of the older build, or a rollback, find theirs meanwhile). With `modelId` null (the model did not load)
 * no model's rows are deleted for that. Of one project or all; returns how many rows went. A vector is stored after
 * its text's entry commits, so it is not deleted under a writer (one of a text read inside a transaction not yet
 * committed may be: that costs one embedding).
 */
export async function sweepVectors(
  db: Tx,
  modelId: string | null,
  projectId: string | null = null,
  keepDays = OTHER_MODEL_KEEP_DAYS,
): Promise<number> {
  const of = (column: SQL) => (projectId === null ? sql`true` : sql`${column} = ${projectId}`);
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`with live as materialized (
        select project_id, encode(sha256(convert_to(content, 'UTF8')), 'hex') as h
          from memory_entries where ${of(sql`project_id`)}
        union all
        select project_id, encode(sha256(convert_to(content, 'UTF8')), 'hex')
          from artifacts where ${of(sql`project_id`)}),
      models as materialized (
        select project_id, model_id from text_vectors where ${of(sql`project_id`)}
          group by project_id, model_id
          having ${
            modelId === null
              ? sql`true`
              : sql`model_id = ${modelId} or max(stored_at) > now() - make_interval(days => ${keepDays})
                  or coalesce((select min(c.stored_at) from text_vectors c
                      where c.project_id = text_vectors.project_id and c.model_id = ${modelId}), now())
                    > now() - make_interval(days => ${keepDays})`
          }),
      gone as (
        delete from text_vectors t
        where ${of(sql`t.project_id`)}
          and (not exists (select 1 from models m where m.project_id = t.project_id and m.model_id = t.model_id)
            or not exists (select 1 from live l where l.project_id = t.project_id and l.h = t.text_sha256))
        returning 1)
      select count(*)::int as n from gone`),
  );
  return Number(row?.n ?? 0);
}

/**
 * Sweeps once every SWEEP_EVERY_MS for the whole cluster (the sweep hashes every entry's and artifact's content: with
 * N instances each sweeping, that was N times an hour), for the model this server embeds with.
 */
export const startVectorSweeper = (db: Db, model: () => string) =>
  periodic('text-vectors', db, SWEEP_EVERY_MS, async () => {
    if (!(await claimRun(db, SWEEP_JOB, SWEEP_EVERY_MS).catch(() => false))) return;
    try {
      let modelId: string | null = null;
      try {
        modelId = model();
      } catch {
        /* no model files: no model's rows are deleted for being another model's */
      }
      const n = await sweepVectors(db, modelId);
      if (n) log.info({ event: 'text_vectors.swept', rows: n }, 'vectors no text needs deleted');
    } catch (e) {
      log.warn({ event: 'text_vectors.sweep_failed', err: e }, 'deleting unneeded vectors failed');
      // Failed: the hour's run is given back to whichever instance's timer comes next.
      await releaseRun(db, SWEEP_JOB).catch(() => undefined);
    }
  });

const writing = new Set<Promise<void>>();

/**
 * Stores vectors in the background, through the database handle (never inside the caller's transaction, whose
 * locks a long curation run would hold). A failure costs only a later embedding, so it is logged, not thrown.
 */
export function rememberVectors(
  db: Db,
  projectId: string,
  modelId: string,
  entries: readonly (readonly [string, Float32Array])[],
) {
  if (!entries.length) return;
  const p = writeVectors(db, projectId, modelId, entries)
    .catch((error: unknown) =>
      log.warn({ event: 'text_vectors.write_failed', projectId, err: errorReason(error) }, 'vectors not stored'),
    )
    .finally(() => writing.delete(p));
  writing.add(p);
}

/** Resolves once the vectors being stored in the background are (tests; a graceful stop, before the db closes). */
export async function vectorsStored(): Promise<void> {
  while (writing.size) await Promise.all([...writing]);
}
onShutdown(vectorsStored);

/**
 * Vectors of texts: those the database holds, the others embedded (and stored in the background). `db` reads (the
 * caller's transaction, if any); `root` writes.
 */
export async function embedStored(
  root: Db,
  db: Tx,
  projectId: string,
  embedder: Embedder,
  texts: readonly string[],
): Promise<Float32Array> {
  const out = new Float32Array(texts.length * embedder.dims);
  const stored = await readVectors(db, projectId, embedder, texts);
  const missing: number[] = [];
  stored.forEach((v, i) => (v ? out.set(v, i * embedder.dims) : missing.push(i)));
  if (missing.length) {
    const fresh = await embedder.embed(missing.map((i) => texts[i]!));
    const made: [string, Float32Array][] = [];
    missing.forEach((i, j) => {
      const v = fresh.subarray(j * embedder.dims, (j + 1) * embedder.dims);
      out.set(v, i * embedder.dims);
      made.push([texts[i]!, v.slice()]);
    });
    rememberVectors(root, projectId, embedder.modelId, made);
  }
  return out;
}

/**
 * The recall engine's vector cache over `text_vectors`: its keys are its own, the texts name the rows. What it puts is
 * stored in the background: a search does not wait for it.
 */
export function storedVectorCache(
  db: Db,
  projectId: string,
  embedder: Pick<Embedder, 'modelId' | 'dims'>,
): VectorCache {
  return {
    getMany: (_keys, texts) => readVectors(db, projectId, embedder, texts),
    putMany: async (entries) =>
      rememberVectors(
        db,
        projectId,
        embedder.modelId,
        entries.map(([, v, text]) => [text, v]),
      ),
  };
}
