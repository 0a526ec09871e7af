import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '@/server/db';
import {
  memoryEntries,
  memoryEntryLinks,
  memoryEntryVersions,
  memoryEvents,
  curationOutcomes,
  proposals,
  ingestBatches,
  rejectedEvents,
  memoryRetrievals,
  retrievalJudgments,
} from '@/server/db/schema/curation';
import { agents, auditLog, recordVersions } from '@/server/db/schema/projects';
import { artifacts, sessions, turns } from '@/server/db/schema/sessions';
import * as ucs from '@/server/db/schema/substrate';
import { annotations, scoreDefinitions } from '@/server/db/schema/annotations';
import { InvalidInputError } from './errors';
import { errorReason } from '@/server/log';
import { rebuildSessionStats } from './session-stats';

/**
 * A whole project as one file: NDJSON lines, a header, then `{"t": table, "r": row}` for every row of
 * every project table in dependency order, then a trailer with the row count. Rows are Postgres's own
 * `to_jsonb` of the row and go back in with `jsonb_populate_recordset`, so every type (timestamps to
 * the microsecond, jsonb, arrays) survives exactly, on either driver. An export of an import is the
 * same file but for `exported_at`. Not exported: users, their sessions, memberships and API keys
 * (they belong to an instance, not to a project's memory). Audit records keep their order; their
 * numeric ids are the instance's and are given anew.
 */
export const ARCHIVE_FORMAT = 'mnemoscope-project';
/** Version 2 moved the row counts from the header to the end marker (they are known only at the end). */
export const ARCHIVE_VERSION = 2;

interface Part {
  table: PgTable;
  /**
   * References to rows of tables exported before this one (column → table): the foreign keys, and the entries an
   * import requires in the file. Pages are read one short statement at a time while writers go on, so a row written
   * during the export may refer to a row the file does not hold: such a row is left out, and every reference in the
   * file resolves.
   */
  refs?: Record<string, string>;
  /** The column other tables refer to, remembered while exporting (with `version` for memory entries). */
  remember?: string;
  /** How this table's rows of one project are found, when it has no project_id of its own. */
  via?: 'memory_entries';
  /** Columns the instance owns and gives anew on import. */
  omit?: string[];
  /** Rows that belong to the instance, not to the project's memory. */
  instanceRows?: string;
}

const PARTS: Part[] = [
  { table: agents },
  { table: sessions, remember: 'id' },
  { table: turns, refs: { session_id: 'sessions' } },
  // Not references, though they look like them: an artifact may name a session that was never sent, an outcome the
  // id of a malformed event (never a memory event), a proposal from the Hygiene lab an event of its own.
  { table: artifacts },
  { table: memoryEvents },
  { table: ingestBatches },
  { table: curationOutcomes },
  { table: memoryEntries, remember: 'id' },
  // A version newer than its entry's exported row was written during the export: left out as well.
  { table: memoryEntryVersions, via: 'memory_entries', refs: { entry_id: 'memory_entries' } },
  { table: memoryEntryLinks, refs: { entry_id: 'memory_entries', other_id: 'memory_entries' } },
  { table: proposals, refs: { target_entry_id: 'memory_entries' } },
  { table: rejectedEvents },
  // Key and member changes concern the instance's keys and users, which are not exported either.
  { table: auditLog, omit: ['id'], instanceRows: `row_.action like 'api\\_key.%' or row_.action like 'member.%'` },
  { table: recordVersions, omit: ['id'] },
  { table: ucs.ucsSnapshots },
  { table: ucs.ucsDocuments },
  { table: ucs.ucsArtifacts },
  { table: ucs.ucsAnnotations },
  { table: ucs.ucsMethodology },
  { table: ucs.ucsDeadEnds },
  { table: ucs.ucsJudgments },
  { table: ucs.ucsPpHistory },
  { table: ucs.ucsActions },
  { table: ucs.ucsPolicyOverrides },
  { table: scoreDefinitions },
  { table: annotations },
  // Agents' searches and reviewers' labels on them (M6). A search swept away as old during the export takes its
  // labels with it: a label whose search the file does not hold is left out.
  { table: memoryRetrievals, remember: 'id' },
  { table: retrievalJudgments, refs: { retrieval_id: 'memory_retrievals' } },
];

const meta = (p: Part) => {
  const c = getTableConfig(p.table);
  const pk = c.primaryKeys[0]?.columns.map((x) => x.name) ?? c.columns.filter((x) => x.primary).map((x) => x.name);
  return {
    name: c.name,
    columns: c.columns.map((x) => x.name).filter((n) => !p.omit?.includes(n)),
    pk,
    // A serial column's values are of the integer type it names.
    pkTypes: pk.map((n) =>
      c.columns
        .find((x) => x.name === n)!
        .getSQLType()
        .replace(/^(big|small|)serial$/, (_, w: string) =>
          w === 'big' ? 'bigint' : w === 'small' ? 'smallint' : 'integer',
        ),
    ),
  };
};

export interface ArchiveHeader {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  /** Migrations applied to the database it came from; an import needs the same schema. */
  schema: number;
  exported_at: string;
  project: { id: string; name: string; settings: Record<string, unknown>; created_at: string };
  /** Version 1 only: the row counts per table (version 2 has them in the end marker). */
  tables?: Record<string, number>;
}

export interface ArchiveTrailer {
  end: true;
  rows: number;
  tables: Record<string, number>;
  /** Rows left out because they refer to rows written after their table was read (see `Part.refs`). */
  skipped: number;
}

const PAGE = 2000;
const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function schemaVersion(db: Db | Tx): Promise<number> {
  const [r] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`));
  return r?.n ?? 0;
}

// Rows are aliased `row_`: a bare `t` would name ucs_snapshots' column t, not the row.
function whereProject(p: Part, projectId: string) {
  const own =
    p.via === 'memory_entries'
      ? sql`row_.entry_id in (select id from memory_entries where project_id = ${projectId})`
      : sql`row_.project_id = ${projectId}`;
  return p.instanceRows ? sql`${own} and not (${sql.raw(p.instanceRows)})` : own;
}

/** Counts of a project's rows per table. */
export async function tableCounts(db: Db | Tx, projectId: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const p of PARTS) {
    const m = meta(p);
    const [r] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from ${sql.raw(q(m.name))} row_ where ${whereProject(p, projectId)}`,
      ),
    );
    out[m.name] = r?.n ?? 0;
  }
  return out;
}

/**
 * Writes a project's archive, line by line (each without its newline). Rows are read in pages by primary key,
 * each page one short statement: no transaction spans the export, so on the embedded database (one connection)
 * writers wait at most one page, however slowly the client reads, and on PostgreSQL no snapshot is held open.
 * The file is therefore not one instant: a row written during the export may be in it or not, but every
 * reference in the file resolves (rows that would point outside it are left out, `Part.refs`), which is what an
 * import needs. Rows are never deleted from a project but logged searches older than 90 days (curation-retrievals.ts),
 * so nothing else in the file can have vanished meanwhile.
 */
export async function exportProject(
  db: Db,
  projectId: string,
  write: (line: string) => void | Promise<void>,
  opts: { pageSize?: number } = {},
): Promise<ArchiveTrailer> {
  const pageSize = opts.pageSize ?? PAGE;
  const [project] = rowsOf<ArchiveHeader['project']>(
    await db.execute(
      sql`select id, name, settings, to_jsonb(created_at) #>> '{}' as created_at
           from projects where id = ${projectId}`,
    ),
  );
  if (!project) throw new InvalidInputError(`project ${JSON.stringify(projectId)} does not exist`);
  const header: ArchiveHeader = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    schema: await schemaVersion(db),
    exported_at: new Date().toISOString(),
    project,
  };
  await write(JSON.stringify(header));
  const trailer: ArchiveTrailer = { end: true, rows: 0, tables: {}, skipped: 0 };
  /** Keys of exported rows that later tables refer to: table → key → the row's version (memory entries) or 0. */
  const seen = new Map<string, Map<string, number>>();
  for (const p of PARTS) {
    const m = meta(p);
    const refCols = Object.keys(p.refs ?? {});
    const extra = [...new Set([...refCols, ...(p.remember ? [p.remember] : [])])];
    const versioned = m.name === 'memory_entries' || m.name === 'memory_entry_versions';
    const omit = p.omit?.length ? sql` - ${sql.raw(`'{${p.omit.join(',')}}'::text[]`)}` : sql``;
    const keyList = sql.raw(m.pk.map((c) => `row_.${q(c)}`).join(', '));
    const selected = sql.raw(
      [
        ...m.pk.map((c, i) => `row_.${q(c)}::text as k${i}`),
        ...extra.map((c, i) => `row_.${q(c)}::text as x${i}`),
        ...(versioned ? ['row_.version as v'] : []),
      ].join(', '),
    );
    const remembered = p.remember ? new Map<string, number>() : null;
    if (remembered) seen.set(m.name, remembered);
    let n = 0;
    let after: string[] | null = null;
    for (;;) {
      const cursor: SQL = after
        ? sql`and (${keyList}) > (${sql.join(
            after.map((v, i) => sql`${v}::${sql.raw(m.pkTypes[i]!)}`),
            sql`, `,
          )})`
        : sql``;
      const page = rowsOf<Record<string, string | number | null>>(
        await db.execute(
          sql`select (to_jsonb(row_)${omit})::text as r, ${selected} from ${sql.raw(q(m.name))} row_
               where ${whereProject(p, projectId)} ${cursor} order by ${keyList} limit ${pageSize}`,
        ),
      );
      for (const row of page) {
        const x = (c: string) => row[`x${extra.indexOf(c)}`] as string | null;
        const dangling = refCols.some((c) => {
          const v = x(c);
          if (v === null) return false;
          const target = seen.get(p.refs![c]!)?.get(v);
          return target === undefined || (m.name === 'memory_entry_versions' && Number(row.v) > target);
        });
        if (dangling) {
          trailer.skipped++;
          continue;
        }
        remembered?.set(x(p.remember!)!, versioned ? Number(row.v) : 0);
        await write(`{"t":${JSON.stringify(m.name)},"r":${row.r as string}}`);
        n++;
      }
      if (page.length < pageSize) break;
      const last = page[page.length - 1]!;
      after = m.pk.map((_, i) => String(last[`k${i}`]));
    }
    trailer.tables[m.name] = n;
    trailer.rows += n;
  }
  await write(JSON.stringify(trailer));
  return trailer;
}

export interface ImportResult {
  project: string;
  rows: number;
  tables: Record<string, number>;
}

/**
 * Loads an archive into an instance, all or nothing, into the archive's project (or `as`), which must
 * hold no data yet. Refuses a file of another format or schema, a truncated file, and counts that do
 * not match the header, naming the line.
 */
export async function importProject(
  db: Db,
  lines: AsyncIterable<string> | Iterable<string>,
  opts: { as?: string } = {},
): Promise<ImportResult> {
  const it = (
    Symbol.asyncIterator in lines ? lines[Symbol.asyncIterator]() : (lines as Iterable<string>)[Symbol.iterator]()
  ) as AsyncIterator<string> | Iterator<string>;
  const next = async () => {
    for (;;) {
      const r = await it.next();
      if (r.done) return null;
      if (r.value.trim()) return r.value;
    }
  };
  const first = await next();
  if (!first) throw new InvalidInputError('the file is empty');
  const header = parseLine(first, 1) as Partial<ArchiveHeader>;
  if (header.format !== ARCHIVE_FORMAT)
    throw new InvalidInputError(
      `line 1: not a Mnemoscope project export (format ` +
        `is ${JSON.stringify(header.format)}, ` +
        `expected ` +
        `"${ARCHIVE_FORMAT}")`,
    );
  if (header.version !== ARCHIVE_VERSION && header.version !== 1)
    throw new InvalidInputError(
      `line 1: export version ${header.version} is not supported ` +
        `(this Mnemoscope reads versions 1 and ${ARCHIVE_VERSION})`,
    );
  const projectId = opts.as ?? header.project?.id;
  if (!projectId || !header.project || (header.version === 1 && !header.tables))
    throw new InvalidInputError('line 1: the header lacks project or tables');
  const known = new Map(PARTS.map((p) => [meta(p).name, p]));
  const order = PARTS.map((p) => meta(p).name);

  return db.transaction(async (tx) => {
    const schema = await schemaVersion(tx);
    if (header.schema !== schema)
      throw new InvalidInputError(
        `the file was exported at schema ${header.schema}; this database is at ` +
          `schema ${schema}: ` +
          `import ` +
          `it ` +
          `with ` +
          `the Mnemoscope version that exported it, or export again after upgrading that one`,
      );
    const existing = Object.entries(await tableCounts(tx, projectId)).filter(([, n]) => n > 0);
    if (existing.length)
      throw new InvalidInputError(
        `project ${JSON.stringify(projectId)} already holds data ` +
          `(${existing.map(([t, n]) => `${n} ${t}`).join(', ')}); import into an empty ` +
          `instance ` +
          `(MNEMOSCOPE_DEMO=0 and a new data directory or database) or under another project id`,
      );
    await tx.execute(sql`
      insert into projects (id, name, settings, created_at)
      values (${projectId}, ${header.project!.name}, ${JSON.stringify(header.project!.settings ?? {})}::jsonb,
              ${header.project!.created_at}::timestamptz)
      on conflict (id) do update
        set name = excluded.name, settings = excluded.settings, created_at = excluded.created_at`);

    const counts: Record<string, number> = {};
    let batch: unknown[] = [];
    let batchTable = '';
    let lastIndex = -1;
    const flush = async () => {
      if (!batch.length) return;
      // Versions have no project of their own: each must belong to an entry this file has just imported.
      if (batchTable === 'memory_entry_versions') {
        const ids = [...new Set(batch.map((r) => String((r as { entry_id?: unknown }).entry_id)))];
        const [own] = rowsOf<{ n: number }>(
          await tx.execute(sql`select count(*)::int as n from memory_entries where project_id = ${projectId}
            and id::text in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`),
        );
        if (Number(own?.n) !== ids.length)
          throw new InvalidInputError(
            `memory_entry_versions rows before line ${lineNo + 1} refer to entries that are not in this file`,
          );
      }
      const m = meta(known.get(batchTable)!);
      const cols = sql.raw(m.columns.map(q).join(', '));
      try {
        await tx.execute(
          sql`insert into ${sql.raw(q(m.name))} (${cols})
               select ${cols}
                 from jsonb_populate_recordset(null::${sql.raw(q(m.name))}, ${JSON.stringify(batch)}::jsonb)`,
        );
      } catch (e) {
        // The reason, without the values the database quotes (they may be another project's).
        const reason = errorReason(e).replace(/\(.*$/, '').trim();
        throw new InvalidInputError(`${batchTable} rows before line ${lineNo + 1} could not be stored: ${reason}`);
      }
      counts[batchTable] = (counts[batchTable] ?? 0) + batch.length;
      batch = [];
    };
    let lineNo = 1;
    let trailer: Partial<ArchiveTrailer> | null = null;
    for (let line = await next(); line !== null; line = await next()) {
      lineNo++;
      if (trailer) throw new InvalidInputError(`line ${lineNo}: data after the end of the export`);
      const rec = parseLine(line, lineNo) as { t?: string; r?: Record<string, unknown>; end?: boolean; rows?: number };
      if (rec.end) {
        trailer = rec as Partial<ArchiveTrailer>;
        if (header.version !== 1 && (!trailer.tables || typeof trailer.tables !== 'object'))
          throw new InvalidInputError(`line ${lineNo}: the end marker lacks its row counts ("tables")`);
        continue;
      }
      if (typeof rec.t !== 'string' || !known.has(rec.t))
        throw new InvalidInputError(`line ${lineNo}: unknown table ${JSON.stringify(rec.t)}`);
      if (!rec.r || typeof rec.r !== 'object')
        throw new InvalidInputError(`line ${lineNo}: "r" must be the row object`);
      const index = order.indexOf(rec.t);
      if (index < lastIndex)
        throw new InvalidInputError(
          `line ${lineNo}: ${rec.t} rows after ${order[lastIndex]} rows (the file is out of order)`,
        );
      if (rec.t !== batchTable || batch.length >= 500) {
        await flush();
        batchTable = rec.t;
      }
      lastIndex = index;
      batch.push('project_id' in rec.r ? { ...rec.r, project_id: projectId } : rec.r);
    }
    await flush();
    if (!trailer)
      throw new InvalidInputError(`the file ends at line ${lineNo} without its end marker: it is truncated`);
    const rows = Object.values(counts).reduce((a, b) => a + b, 0);
    if (trailer.rows !== rows)
      throw new InvalidInputError(`the end marker says ${trailer.rows} rows but the file holds ${rows}`);
    const where = header.version === 1 ? 'header' : 'end marker';
    for (const [t, n] of Object.entries((header.version === 1 ? header.tables : trailer.tables) ?? {})) {
      if ((counts[t] ?? 0) !== n)
        throw new InvalidInputError(`the ${where} says ${n} ${t} rows but the file holds ${counts[t] ?? 0}`);
    }
    // Every reference to an entry must stay inside the project: a file must not reach another project's entries.
    const [foreign] = rowsOf<{ n: number; labels: number }>(
      await tx.execute(sql`with own as (select id from memory_entries where project_id = ${projectId})
        select (select count(*) from curation_outcomes where project_id = ${projectId}
                  and entry_id is not null and entry_id not in (select id from own))
             + (select count(*) from proposals where project_id = ${projectId}
                  and target_entry_id is not null and target_entry_id not in (select id from own))
             + (select count(*) from memory_entry_links where project_id = ${projectId}
                  and (entry_id not in (select id from own) or other_id not in (select id from own))) as n,
             (select count(*) from retrieval_judgments where project_id = ${projectId} and retrieval_id not in
                (select id from memory_retrievals where project_id = ${projectId})) as labels`),
    );
    if (Number(foreign?.n))
      throw new InvalidInputError(
        `${foreign!.n} curation outcome, proposal or link rows refer to entries that are not in this file`,
      );
    // A label's search is another project's when the file names a search of this instance it does not hold.
    if (Number(foreign?.labels))
      throw new InvalidInputError(`${foreign!.labels} retrieval labels refer to searches that are not in this file`);
    // The sessions list's figures are derived, not exported: made from the imported turns.
    await rebuildSessionStats(tx, { projectId });
    // No audit record of the import itself: the project's history stays exactly what was exported.
    return { project: projectId, rows, tables: counts };
  });
}

function parseLine(line: string, n: number): unknown {
  try {
    const v = JSON.parse(line);
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
    return v;
  } catch (e) {
    throw new InvalidInputError(`line ${n}: not a JSON object (${(e as Error).message})`);
  }
}
