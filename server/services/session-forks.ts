import { and, asc, eq, sql } from 'drizzle-orm';
import { checkEditedCcs, type ForkOrigin } from '@/lib/ccs/fork';
import { rowsOf, type Db, type Tx } from '@/server/db';
import { auditLog } from '@/server/db/schema/projects';
import { sessions } from '@/server/db/schema/sessions';
import { ConflictError, InvalidInputError, NotFoundError } from './errors';
import { ingest } from './ingest';
import { sessionState } from './sessions';

/**
 * A fork: the CCS of a session at a turn, corrected by a reviewer, saved as a new session (linked to its parent and
 * turn in `metadata.forked_from`) whose one turn, numbered as the parent's, holds the corrected state. The agent
 * fetches it (`get_session_state`, `GET /api/v1/sessions/{id}/state`) and resumes from it, sending its next turns to
 * the fork. Written through ingest, so the fork is a session like any other (list figures, digest, export).
 */
export async function forkSession(
  db: Db,
  projectId: string,
  input: { id: string; turn: number; ccs: string; forkId?: string; note?: string },
  actor: string,
): Promise<{ id: string; turn: number; forkedFrom: ForkOrigin }> {
  // Two reviewers forking one session at once may pick the same free name: the second takes the next one.
  for (let attempt = 0; ; attempt++) {
    try {
      return await forkOnce(db, projectId, input, actor);
    } catch (e) {
      if (!(e instanceof ConflictError) || input.forkId?.trim() || attempt >= 3) throw e;
    }
  }
}

async function forkOnce(
  db: Db,
  projectId: string,
  input: { id: string; turn: number; ccs: string; forkId?: string; note?: string },
  actor: string,
) {
  const parent = await sessionState(db, projectId, input.id, input.turn);
  if (!parent) throw new NotFoundError('turn', `${input.id}/${input.turn}`);
  const { ccs, problems } = checkEditedCcs(input.ccs);
  if (problems.length) throw new InvalidInputError(`ccs: ${problems.join('; ')}`);
  const forkId = input.forkId?.trim() || (await freeForkId(db, projectId, input.id));
  const [taken] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.projectId, projectId), eq(sessions.id, forkId)));
  if (taken) throw new ConflictError(`a session named ${JSON.stringify(forkId)} exists already`);
  const origin: ForkOrigin = { session: input.id, turn: input.turn, by: actor, at: new Date().toISOString() };
  const [meta] = await db
    .select({ domain: sessions.domain, metadata: sessions.metadata })
    .from(sessions)
    .where(and(eq(sessions.projectId, projectId), eq(sessions.id, input.id)));
  const note = input.note?.trim();
  const summary = await ingest(
    db,
    projectId,
    [
      {
        ok: true,
        value: {
          type: 'session',
          data: {
            id: forkId,
            agent: parent.agent,
            title: `${parent.title ?? input.id} · fork at turn ${input.turn}`,
            ...(meta?.domain ? { domain: meta.domain } : {}),
            metadata: {},
          },
        },
      },
      {
        ok: true,
        value: {
          type: 'turn',
          data: {
            session_id: forkId,
            agent: parent.agent,
            turn: input.turn,
            input:
              note || `Forked from ${input.id} at turn ${input.turn} by ${actor}; the CCS below is the corrected one.`,
            output: '',
            // As the editor read it (every `name:` line a field), not re-read by the agents' TOON parser.
            ccs,
            timestamp: origin.at,
          },
        },
      },
    ],
    actor,
  );
  const refused = summary.results.find((r) => r.status !== 'accepted');
  if (refused)
    throw refused.status === 'rejected'
      ? new InvalidInputError(refused.errors.map((e) => `${e.path}: ${e.message}`).join('; '))
      : new ConflictError(`a session named ${JSON.stringify(forkId)} exists already`);
  // Set here, not through ingest (which drops `forked_from` from what agents send, so none can claim a fork).
  await db
    .update(sessions)
    .set({ metadata: sql`${sessions.metadata} || ${JSON.stringify({ forked_from: origin })}::jsonb` })
    .where(and(eq(sessions.projectId, projectId), eq(sessions.id, forkId)));
  await db.insert(auditLog).values({
    projectId,
    actor,
    action: 'session.fork',
    subjectType: 'session',
    subjectId: forkId,
    detail: { ...origin },
  });
  return { id: forkId, turn: input.turn, forkedFrom: origin };
}

/** `<parent>~fork-<n>`, the first n not taken. */
async function freeForkId(db: Tx, projectId: string, parent: string): Promise<string> {
  const base = `${parent.slice(0, 240)}~fork-`;
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`select id from sessions where project_id = ${projectId} and starts_with(id, ${base})`),
  );
  const used = new Set(rows.map((r) => r.id));
  let n = 1;
  while (used.has(`${base}${n}`)) n++;
  return `${base}${n}`;
}

/** The forks of a session, oldest first, with the turn each was taken at. */
export async function listForks(db: Tx, projectId: string, id: string) {
  return db
    .select({
      id: sessions.id,
      title: sessions.title,
      turn: sql<number>`(${sessions.metadata}->'forked_from'->>'turn')::int`,
      by: sql<string>`${sessions.metadata}->'forked_from'->>'by'`,
      at: sql<string>`${sessions.metadata}->'forked_from'->>'at'`,
    })
    .from(sessions)
    .where(and(eq(sessions.projectId, projectId), sql`${sessions.metadata}->'forked_from'->>'session' = ${id}`))
    .orderBy(asc(sessions.createdAt), asc(sessions.id));
}
