import { inArray, and, eq, sql } from 'drizzle-orm';
import type { IngestResult } from '@/lib/ingest/contract';
import { scoreProblem, type ScoreDefinition } from '@/lib/annotations/contract';
import type { Tx } from '@/server/db';
import { annotations, definitionColumns, scoreDefinitions } from '@/server/db/schema/annotations';
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
