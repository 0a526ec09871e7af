import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '@/server/db';
import {
  actionRow,
  annotationRows,
  artifactRows,
  deadEndRows,
  judgmentRows,
  methodologyRows,
  policyOverrideRows,
  ppHistoryRows,
  snapshotRow,
  stateEntities,
  type AgentEntities,
} from '@/lib/ucs/ingest-rows';
import {
  ucsActions,
  ucsAnnotations,
  ucsArtifacts,
  ucsDeadEnds,
  ucsDocuments,
  ucsJudgments,
  ucsMethodology,
  ucsPolicyOverrides,
  ucsPpHistory,
  ucsSnapshots,
} from '@/server/db/schema/substrate';
import { chunks, firstOf, markStored, ofType, sha256, type Pending } from './ingest-batch';

/**
 * The UCS records of an ingest batch (the substrate of "Judgment Preservation in Persistent AI Agents: A
 * Unified Cognitive Substrate for Routing Reinforcement and Metacognitive Continuity"): states, documents
 * and actions are inserted once; the entities inside them are upserted, later documents refining earlier ones.
 * The rows come from lib/ucs/ingest-rows.ts.
 */
export async function writeSubstrate(tx: Tx, projectId: string, pending: Pending[], stored: Set<number>) {
  const entities: AgentEntities[] = [];

  // Snapshots carry ~100 KB each: a few per statement.
  for (const chunk of chunks(
    firstOf(ofType(pending, 'ucs_state'), (p) => `${p.record.agentId}@${p.record.parts.t}`),
    8,
  )) {
    const rows = await tx
      .insert(ucsSnapshots)
      .values(chunk.map(({ record: r }) => ({ projectId, ...snapshotRow(r) })))
      .onConflictDoNothing()
      .returning({ agentId: ucsSnapshots.agentId, t: ucsSnapshots.t });
    markStored(
      rows.map((r) => `${r.agentId}@${r.t}`),
      chunk,
      (p) => `${p.record.agentId}@${p.record.parts.t}`,
      stored,
    );
    for (const { record: r } of chunk) entities.push(stateEntities(r));
  }

  const docs = ofType(pending, 'ucs_document').map((p) => ({ ...p, key: p.record.key ?? sha256(p.record.content) }));
  for (const chunk of chunks(
    firstOf(docs, (p) => `${p.record.agentId}|${p.record.kind}|${p.key}`),
    20,
  )) {
    const rows = await tx
      .insert(ucsDocuments)
      .values(
        chunk.map((p) => ({
          projectId,
          agentId: p.record.agentId,
          kind: p.record.kind,
          key: p.key,
          content: p.record.content,
          source: p.record.source,
        })),
      )
      .onConflictDoNothing()
      .returning({ agentId: ucsDocuments.agentId, kind: ucsDocuments.kind, key: ucsDocuments.key });
    markStored(
      rows.map((r) => `${r.agentId}|${r.kind}|${r.key}`),
      chunk,
      (p) => `${p.record.agentId}|${p.record.kind}|${p.key}`,
      stored,
    );
    for (const p of chunk)
      if (p.record.entities) entities.push({ ...p.record.entities, agentId: p.record.agentId, t: null });
  }

  for (const chunk of chunks(firstOf(ofType(pending, 'ucs_action'), (p) => `${p.record.agentId}@${p.record.t}`))) {
    const rows = await tx
      .insert(ucsActions)
      .values(chunk.map(({ record: r }) => ({ projectId, ...actionRow(r) })))
      .onConflictDoNothing()
      .returning({ agentId: ucsActions.agentId, t: ucsActions.t });
    markStored(
      rows.map((r) => `${r.agentId}@${r.t}`),
      chunk,
      (p) => `${p.record.agentId}@${p.record.t}`,
      stored,
    );
  }

  await upsertEntities(tx, projectId, entities);
}

async function upsert<T extends PgTable>(
  tx: Tx,
  table: T,
  rows: T['$inferInsert'][],
  target: unknown[],
  set: Record<string, unknown>,
) {
  for (const chunk of chunks(rows)) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- drizzle's generic insert over a table parameter
    await (tx.insert(table as any).values(chunk) as any).onConflictDoUpdate({ target, set });
  }
}

const excluded = (col: string) => sql.raw(`excluded.${col}`);

/** Entities pulled from UCS documents and states: upserted, later documents refine earlier ones. */
async function upsertEntities(tx: Tx, projectId: string, list: AgentEntities[]) {
  if (!list.length) return;
  const own = <R>(rows: R[]) => rows.map((r) => ({ projectId, ...r }));

  await upsert(
    tx,
    ucsArtifacts,
    own(artifactRows(list)),
    [ucsArtifacts.projectId, ucsArtifacts.agentId, ucsArtifacts.id],
    {
      kind: excluded('kind'),
      payload: excluded('payload'),
      score: excluded('score'),
      createdT: excluded('created_t'),
      meta: sql`coalesce(excluded.meta, ${ucsArtifacts.meta})`,
      lastSeenT: sql`greatest(${ucsArtifacts.lastSeenT}, excluded.last_seen_t)`,
    },
  );

  await upsert(
    tx,
    ucsAnnotations,
    own(annotationRows(list)),
    [ucsAnnotations.projectId, ucsAnnotations.agentId, ucsAnnotations.artifactId],
    {
      text: excluded('text'),
      failureCondition: excluded('failure_condition'),
      generalizedPattern: excluded('generalized_pattern'),
      annotatedAt: excluded('annotated_at'),
      data: excluded('data'),
    },
  );

  await upsert(
    tx,
    ucsMethodology,
    own(methodologyRows(list)),
    [ucsMethodology.projectId, ucsMethodology.agentId, ucsMethodology.id],
    { data: excluded('data'), summary: excluded('summary') },
  );

  await upsert(tx, ucsDeadEnds, own(deadEndRows(list)), [ucsDeadEnds.projectId, ucsDeadEnds.agentId, ucsDeadEnds.id], {
    data: excluded('data'),
    whyClosed: excluded('why_closed'),
    reopenConditions: excluded('reopen_conditions'),
    occurrences: sql`greatest(${ucsDeadEnds.occurrences}, excluded.occurrences)`,
  });

  await upsert(
    tx,
    ucsJudgments,
    own(judgmentRows(list)),
    [ucsJudgments.projectId, ucsJudgments.agentId, ucsJudgments.id],
    { data: excluded('data') },
  );

  await upsert(
    tx,
    ucsPpHistory,
    own(ppHistoryRows(list)),
    [ucsPpHistory.projectId, ucsPpHistory.agentId, ucsPpHistory.t],
    {
      pp: excluded('pp'),
      health: sql`coalesce(excluded.health, ${ucsPpHistory.health})`,
      data: excluded('data'),
    },
  );

  await upsert(
    tx,
    ucsPolicyOverrides,
    own(policyOverrideRows(list)),
    [ucsPolicyOverrides.projectId, ucsPolicyOverrides.agentId, ucsPolicyOverrides.key],
    { data: excluded('data') },
  );
}
