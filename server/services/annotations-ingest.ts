import { inArray, and, eq, sql } from 'drizzle-orm';
import type { FieldError, IngestResult } from '@/lib/ingest/contract';
import { scoreProblem, type ScoreDefinition } from '@/lib/annotations/contract';
import type { Tx } from '@/server/db';
import { annotations, definitionColumns, scoreDefinitions } from '@/server/db/schema/annotations';
import { memoryEntries, proposals } from '@/server/db/schema/curation';
import { artifacts, sessions, turns } from '@/server/db/schema/sessions';
import { rowsOf } from '@/server/db';
import { chunks, firstOf, markStored, type Pending, type Rec } from './ingest-batch';

/**
 * Holds a score name of a project until the transaction ends: shared by the writers of annotations under it,
 * exclusive while it is defined or removed. So a definition and a value it would not allow are never both written,
 * whichever instance writes either (a PostgreSQL advisory lock; PGlite takes it too).
 */
export async function lockScoreNames(tx: Tx, projectId: string, names: string[], mode: 'shared' | 'exclusive') {
  // In one order, so that two writers of the same names never wait on each other.
  for (const name of [...names].sort()) {
    const key = `score:${projectId}:${name}`;
    await tx.execute(
      mode === 'shared'
        ? sql`select pg_advisory_xact_lock_shared(hashtext(${key}))`
        : sql`select pg_advisory_xact_lock(hashtext(${key}))`,
    );
  }
}

/**
 * Annotations of an ingest batch whose score does not fit the project's definition of that name: rejected (naming
 * `data.value`). A name without a definition takes any value. Run in the transaction that writes the rest, whose
 * names it holds (lockScoreNames) until that commits.
 */
export async function rejectMisfitScores(tx: Tx, projectId: string, pending: Pending[]): Promise<IngestResult[]> {
  const named = pending.filter(
    (p): p is Pending<Rec<'annotation'>> => p.record.type === 'annotation' && p.record.name !== null,
  );
  if (!named.length) return [];
  const names = [...new Set(named.map((p) => p.record.name!))];
  await lockScoreNames(tx, projectId, names, 'shared');
  const defs = await tx
    .select(definitionColumns)
    .from(scoreDefinitions)
    .where(and(eq(scoreDefinitions.projectId, projectId), inArray(scoreDefinitions.name, names)));
  const byName = new Map<string, ScoreDefinition>(defs.map((d) => [d.name, d]));
  const out: IngestResult[] = [];
  for (const p of named) {
    const def = byName.get(p.record.name!);
    const problem = def && scoreProblem(def, p.record.value!);
    if (problem)
      out.push({
        index: p.index,
        status: 'rejected',
        type: 'annotation',
        id: p.id,
        errors: [{ path: 'data.value', message: problem }],
      });
  }
  return out;
}

/** Stores the batch's annotations (a known id is a duplicate); the author is the sender unless the record names one. */
export async function writeAnnotations(
  tx: Tx,
  projectId: string,
  recs: Pending<Rec<'annotation'>>[],
  stored: Set<number>,
  actor: string,
) {
  for (const chunk of chunks(firstOf(recs, (p) => p.record.id))) {
    const rows = await tx
      .insert(annotations)
      .values(
        chunk.map(({ record: r }) => ({
          projectId,
          id: r.id,
          target: r.target,
          sessionId: r.sessionId,
          turn: r.turn,
          field: r.field,
          term: r.term,
          artifactId: r.artifactId,
          proposalId: r.proposalId,
          entryId: r.entryId,
          name: r.name,
          value: r.value,
          comment: r.comment,
          author: r.author ?? actor,
          actor,
          // The statement's clock, not the transaction's: a later page of the newest-first list never skips it.
          createdAt: r.createdAt ?? sql`clock_timestamp()`,
          redactions: r.redactions,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: annotations.id });
    markStored(
      rows.map((r) => r.id),
      chunk,
      (p) => p.record.id,
      stored,
    );
  }
}

// Lower case only: the annotation lists match the id as text, so one in capitals would never show with its target.
const UUID = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const KEPT = 'the annotation is kept';

/**
 * Warns of each annotation of the batch whose target is not stored: it is kept (a judge may score a turn before the
 * agent's export lands), and the answer's `warnings` tell the sender its link leads nowhere for now. Run after the
 * batch's own records are written, so a target sent with it counts.
 */
export async function warnMissingTargets(tx: Tx, projectId: string, recs: Pending<Rec<'annotation'>>[]) {
  const missing = await missingTargets(
    tx,
    projectId,
    recs.map((p) => p.record),
  );
  recs.forEach((p, k) => {
    const warning = missing[k];
    // Once: a batch the database refused is written again record by record.
    if (warning && !p.warnings?.some((w) => w.message === warning.message))
      p.warnings = [...(p.warnings ?? []), warning];
  });
}

/** Where an annotation points (as stored, or as sent). */
export type AnnotationTarget = Pick<
  Rec<'annotation'>,
  'sessionId' | 'turn' | 'field' | 'term' | 'artifactId' | 'proposalId' | 'entryId'
> & { target: string };

/** For each annotation, what its target lacks (the field that names nothing stored), in one query; none if there. */
export async function missingTargets(
  tx: Tx,
  projectId: string,
  rs: readonly AnnotationTarget[],
): Promise<(FieldError | undefined)[]> {
  if (!rs.length) return [];
  const keys = rs.map((r, index) => ({
    i: index,
    target: r.target,
    sid: r.sessionId,
    turn: r.turn,
    field: r.field,
    term: r.term,
    ref: r.artifactId ?? r.proposalId ?? r.entryId,
  }));
  const turnOf = sql`${turns.projectId} = ${projectId} and ${turns.sessionId} = k.sid and ${turns.turn} = k.turn`;
  const uuid = (col: unknown) => sql`${col} = case when k.ref ~ ${UUID} then k.ref::uuid end`;
  const found = rowsOf<{ i: number; session: boolean; turn: boolean; field: boolean; found: boolean }>(
    await tx.execute(sql`
      select k.i,
        k.sid is not null and exists (
          select 1 from ${sessions} where ${sessions.projectId} = ${projectId} and ${sessions.id} = k.sid
        ) as session,
        k.turn is not null and exists (select 1 from ${turns} where ${turnOf}) as turn,
        k.field is not null and exists (
          select 1 from ${turns} where ${turnOf} and ${turns.ccs} -> k.field is not null
        ) as field,
        case k.target
          when 'term' then exists (
            select 1 from ${turns} where ${turnOf} and ${turns.ccs} -> k.field @> jsonb_build_array(k.term)
          )
          when 'artifact' then exists (
            select 1 from ${artifacts} where ${artifacts.projectId} = ${projectId} and ${artifacts.id} = k.ref
          )
          when 'proposal' then exists (
            select 1 from ${proposals} where ${proposals.projectId} = ${projectId} and ${uuid(proposals.id)}
          )
          when 'entry' then exists (
            select 1 from ${memoryEntries} where ${memoryEntries.projectId} = ${projectId} and ${uuid(memoryEntries.id)}
          )
          else true
        end as found
      from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb)
        as k(i int, target text, sid text, turn int, field text, term text, ref text)`),
  );
  const byIndex = new Map(found.map((f) => [f.i, f]));
  return rs.map((r, k) => {
    const f = byIndex.get(k);
    return f && missingTarget(r, f);
  });
}

/** What an annotation's target lacks, by the first of its fields that names nothing stored; none when it is there. */
function missingTarget(
  r: AnnotationTarget,
  f: { session: boolean; turn: boolean; field: boolean; found: boolean },
): FieldError | undefined {
  if (r.target === 'turn' || r.target === 'term') {
    if (!f.session) return { path: 'data.session_id', message: `no session "${r.sessionId}" is stored yet: ${KEPT}` };
    if (!f.turn) return { path: 'data.turn', message: `session "${r.sessionId}" has no turn ${r.turn} yet: ${KEPT}` };
    if (r.target === 'term' && !f.field)
      return { path: 'data.field', message: `turn ${r.turn}'s CCS has no field "${r.field}": ${KEPT}` };
    if (!f.found)
      return {
        path: 'data.term',
        message: `turn ${r.turn}'s ${r.field} holds no term "${r.term}": ${KEPT}, but the turn will not show it`,
      };
    return undefined;
  }
  if (f.found) return undefined;
  if (r.target === 'artifact')
    return { path: 'data.artifact_id', message: `no artifact "${r.artifactId}" is stored yet: ${KEPT}` };
  const [path, id] = r.target === 'proposal' ? ['data.proposal_id', r.proposalId] : ['data.entry_id', r.entryId];
  return { path, message: `no ${r.target} "${id}" in this project (its ids are the curator's): ${KEPT}` };
}
