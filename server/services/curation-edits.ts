import { and, eq } from 'drizzle-orm';
import type { Db } from '@/server/db';
import { auditLog } from '@/server/db/schema/projects';
import { memoryEntryLinks } from '@/server/db/schema/curation';
import type { Kind, Scope } from '@/lib/curation/pipeline';
import { redactText } from '@/lib/redact/redact';
import { lockCuration } from './curation-index';
import { applyOperation, lockEntry, newVersion } from './curation-writes';
import { ConflictError, InvalidInputError } from './errors';

/**
 * A reviewer's own writes to memory (like editing memory in Letta's ADE or Mem0), through the write operations the
 * curator uses: an append, an update that keeps the history, a link. Each under the curation lock (so the entry
 * index stays in step), audited with the reviewer as author and the reason given. Secrets in the text are redacted
 * first, as in everything agents send.
 */

export const LINK_RELATIONS = ['related_to', 'supports', 'contradicts', 'supersedes'] as const;
export type LinkRelation = (typeof LINK_RELATIONS)[number];

function clean(content: string): { text: string; redacted: number } {
  const text = content.trim();
  if (!text) throw new InvalidInputError('content: must not be empty');
  if (text.length > 4000) throw new InvalidInputError('content: must be at most 4000 characters');
  const r = redactText(text);
  return { text: r.text, redacted: r.findings.length };
}

/** A new entry written by a person: version 1, operation `append`, no source event. */
export async function createEntry(
  db: Db,
  projectId: string,
  input: { scope: Scope; kind: Kind; content: string; note?: string },
  actor: string,
): Promise<{ id: string; redacted: number }> {
  // Those two kinds are about other entries, which a plain new entry cannot name.
  if (input.kind === 'deprecation' || input.kind === 'conflict') {
    const way = input.kind === 'deprecation' ? 'deprecating the entry' : 'linking the two entries (contradicts)';
    throw new InvalidInputError(`kind: a ${input.kind} is written by ${way}, which names the entries it is about`);
  }
  const { text, redacted } = clean(input.content);
  return db.transaction(async (tx) => {
    await lockCuration(tx, projectId);
    const id = (await applyOperation(
      tx,
      projectId,
      'append',
      { scope: input.scope, kind: input.kind, content: text, eventId: null, targetEntryId: null, conflictsWith: [] },
      actor,
    ))!;
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'entry.create',
      subjectType: 'memory_entry',
      subjectId: id,
      detail: {
        scope: input.scope,
        kind: input.kind,
        note: input.note?.trim() ? redactText(input.note.trim()).text : null,
        redacted,
      },
    });
    return { id, redacted };
  });
}

/**
 * A person's edit of an entry: a new version (operation `update`) with the reason as its note. Only the fields that
 * changed are recorded as edited; an edit that changes nothing, or an edit of a deprecated entry, is refused.
 */
export async function editEntry(
  db: Db,
  projectId: string,
  id: string,
  input: { content?: string; scope?: Scope; kind?: Kind; reason: string; version?: number },
  actor: string,
): Promise<{ version: number; edited: string[] }> {
  if (!input.reason.trim()) throw new InvalidInputError('reason: say why the entry changes (the history keeps it)');
  // The reason is memory text too (the version history shows it): redacted like the content.
  const reason = redactText(input.reason.trim()).text;
  const content = input.content === undefined ? undefined : clean(input.content).text;
  return db.transaction(async (tx) => {
    await lockCuration(tx, projectId);
    const cur = await lockEntry(tx, projectId, id);
    if (cur.status === 'deprecated') throw new ConflictError('the entry is deprecated: write a new one instead');
    // Someone else's edit landed since the reviewer opened it: theirs is not overwritten unseen.
    if (input.version !== undefined && input.version !== cur.version)
      throw new ConflictError(`the entry changed meanwhile (now version ${cur.version}); reload it and edit again`);
    const change = {
      ...(content !== undefined && content !== cur.content ? { content } : {}),
      ...(input.scope && input.scope !== cur.scope ? { scope: input.scope } : {}),
      ...(input.kind && input.kind !== cur.kind ? { kind: input.kind } : {}),
    };
    const edited = Object.keys(change);
    if (!edited.length) throw new InvalidInputError('nothing changed: edit the content, the scope or the kind');
    await newVersion(tx, projectId, id, 'update', change, null, actor, reason);
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'entry.edit',
      subjectType: 'memory_entry',
      subjectId: id,
      detail: { edited, reason, version: cur.version + 1 },
    });
    return { version: cur.version + 1, edited };
  });
}

/** Links two entries (both directions for a symmetric relation); linking twice is refused. */
export async function linkEntries(
  db: Db,
  projectId: string,
  input: { id: string; otherId: string; relation: LinkRelation },
  actor: string,
) {
  if (input.id === input.otherId) throw new InvalidInputError('otherId: an entry is not linked to itself');
  await db.transaction(async (tx) => {
    await lockCuration(tx, projectId);
    await lockEntry(tx, projectId, input.id);
    await lockEntry(tx, projectId, input.otherId);
    const symmetric = input.relation === 'related_to' || input.relation === 'contradicts';
    const rows = [
      { projectId, entryId: input.id, otherId: input.otherId, relation: input.relation },
      ...(symmetric ? [{ projectId, entryId: input.otherId, otherId: input.id, relation: input.relation }] : []),
    ];
    const added = await tx
      .insert(memoryEntryLinks)
      .values(rows)
      .onConflictDoNothing()
      .returning({ entryId: memoryEntryLinks.entryId });
    if (!added.length) throw new ConflictError(`the entries are already linked (${input.relation})`);
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'entry.link',
      subjectType: 'memory_entry',
      subjectId: input.id,
      detail: { otherId: input.otherId, relation: input.relation },
    });
  });
  return db
    .select({ otherId: memoryEntryLinks.otherId, relation: memoryEntryLinks.relation })
    .from(memoryEntryLinks)
    .where(and(eq(memoryEntryLinks.projectId, projectId), eq(memoryEntryLinks.entryId, input.id)));
}
