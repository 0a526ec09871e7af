/**
 * Stored vectors benchmark: what the first curation or search of a project costs a process that starts (or another
 * instance), at 1k / 10k / 100k memory entries, on embedded PGlite and on PostgreSQL. Before `text_vectors`, the
 * curator's entry index embedded every entry on the bundled model; now it reads the vectors any process stored.
 * Prints, per size: the entry index built by embedding every entry (as before, or for entries no process has embedded
 * yet; one run, the slow path), built from the stored vectors (cold in-process cache; median of 3), and the raw path
 * as the baseline: one `select` of every stored vector, with no lookup by text (median of 3); and the hourly sweep
 * of vectors no text needs, when it finds none (its usual run; median of 3), against the same baseline.
 *
 *   npm run bench:vectors            (SIZES=1000,10000 to change the sizes)
 */
import './quiet';
import { sql } from 'drizzle-orm';
import { migrateDb, openDb, rowsOf, type DbHandle } from '@/server/db';
import { ensureProject } from '@/server/services/projects';
import { serverEmbedder } from '@/server/services/embeddings';
import { dropIndex, entryIndex } from '@/server/services/curation-index';
import { sweepVectors, vectorsStored } from '@/server/services/text-vectors';
import { startPostgres } from '@/server/test/postgres';

const SIZES = (process.env.SIZES ?? '1000,10000,100000').split(',').map(Number);
const P = 'default';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function run(open: () => Promise<DbHandle>, label: string) {
  const embedder = await serverEmbedder();
  for (const n of SIZES) {
    const h = await open();
    await migrateDb(h);
    await ensureProject(h.db, P);
    await h.db.execute(sql`insert into memory_entries (project_id, scope, kind, content)
      select ${P}, 'project', 'fact', 'The service ' || i || ' retries failed webhooks up to ' || (i % 9) ||
             ' times, starting at ' || (i % 60) || ' seconds; see runbook RB-' || i
      from generate_series(1, ${n}) i`);
    const embed = await time(() => entryIndex(h.db, h.db, P, embedder));
    const store = await time(vectorsStored);
    const read: number[] = [];
    const raw: number[] = [];
    for (let rep = 0; rep < 3; rep++) {
      dropIndex(h.db, P);
      read.push(await time(() => entryIndex(h.db, h.db, P, embedder)));
      raw.push(
        await time(async () =>
          rowsOf(await h.db.execute(sql`select text_sha256, encode(vector, 'base64') from text_vectors`)),
        ),
      );
    }
    // The hourly sweep when nothing is to be deleted (its usual run): every vector checked against every text.
    const sweep: number[] = [];
    for (let rep = 0; rep < 3; rep++) sweep.push(await time(() => sweepVectors(h.db, embedder.modelId, P)));
    console.log(
      `${label.padEnd(10)} ${n.toLocaleString().padStart(7)} entries: embed every entry ${seconds(embed)} ` +
        `(stored in the background in ${seconds(store)}); from stored vectors ${seconds(median(read))} ` +
        `(${(embed / median(read)).toFixed(1)}× faster); raw select of every vector ${seconds(median(raw))} ` +
        `(stored path / raw ${(median(read) / median(raw)).toFixed(1)}); hourly sweep ${seconds(median(sweep))} ` +
        `(sweep / raw ${(median(sweep) / median(raw)).toFixed(1)})`,
    );
    await h.close();
  }
}

async function main() {
  console.log('\nThe entry index a process builds at its first curation or search of a project');
  await run(() => openDb({ dataDir: 'memory' }), 'PGlite');
  const pg = await startPostgres();
  let k = 0;
  try {
    await run(async () => {
      const admin = await openDb({ url: pg.url });
      const name = `vectors_${++k}`;
      await admin.db.execute(sql.raw(`create database ${name}`));
      await admin.close();
      return openDb({ url: pg.url.replace(/\/[^/]*$/, `/${name}`) });
    }, 'PostgreSQL');
  } finally {
    pg.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
