import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { isEntryId } from './curation-index';
import { rowsOf, type Db, type Tx } from '@/server/db';
import { auditLog } from '@/server/db/schema/projects';
import { memoryRetrievals, retrievalJudgments } from '@/server/db/schema/curation';
import type { Redaction } from '@/lib/ingest/contract';
import type { RetrievalDay } from '@/lib/curation/health';
import { redactText } from '@/lib/redact/redact';
import { readerWords, type Reader } from '@/lib/curation/read-as';
import {
  RETRIEVAL_KEEP_DAYS,
  type JudgmentInput,
  type RetrievalSource,
  type RetrievedItem,
} from '@/lib/curation/retrievals';
import { errorReason, log } from '@/server/log';
import { periodic } from '@/server/lifecycle';
import { InvalidInputError, NotFoundError } from './errors';
import { given, readsEntry } from './curation-read-as';

/**
 * What agents retrieve, and reviewers' labels on it: every MCP `search_memory` call is logged with its results
 * (`memory_retrievals`), a reviewer marks each result relevant or not and adds what the search missed
 * (`retrieval_judgments`), and the labels give the Memory Curator paper's M6, retrieval F1 (`retrievalDays`, shown
 * by curationHealth). Curation → Retrievals is the page.
 */

/** How often each process deletes searches older than RETRIEVAL_KEEP_DAYS (every instance does; it is idempotent). */
const SWEEP_EVERY_MS = 10 * 60_000;

/** Deletes logged searches older than `keepDays` with their labels, of one project or all. Returns how many. */
export async function sweepRetrievals(
  db: Tx,
  projectId: string | null = null,
  keepDays = RETRIEVAL_KEEP_DAYS,
): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`with gone as (
        delete from ${memoryRetrievals}
        where ${memoryRetrievals.at} < now() - make_interval(days => ${keepDays})
          ${projectId === null ? sql`` : sql`and ${memoryRetrievals.projectId} = ${projectId}`}
        returning 1)
      select count(*)::int as n from gone`),
  );
  return Number(row?.n ?? 0);
}

/** Deletes old searches every SWEEP_EVERY_MS in this process, whether or not agents still search. */
export const startRetrievalSweeper = (db: Db) =>
  periodic('retrievals', db, SWEEP_EVERY_MS, () =>
    sweepRetrievals(db).catch((e: unknown) =>
      log.warn({ err: errorReason(e) }, 'deleting old memory retrievals failed'),
    ),
  );

/**
 * Logs one search an agent made: the query redacted as memory event content is (a secret pasted into a query is
 * never stored), the mode it ran in, the limit asked for and the results in rank order. One insert; a failure is a
 * warning in the log, never the search's failure. Returns the logged search's id, or null.
 */
export async function logRetrieval(
  db: Db,
  projectId: string,
  actor: string,
  search: {
    query: string;
    mode: string;
    limit: number;
    results: readonly { source: RetrievalSource; id: string }[];
    /** The reader the search was limited to, if any. */
    reader?: Reader | null;
  },
): Promise<string | null> {
  try {
    const { text, findings } = redactText(search.query);
    const redactions: Redaction[] = findings.map((f) => ({ path: 'query', ...f }));
    const items: RetrievedItem[] = search.results.map((r, i) => ({ source: r.source, id: r.id, rank: i + 1 }));
    const [row] = await db
      .insert(memoryRetrievals)
      .values({
        projectId,
        actor,
        query: text,
        redactions,
        mode: search.mode,
        resultLimit: search.limit,
        items,
        reader: search.reader ? given(search.reader) : null,
      })
      .returning({ id: memoryRetrievals.id });
    return row?.id ?? null;
  } catch (e) {
    log.warn({ err: errorReason(e), projectId }, 'logging a memory retrieval failed; the search answered');
    return null;
  }
}

/** Where the Retrievals list goes on: the last row shown, by its time as PostgreSQL prints it and its id. */
export interface RetrievalCursor {
  at: string;
  id: string;
}

/** Labels a logged search has: judged returned items, relevant ones, relevant ones it missed. */
const counted = {
  judged: sql<number>`(select count(*)::int from ${retrievalJudgments} j
    where j.retrieval_id = ${memoryRetrievals.id} and j.returned)`,
  relevant: sql<number>`(select count(*)::int from ${retrievalJudgments} j
    where j.retrieval_id = ${memoryRetrievals.id} and j.returned and j.relevant)`,
  missed: sql<number>`(select count(*)::int from ${retrievalJudgments} j
    where j.retrieval_id = ${memoryRetrievals.id} and not j.returned and j.relevant)`,
};

const rowColumns = {
  id: memoryRetrievals.id,
  at: memoryRetrievals.at,
  actor: memoryRetrievals.actor,
  query: memoryRetrievals.query,
  mode: memoryRetrievals.mode,
  limit: memoryRetrievals.resultLimit,
  returned: sql<number>`jsonb_array_length(${memoryRetrievals.items})::int`,
  reader: memoryRetrievals.reader,
  ...counted,
};

/**
 * One page of a project's logged searches, newest first, after the row `after` when given (agents keep searching
 * while a reviewer reads: a keyset neither repeats nor skips rows). `unlabelled`: only searches with no label yet.
 * The first page also counts the matches and the labelled searches; later pages do not count again.
 */
export async function listRetrievals(
  db: Tx,
  projectId: string,
  f: { unlabelled?: boolean; after?: RetrievalCursor | null; limit?: number } = {},
) {
  const limit = f.limit ?? 100;
  const mine = eq(memoryRetrievals.projectId, projectId);
  const labelled = sql`exists (select 1 from ${retrievalJudgments} j where j.retrieval_id = ${memoryRetrievals.id})`;
  const where = and(mine, f.unlabelled ? sql`not ${labelled}` : undefined);
  const a = f.after;
  // Bounded first (<=), so the index on the time can start there.
  const after: SQL | undefined = a
    ? sql`${memoryRetrievals.at} <= ${a.at}::timestamptz
        and (${memoryRetrievals.at} < ${a.at}::timestamptz or ${memoryRetrievals.id} > ${a.id}::uuid)`
    : undefined;
  const first = !a;
  const countOf = async (w: SQL | undefined) =>
    Number(
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(memoryRetrievals)
          .where(w)
      )[0]?.n ?? 0,
    );
  const [rows, matching, total, withLabels] = await Promise.all([
    db
      .select({ ...rowColumns, sortAt: sql<string>`${memoryRetrievals.at}::text` })
      .from(memoryRetrievals)
      .where(and(where, after))
      .orderBy(desc(memoryRetrievals.at), asc(memoryRetrievals.id))
      .limit(limit + 1),
    first ? countOf(where) : null,
    first ? countOf(mine) : null,
    first ? countOf(and(mine, labelled)) : null,
  ]);
  const items = rows.slice(0, limit).map(({ sortAt: _, ...r }) => r);
  const last = rows.length > limit ? rows[limit - 1]! : null;
  return {
    items,
    next: last ? { at: last.sortAt, id: last.id } : null,
    matching,
    total,
    labelled: withLabels,
  };
}

interface ItemRow {
  source: RetrievalSource;
  id: string;
  content: string;
  kind: string | null;
  scope: string | null;
  status: string;
}

/** The entries and artifact records named, as a reviewer reads them (an artifact's text cut at 4,000 characters). */
async function itemsNamed(db: Tx, projectId: string, named: readonly { source: RetrievalSource; id: string }[]) {
  const of = (s: RetrievalSource) => [...new Set(named.filter((n) => n.source === s).map((n) => n.id))];
  // Entry ids are uuids (by the primary key's index); anything else names no entry.
  const entries = JSON.stringify(of('memory_entry').filter(isEntryId));
  const records = JSON.stringify(of('artifact'));
  const rows = rowsOf<ItemRow>(
    await db.execute(sql`
      select 'memory_entry' as source, id::text as id, content, kind, scope, status from memory_entries
        where project_id = ${projectId} and id in (select x::uuid from jsonb_array_elements_text(${entries}::jsonb) x)
      union all
      select 'artifact', id, left(content, 4000), kind, null, status from artifacts
        where project_id = ${projectId} and id in (select jsonb_array_elements_text(${records}::jsonb))`),
  );
  return new Map(rows.map((r) => [`${r.source}:${r.id}`, r]));
}

/**
 * One logged search with its items: the returned ones in rank order, then those a reviewer added as missed (oldest
 * label first), each with its text as it reads now (null if it is no longer stored) and its label, if any.
 */
export async function retrievalDetail(db: Tx, projectId: string, id: string) {
  const [r] = await db
    .select({ ...rowColumns, items: memoryRetrievals.items, redactions: memoryRetrievals.redactions })
    .from(memoryRetrievals)
    .where(and(eq(memoryRetrievals.projectId, projectId), eq(memoryRetrievals.id, id)));
  if (!r) throw new NotFoundError('logged search', id);
  const judgments = await db
    .select({
      source: retrievalJudgments.source,
      itemId: retrievalJudgments.itemId,
      relevant: retrievalJudgments.relevant,
      returned: retrievalJudgments.returned,
      judgedBy: retrievalJudgments.judgedBy,
      judgedAt: retrievalJudgments.judgedAt,
    })
    .from(retrievalJudgments)
    .where(and(eq(retrievalJudgments.projectId, projectId), eq(retrievalJudgments.retrievalId, id)))
    .orderBy(asc(retrievalJudgments.judgedAt), asc(retrievalJudgments.itemId));
  const label = new Map(judgments.map((j) => [`${j.source}:${j.itemId}`, j]));
  const missed = judgments.filter((j) => !j.returned).map((j) => ({ source: j.source, id: j.itemId, rank: null }));
  const all: { source: RetrievalSource; id: string; rank: number | null }[] = [...r.items, ...missed];
  const stored = await itemsNamed(db, projectId, all);
  const { items: _, ...retrieval } = r;
  return {
    retrieval,
    items: all.map((i) => {
      const s = stored.get(`${i.source}:${i.id}`);
      const j = label.get(`${i.source}:${i.id}`);
      return {
        source: i.source,
        id: i.id,
        rank: i.rank,
        returned: i.rank !== null,
        content: s?.content ?? null,
        kind: s?.kind ?? null,
        scope: s?.scope ?? null,
        status: s?.status ?? null,
        relevant: j ? j.relevant : null,
        judgedBy: j?.judgedBy ?? null,
        judgedAt: j?.judgedAt ?? null,
      };
    }),
  };
}

/**
 * A reviewer's label on an item of a logged search. Whether the item was returned is the log's to say, not the
 * caller's: an item the search did not return is one it missed, and must be a stored entry or artifact record of the
 * project. A later label of the same item replaces the earlier; each is audited.
 */
export async function judgeRetrieval(db: Db, projectId: string, input: JudgmentInput, actor: string) {
  return db.transaction(async (tx) => {
    const [r] = await tx
      .select({ items: memoryRetrievals.items, reader: memoryRetrievals.reader })
      .from(memoryRetrievals)
      .where(and(eq(memoryRetrievals.projectId, projectId), eq(memoryRetrievals.id, input.retrievalId)));
    if (!r) throw new NotFoundError('logged search', input.retrievalId);
    const returned = r.items.some((i) => i.source === input.source && i.id === input.itemId);
    if (!returned && !(await itemsNamed(tx, projectId, [{ source: input.source, id: input.itemId }])).size)
      throw new NotFoundError(input.source === 'memory_entry' ? 'memory entry' : 'artifact', input.itemId);
    // A search limited to a reader could return only what that reader reads: anything else is no miss of it.
    if (
      !returned &&
      r.reader &&
      input.source === 'memory_entry' &&
      !(await readsEntry(tx, projectId, r.reader, input.itemId))
    )
      throw new InvalidInputError(
        `itemId: this search read as ${readerWords(r.reader)}, who does not read entry ${input.itemId}, so it could ` +
          'not have returned it (Read as shows what that reader reads)',
      );
    const label = { relevant: input.relevant, returned, judgedBy: actor, judgedAt: sql`now()` };
    await tx
      .insert(retrievalJudgments)
      .values({ projectId, retrievalId: input.retrievalId, source: input.source, itemId: input.itemId, ...label })
      .onConflictDoUpdate({
        target: [retrievalJudgments.retrievalId, retrievalJudgments.source, retrievalJudgments.itemId],
        set: label,
      });
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'retrieval.judge',
      subjectType: 'memory_retrieval',
      subjectId: input.retrievalId,
      detail: { source: input.source, itemId: input.itemId, relevant: input.relevant, returned },
    });
    return { returned, relevant: input.relevant };
  });
}

/**
 * M6 counts per day of the search (the same day buckets as the other health metrics): searches with a label that
 * counts, returned items judged, relevant ones, and relevant items added as missed. An added item later marked not
 * relevant counts nowhere (it takes the addition back).
 */
export async function retrievalDays(db: Tx, projectId: string): Promise<RetrievalDay[]> {
  const r = await db.execute(sql`
    select to_char(date_trunc('day', r.at), 'YYYY-MM-DD') as day,
      count(distinct r.id) filter (where j.returned or j.relevant)::int as retrievals_labelled,
      count(*) filter (where j.returned)::int as judged_returned,
      count(*) filter (where j.returned and j.relevant)::int as relevant_returned,
      count(*) filter (where not j.returned and j.relevant)::int as relevant_missed
    from memory_retrievals r
    join retrieval_judgments j on j.retrieval_id = r.id and j.project_id = r.project_id
    where r.project_id = ${projectId}
    group by 1
    having count(*) filter (where j.returned or j.relevant) > 0
    order by 1`);
  return rowsOf<RetrievalDay>(r);
}
