import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnnotationRecord } from '@/lib/ingest/contract';
import {
  scoreProblem,
  type AnnotationFilter,
  type ScoreDefinition,
  type ScoreDefinitionInput,
  type ScoreValue,
} from '@/lib/annotations/contract';
import { rowsOf, type Db, type Tx } from '@/server/db';
import { annotations, definitionColumns, scoreDefinitions } from '@/server/db/schema/annotations';
import { auditLog } from '@/server/db/schema/projects';
import { lockScoreNames } from './annotations-ingest';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from './errors';
import { ingest } from './ingest';

const annotationCount = (n: number) => `${n} ${n === 1 ? 'annotation' : 'annotations'}`;

/** The list's place: the last row shown (its time to the microsecond, and its id). */
export interface AnnotationCursor {
  at: string;
  id: string;
}

const columns = {
  id: annotations.id,
  target: annotations.target,
  sessionId: annotations.sessionId,
  turn: annotations.turn,
  field: annotations.field,
  term: annotations.term,
  artifactId: annotations.artifactId,
  proposalId: annotations.proposalId,
  entryId: annotations.entryId,
  name: annotations.name,
  value: annotations.value,
  comment: annotations.comment,
  author: annotations.author,
  actor: annotations.actor,
  // ISO 8601 in UTC to the microsecond: exact as a cursor, and what browsers and the API's clients parse.
  createdAt: sql<string>`to_char(${annotations.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
};

export type AnnotationRow = Awaited<ReturnType<typeof listAnnotations>>['items'][number];

function where(projectId: string, f: AnnotationFilter): SQL {
  return and(
    eq(annotations.projectId, projectId),
    f.sessionId ? eq(annotations.sessionId, f.sessionId) : undefined,
    f.target ? eq(annotations.target, f.target) : undefined,
    f.name ? eq(annotations.name, f.name) : undefined,
    f.author ? eq(annotations.author, f.author) : undefined,
    f.commented === true
      ? isNotNull(annotations.comment)
      : f.commented === false
        ? isNull(annotations.comment)
        : undefined,
    f.proposalId ? eq(annotations.proposalId, f.proposalId) : undefined,
    f.entryId ? eq(annotations.entryId, f.entryId) : undefined,
    f.turn !== undefined ? eq(annotations.turn, f.turn) : undefined,
  )!;
}

/**
 * A page of annotations, newest first, after `after` when given. The first page also counts the matches and lists
 * the score names, authors and targets present (the filters' choices); later pages do not count again.
 */
export async function listAnnotations(
  db: Tx,
  projectId: string,
  f: AnnotationFilter & { after?: AnnotationCursor | null; limit?: number },
) {
  const limit = f.limit ?? 100;
  const filters = where(projectId, f);
  const a = f.after;
  const after = a ? sql`(${annotations.createdAt}, ${annotations.id}) < (${a.at}::timestamptz, ${a.id})` : undefined;
  const first = !a;
  const [rows, matching, facets] = await Promise.all([
    db
      .select(columns)
      .from(annotations)
      .where(and(filters, after))
      .orderBy(desc(annotations.createdAt), desc(annotations.id))
      .limit(limit + 1),
    first
      ? db
          .select({ n: sql<number>`count(*)::int` })
          .from(annotations)
          .where(filters)
          .then((r) => r[0]?.n ?? 0)
      : null,
    first ? annotationFacets(db, projectId) : null,
  ]);
  const items = rows.slice(0, limit);
  const last = rows.length > limit ? items[items.length - 1]! : null;
  return { items, next: last ? { at: last.createdAt, id: last.id } : null, matching, facets };
}

async function annotationFacets(db: Tx, projectId: string) {
  const rows = rowsOf<{ facet: string; v: string; n: number }>(
    await db.execute(sql`
      select 'name' as facet, name as v, count(*)::int as n from annotations where project_id = ${projectId}
        and name is not null group by name
      union all
      select 'author', author, count(*)::int from annotations where project_id = ${projectId} group by author
      union all
      select 'target', target, count(*)::int from annotations where project_id = ${projectId} group by target`),
  );
  const out: Record<'name' | 'author' | 'target', Record<string, number>> = { name: {}, author: {}, target: {} };
  for (const r of rows) out[r.facet as 'name'][r.v] = Number(r.n);
  return out;
}

/** Per turn of a session, how many annotations it has (its terms' included) and whether any is a comment. */
export async function annotatedTurns(db: Tx, projectId: string, sessionId: string) {
  return db
    .select({
      turn: sql<number>`${annotations.turn}`,
      n: sql<number>`count(*)::int`,
      names: sql<
        string[]
      >`coalesce(array_agg(distinct ${annotations.name}) filter (where ${annotations.name} is not null),
        '{}')`,
    })
    .from(annotations)
    .where(and(eq(annotations.projectId, projectId), eq(annotations.sessionId, sessionId), isNotNull(annotations.turn)))
    .groupBy(annotations.turn)
    .orderBy(annotations.turn);
}

/** How many annotations each of the given proposals or entries has. */
export async function annotationCounts(db: Tx, projectId: string, target: 'proposal' | 'entry', ids: string[]) {
  if (!ids.length) return {} as Record<string, number>;
  const col = target === 'proposal' ? annotations.proposalId : annotations.entryId;
  const rows = await db
    .select({ id: col, n: sql<number>`count(*)::int` })
    .from(annotations)
    .where(and(eq(annotations.projectId, projectId), eq(annotations.target, target), inArray(col, ids)))
    .groupBy(col);
  return Object.fromEntries(rows.map((r) => [r.id!, r.n])) as Record<string, number>;
}

/**
 * A person's annotation, stored through the same path as an agent's or a judge's (validation, redaction, the
 * score's definition, the audit log). Throws with every offending field named.
 */
export async function annotate(
  db: Db,
  projectId: string,
  data: Omit<AnnotationRecord, 'id' | 'author' | 'created_at'>,
  actor: string,
): Promise<AnnotationRow> {
  const id = randomUUID();
  const summary = await ingest(
    db,
    projectId,
    [{ ok: true, value: { type: 'annotation', data: { ...data, id } } }],
    actor,
  );
  const r = summary.results[0]!;
  if (r.status === 'rejected')
    throw new InvalidInputError(r.errors.map((e) => `${e.path.replace(/^data\./, '')}: ${e.message}`).join('; '));
  const [row] = await db
    .select(columns)
    .from(annotations)
    .where(and(eq(annotations.projectId, projectId), eq(annotations.id, id)));
  return row!;
}

/** Removes an annotation: its author may, and an admin may remove anyone's. Audited with what it said. */
export async function removeAnnotation(db: Db, projectId: string, id: string, actor: string, isAdmin: boolean) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select(columns)
      .from(annotations)
      .where(and(eq(annotations.projectId, projectId), eq(annotations.id, id)))
      .for('update');
    if (!row) throw new NotFoundError('annotation', id);
    if (row.actor !== actor && !isAdmin)
      throw new ForbiddenError(`only its author (${row.author}) or an admin may remove annotation ${id}`);
    await tx.delete(annotations).where(and(eq(annotations.projectId, projectId), eq(annotations.id, id)));
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'annotation.remove',
      subjectType: 'annotation',
      subjectId: id,
      detail: { target: row.target, name: row.name, value: row.value, comment: row.comment, author: row.author },
    });
  });
}

/** The project's score definitions, with how many annotations use each name. */
export async function listScoreDefinitions(db: Tx, projectId: string) {
  const rows = await db
    .select({
      ...definitionColumns,
      createdBy: scoreDefinitions.createdBy,
      // Qualified by hand: drizzle prints a column of the outer table unqualified, which `a` would then shadow.
      uses: sql<number>`(select count(*)::int from annotations a
        where a.project_id = score_definitions.project_id and a.name = score_definitions.name)`,
    })
    .from(scoreDefinitions)
    .where(eq(scoreDefinitions.projectId, projectId))
    .orderBy(scoreDefinitions.name);
  return rows satisfies (ScoreDefinition & { uses: number; createdBy: string })[];
}

/**
 * Defines a score. A name is defined once: values already given under it must keep their meaning (a definition
 * with no uses may be removed and defined again). A name annotations already use (as a free score) is defined only if
 * every value they hold fits: otherwise the refusal names the values that do not, and how often each is used.
 */
export async function defineScore(db: Db, projectId: string, input: ScoreDefinitionInput, actor: string) {
  return db.transaction(async (tx) => {
    // No annotation under the name is written between this check and the definition (whichever instance writes it).
    await lockScoreNames(tx, projectId, [input.name], 'exclusive');
    const def: ScoreDefinition = {
      name: input.name,
      kind: input.kind,
      min: input.min ?? null,
      max: input.max ?? null,
      categories: input.categories ?? [],
      description: input.description?.trim() || null,
    };
    const used = rowsOf<{ value: ScoreValue; n: number }>(
      await tx.execute(
        sql`select value, count(*)::int as n from annotations
            where project_id = ${projectId} and name = ${input.name} and value is not null
            group by value order by count(*) desc, value::text`,
      ),
    );
    const misfits = used.filter((u) => scoreProblem(def, u.value) !== null);
    if (misfits.length) {
      const n = misfits.reduce((a, u) => a + Number(u.n), 0);
      const shown = misfits
        .slice(0, 8)
        .map((u) => `${JSON.stringify(u.value)} (${u.n})`)
        .join(', ');
      throw new ConflictError(
        `score ${input.name} cannot be defined so: ${annotationCount(n)} already under it ` +
          `${n === 1 ? 'holds' : 'hold'} values it would not allow: ${shown}${misfits.length > 8 ? ', …' : ''}. ` +
          'Define it to allow them, or give it another name',
      );
    }
    const rows = await tx
      .insert(scoreDefinitions)
      .values({ projectId, ...def, createdBy: actor })
      .onConflictDoNothing()
      .returning(definitionColumns);
    if (!rows[0]) throw new ConflictError(`score ${input.name} is already defined`);
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'score.define',
      subjectType: 'score',
      subjectId: input.name,
      detail: { ...input },
    });
    return rows[0];
  });
}

/** Removes a score definition that no annotation uses yet. */
export async function removeScoreDefinition(db: Db, projectId: string, name: string, actor: string) {
  await db.transaction(async (tx) => {
    await lockScoreNames(tx, projectId, [name], 'exclusive');
    const [uses] = rowsOf<{ n: number }>(
      await tx.execute(
        sql`select count(*)::int as n from annotations where project_id = ${projectId} and name = ${name}`,
      ),
    );
    if (uses && Number(uses.n) > 0)
      throw new ConflictError(
        `score ${name} is used by ${annotationCount(Number(uses.n))}; it can no longer be removed`,
      );
    const gone = await tx
      .delete(scoreDefinitions)
      .where(and(eq(scoreDefinitions.projectId, projectId), eq(scoreDefinitions.name, name)))
      .returning({ name: scoreDefinitions.name });
    if (!gone.length) throw new NotFoundError('score', name);
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'score.remove',
      subjectType: 'score',
      subjectId: name,
      detail: {},
    });
  });
}
