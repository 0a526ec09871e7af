import { fmtDateTime } from '@/lib/format';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/server/db';
import { auditLog } from '@/server/db/schema/projects';
import { curationOutcomes, proposals } from '@/server/db/schema/curation';
import { KINDS, SCOPES, type Kind, type Operation, type Scope } from '@/lib/curation/pipeline';
import { redactText } from '@/lib/redact/redact';
import { lockCuration } from './curation-index';
import { applyOperation, lockEntry, newVersion } from './curation-writes';
import { ConflictError, InvalidInputError, NotFoundError } from './errors';
import { memoryEventDecision, notifyDecisions } from './decisions';
import { notifyInbox } from './live';
import { enqueueWebhooks } from './webhooks';
import { sameAsEntry } from './curation';

/**
 * Reviewers' decisions: approving or rejecting a proposal from the inbox, and deprecating an entry from
 * the memory browser. Each is one transaction, a curation outcome where it decides an event, and an audit record.
 */

export interface Decision {
  action: 'approve' | 'reject';
  /** Required to reject. */
  reason?: string;
  /** Edit, then approve. */
  edits?: { content?: string; scope?: Scope; kind?: Kind };
  /** A proposed merge approved as a separate entry: the reviewer judged them different facts. */
  keepSeparate?: boolean;
  /** Approved although an entry says the same already (written since it was proposed): a second copy, knowingly. */
  despiteDuplicate?: boolean;
}

/**
 * Decides one pending proposal and applies it, all in one transaction. Two reviewers deciding at
 * once: the first to commit wins; the other gets a ConflictError naming who decided and how.
 */
export async function decideProposal(
  db: Db,
  projectId: string,
  proposalId: string,
  d: Decision,
  reviewer: string,
): Promise<{ status: string; entryId: string | null; operation: Operation; edited: string[] }> {
  if (d.action === 'reject' && !d.reason?.trim()) throw new InvalidInputError('reason: a rejection needs a reason');
  if (d.keepSeparate && d.action !== 'approve')
    throw new InvalidInputError('keepSeparate: only an approval keeps a proposal as a separate entry');
  if (d.edits?.scope && !(SCOPES as readonly string[]).includes(d.edits.scope))
    throw new InvalidInputError(`edits.scope: must be one of ${SCOPES.join(', ')}`);
  if (d.edits?.kind && !(KINDS as readonly string[]).includes(d.edits.kind))
    throw new InvalidInputError(`edits.kind: must be one of ${KINDS.join(', ')}`);
  if (d.edits?.content !== undefined && !d.edits.content.trim())
    throw new InvalidInputError('edits.content: must not be empty');
  const content = d.edits?.content !== undefined ? redactText(d.edits.content).text : undefined;
  // The reason is memory text too (the proposal, the audit log, the agent asking and webhooks read it): redacted.
  if (d.reason?.trim()) d = { ...d, reason: redactText(d.reason.trim()).text };
  try {
    if (d.action === 'approve' && !d.despiteDuplicate) await refuseSecondCopy(db, projectId, proposalId, d, content);
    return await applyDecision(db, projectId, proposalId, d, content, reviewer);
  } catch (error) {
    // A refused attempt (someone decided first) is audited too, outside the rolled-back transaction.
    if (error instanceof ConflictError)
      await db.insert(auditLog).values({
        projectId,
        actor: reviewer,
        action: 'proposal.refused',
        subjectType: 'proposal',
        subjectId: proposalId,
        detail: { attempted: d.action, reason: error.message },
      });
    throw error;
  }
}

/**
 * A new entry proposed when nothing said the same may have a twin by now: approving it would write the fact twice.
 * Refused, naming the entry, unless the reviewer approves it anyway (`despiteDuplicate`) or rejects it.
 */
async function refuseSecondCopy(db: Db, projectId: string, proposalId: string, d: Decision, content?: string) {
  const [p] = await db
    .select({ operation: proposals.operation, scope: proposals.scope, content: proposals.content })
    .from(proposals)
    .where(and(eq(proposals.projectId, projectId), eq(proposals.id, proposalId), eq(proposals.status, 'pending')));
  if (p?.operation !== 'append' || d.keepSeparate) return;
  const twin = await sameAsEntry(db, projectId, content ?? p.content, d.edits?.scope ?? p.scope);
  if (!twin) return;
  const words = twin.content.length > 120 ? `${twin.content.slice(0, 120)}…` : twin.content;
  throw new ConflictError(
    `entry ${twin.entryId} says the same already (“${words}”, cosine ${twin.cosine.toFixed(3)}: ${twin.because}); ` +
      'approving would write a second copy. Reject this one as a duplicate, or approve it anyway',
  );
}

async function applyDecision(
  db: Db,
  projectId: string,
  proposalId: string,
  d: Decision,
  content: string | undefined,
  reviewer: string,
): Promise<{ status: string; entryId: string | null; operation: Operation; edited: string[] }> {
  return db.transaction(async (tx) => {
    await lockCuration(tx, projectId);
    const status = d.action === 'approve' ? 'approved' : 'rejected';
    const [p] = await tx
      .update(proposals)
      .set({
        status,
        // Under the curation lock, so decided proposals page in the order they were decided.
        decidedAt: sql`clock_timestamp()`,
        decidedBy: reviewer,
        decisionNote: d.reason ?? null,
        ...(content !== undefined ? { content } : {}),
        ...(d.edits?.scope ? { scope: d.edits.scope } : {}),
        ...(d.edits?.kind ? { kind: d.edits.kind } : {}),
      })
      .where(and(eq(proposals.projectId, projectId), eq(proposals.id, proposalId), eq(proposals.status, 'pending')))
      .returning();
    if (!p) {
      const [cur] = await tx
        .select()
        .from(proposals)
        .where(and(eq(proposals.projectId, projectId), eq(proposals.id, proposalId)));
      if (!cur) throw new NotFoundError('proposal', proposalId);
      // Which proposal, in words a reviewer knows it by (the focus has moved on by the time this is read).
      const what = cur.content.length > 60 ? `${cur.content.slice(0, 59).trimEnd()}…` : cur.content;
      throw new ConflictError(
        `proposal “${what}” already ${cur.status} by ${cur.decidedBy ?? 'someone'} ` +
          `at ${cur.decidedAt ? fmtDateTime(cur.decidedAt) : 'an earlier time'}; your decision was not applied`,
      );
    }
    if (d.keepSeparate && p.operation !== 'merge')
      throw new InvalidInputError(`keepSeparate: only a merge proposal can be kept separate (this is ${p.operation})`);
    // A merge the reviewer keeps separate is written as a new entry.
    const operation = (d.keepSeparate ? 'append' : p.operation) as Operation;
    const entryId =
      status === 'approved'
        ? await applyOperation(
            tx,
            projectId,
            operation,
            {
              scope: p.scope as Scope,
              kind: p.kind as Kind,
              content: p.content,
              eventId: p.eventId,
              targetEntryId: p.targetEntryId,
              ...(!d.keepSeparate && typeof p.rationale.targetVersion === 'number'
                ? { targetVersion: p.rationale.targetVersion }
                : {}),
              targetArtifactId: p.targetArtifactId,
              conflictsWith: p.conflictsWith,
            },
            reviewer,
          )
        : null;
    // The fields the reviewer changed: a form sends the others as undefined (superjson keeps such keys).
    const changed = Object.entries(d.edits ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [k]));
    const edited = changed.length ? changed : null;
    await tx.insert(curationOutcomes).values({
      projectId,
      eventId: p.eventId,
      disposition: status,
      scope: p.scope,
      kind: p.kind,
      reason: d.reason ?? (edited ? 'edited, then approved' : 'approved'),
      rationale: { proposalId, operation, edited: edited ?? [], ...(d.keepSeparate ? { keptSeparate: true } : {}) },
      entryId,
      decidedBy: reviewer,
    });
    await tx.insert(auditLog).values({
      projectId,
      actor: reviewer,
      action: `proposal.${status}`,
      subjectType: 'proposal',
      subjectId: proposalId,
      detail: {
        eventId: p.eventId,
        batchId: p.batchId,
        operation,
        entryId,
        reason: d.reason ?? null,
        ...(d.keepSeparate ? { keptSeparate: true } : {}),
        edited: edited ?? [],
      },
    });
    // The agent that sent the event, waiting or not, hears of it; so do the project's webhooks and open inboxes.
    await notifyDecisions(tx, projectId, [p.eventId]);
    await notifyInbox(tx, projectId);
    const decision = () => memoryEventDecision(tx, projectId, p.eventId);
    await enqueueWebhooks(tx, projectId, 'proposal.decided', async () => [
      {
        proposal_id: proposalId,
        operation,
        status,
        decided_by: reviewer,
        note: d.reason ?? null,
        source_agent: p.sourceAgent,
        decision: await decision(),
      },
    ]);
    if (status === 'approved' && p.operation === 'deprecate' && entryId)
      await enqueueWebhooks(tx, projectId, 'entry.deprecated', async () => [
        {
          entry: (await decision())?.entry ?? { id: entryId },
          by: reviewer,
          reason: d.reason ?? null,
          proposal_id: proposalId,
        },
      ]);
    return { status, entryId, operation, edited: edited ?? [] };
  });
}

/** Deprecates an entry from the memory browser (nothing is ever deleted). */
export async function deprecateEntry(db: Db, projectId: string, entryId: string, asked: string, actor: string) {
  if (!asked.trim()) throw new InvalidInputError('reason: say why the entry is no longer valid');
  // The history keeps the reason and shows it: redacted like the entry's content.
  const reason = redactText(asked.trim()).text;
  await db.transaction(async (tx) => {
    await lockCuration(tx, projectId);
    const cur = await lockEntry(tx, projectId, entryId);
    if (cur.status === 'deprecated') throw new ConflictError('the entry is already deprecated');
    await newVersion(tx, projectId, entryId, 'deprecate', { status: 'deprecated' }, null, actor, reason);
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'entry.deprecate',
      subjectType: 'memory_entry',
      subjectId: entryId,
      detail: { reason },
    });
    await enqueueWebhooks(tx, projectId, 'entry.deprecated', [
      {
        entry: { id: entryId, content: cur.content, scope: cur.scope, kind: cur.kind, status: 'deprecated' },
        by: actor,
        reason,
      },
    ]);
  });
}
