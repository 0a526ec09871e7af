import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/server/db';
import { auditLog } from '@/server/db/schema/projects';
import { artifacts } from '@/server/db/schema/sessions';
import { memoryEntries, memoryEntryLinks, memoryEntryVersions } from '@/server/db/schema/curation';
import type { Kind, Operation, Scope } from '@/lib/curation/pipeline';
import { NOW } from './curation-index';
import { ConflictError, InvalidInputError, NotFoundError } from './errors';

/**
 * The write operations on memory entries, shared by the curator and reviewers' decisions: each change is
 * a new version of the entry, and there is no delete (a deprecation marks an entry or a record).
 */

export interface WriteInput {
  scope: Scope;
  kind: Kind;
  content: string;
  eventId: string | null;
  targetEntryId: string | null;
  /**
   * The entry's version the update or merge was proposed against: approving it after the entry changed is refused
   * (the reviewer decided on wording that is no longer there).
   */
  targetVersion?: number;
  /** A record of the external artifact store, for a deprecation raised from the hygiene lab. */
  targetArtifactId?: string | null;
  conflictsWith: string[];
}

export async function lockEntry(tx: Tx, projectId: string, id: string) {
  const [row] = await tx
    .select()
    .from(memoryEntries)
    .where(and(eq(memoryEntries.projectId, projectId), eq(memoryEntries.id, id)))
    .for('update');
  if (!row) throw new NotFoundError('memory entry', id);
  return row;
}

export async function newVersion(
  tx: Tx,
  projectId: string,
  id: string,
  operation: string,
  change: { content?: string; scope?: string; kind?: string; status?: string },
  eventId: string | null,
  actor: string,
  note: string | null = null,
) {
  const cur = await lockEntry(tx, projectId, id);
  const next = {
    content: change.content ?? cur.content,
    scope: change.scope ?? cur.scope,
    kind: change.kind ?? cur.kind,
    status: change.status ?? cur.status,
  };
  await tx
    .update(memoryEntries)
    .set({ ...next, version: cur.version + 1, updatedAt: NOW })
    .where(eq(memoryEntries.id, id));
  await tx
    .insert(memoryEntryVersions)
    .values({ entryId: id, version: cur.version + 1, operation, ...next, eventId, createdBy: actor, note });
}

/** Applies one write operation; returns the entry it wrote or changed (null for discard). */
export async function applyOperation(
  tx: Tx,
  projectId: string,
  op: Operation,
  w: WriteInput,
  actor: string,
): Promise<string | null> {
  switch (op) {
    case 'discard':
      return null;
    case 'append':
    case 'conflict': {
      const id = randomUUID();
      const status = op === 'conflict' ? 'in_conflict' : 'active';
      await tx.insert(memoryEntries).values({
        id,
        projectId,
        scope: w.scope,
        kind: w.kind,
        content: w.content,
        status,
        sourceEventId: w.eventId,
        createdAt: NOW,
        updatedAt: NOW,
      });
      await tx.insert(memoryEntryVersions).values({
        entryId: id,
        version: 1,
        operation: op,
        scope: w.scope,
        kind: w.kind,
        content: w.content,
        status,
        eventId: w.eventId,
        createdBy: actor,
      });
      if (op === 'conflict') {
        for (const other of w.conflictsWith) {
          await newVersion(tx, projectId, other, 'conflict', { status: 'in_conflict' }, w.eventId, actor);
          await tx.insert(memoryEntryLinks).values([
            { projectId, entryId: id, otherId: other, relation: 'conflicts_with' },
            { projectId, entryId: other, otherId: id, relation: 'conflicts_with' },
          ]);
        }
      }
      return id;
    }
    case 'update':
    case 'merge': {
      if (!w.targetEntryId) throw new InvalidInputError(`${op === 'merge' ? 'a merge' : 'an update'} needs its entry`);
      // A merge folds a restatement into a live entry: one deprecated (or in conflict) since it was proposed is not
      // brought back by it.
      const target = await lockEntry(tx, projectId, w.targetEntryId);
      if (op === 'merge' && target.status !== 'active')
        throw new ConflictError(
          `the entry this merges into is ${target.status} now (v${target.version}); keep both instead, or reject`,
        );
      if (w.targetVersion !== undefined && target.version !== w.targetVersion)
        throw new ConflictError(
          `the entry changed since this ${op} was proposed (v${w.targetVersion} then, v${target.version} now): ` +
            'read it again, then keep both or reject',
        );
      await newVersion(
        tx,
        projectId,
        w.targetEntryId,
        op,
        { content: w.content, scope: w.scope, kind: w.kind, status: 'active' },
        w.eventId,
        actor,
      );
      return w.targetEntryId;
    }
    case 'deprecate': {
      if (w.targetArtifactId) {
        const [a] = await tx
          .update(artifacts)
          .set({ status: 'deprecated', statusChangedAt: sql`now()`, statusChangedBy: actor })
          .where(and(eq(artifacts.projectId, projectId), eq(artifacts.id, w.targetArtifactId)))
          .returning({ id: artifacts.id });
        if (!a) throw new NotFoundError('record', w.targetArtifactId);
        await tx.insert(auditLog).values({
          projectId,
          actor,
          action: 'artifact.deprecate',
          subjectType: 'artifact',
          subjectId: w.targetArtifactId,
          detail: { eventId: w.eventId },
        });
        return null;
      }
      if (!w.targetEntryId) throw new InvalidInputError('a deprecation needs the entry it deprecates');
      await newVersion(tx, projectId, w.targetEntryId, 'deprecate', { status: 'deprecated' }, w.eventId, actor);
      return w.targetEntryId;
    }
  }
}
