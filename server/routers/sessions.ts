import { z } from 'zod';
import { procedure, reviewerProcedure, router } from '@/server/trpc/init';
import { forkSession, listForks } from '@/server/services/session-forks';
import {
  getSession,
  listArtifacts,
  listSessions,
  listTurns,
  pageSessions,
  turnPosition,
  artifactTurn,
} from '@/server/services/sessions';
import { SESSION_SORTS, type SessionSort } from '@/lib/sessions/list';
import { eventsInWindow } from '@/server/services/curation-views';
import { digestShape, sessionDigestJson, sessionStamp, windowBlame } from '@/server/services/session-digest';

export const sessionsRouter = router({
  list: procedure.query(({ ctx }) => listSessions(ctx.db, ctx.projectId)),
  /** One page of the list, searched and sorted by the database; `cursor` is the offset (infinite queries). */
  page: procedure
    .input(
      z.object({
        search: z.string().max(200).default(''),
        sort: z.enum(Object.keys(SESSION_SORTS) as [SessionSort, ...SessionSort[]]).default('recent'),
        cursor: z.number().int().min(0).nullish(),
        limit: z.number().int().min(1).max(500).default(100),
      }),
    )
    // The answer names the search it answers: while a newer one loads, the list still shows this one's rows.
    .query(async ({ ctx, input }) => ({
      ...(await pageSessions(ctx.db, ctx.projectId, {
        search: input.search,
        sort: input.sort,
        offset: input.cursor ?? 0,
        limit: input.limit,
      })),
      search: input.search,
    })),
  byId: procedure
    .input(z.object({ id: z.string().min(1) }))
    .query(({ ctx, input }) => getSession(ctx.db, ctx.projectId, input.id)),
  /** A reviewer's corrected CCS at a turn, saved as a new session for the agent to resume from. */
  fork: reviewerProcedure
    .input(
      z.object({
        id: z.string().min(1).max(256),
        turn: z.number().int().min(0),
        ccs: z.string().min(1).max(64_000),
        forkId: z.string().max(256).optional(),
        note: z.string().max(2000).optional(),
      }),
    )
    .mutation(({ ctx, input }) => forkSession(ctx.db, ctx.projectId, input, ctx.actor)),
  forks: procedure
    .input(z.object({ id: z.string().min(1) }))
    .query(({ ctx, input }) => listForks(ctx.db, ctx.projectId, input.id)),
  artifacts: procedure
    .input(z.object({ id: z.string().min(1) }))
    .query(({ ctx, input }) => listArtifacts(ctx.db, ctx.projectId, input.id)),
  /** The session's digest (lib/ccs/digest.ts) as JSON text: its size does not grow with the session. */
  digest: procedure
    .input(z.object({ id: z.string().min(1) }))
    .query(({ ctx, input }) => sessionDigestJson(ctx.db, ctx.projectId, input.id)),
  /** The stored digest's shape (alert counts, series with values): how the replay lays out before the digest comes. */
  shape: procedure
    .input(z.object({ id: z.string().min(1) }))
    .query(({ ctx, input }) => digestShape(ctx.db, ctx.projectId, input.id)),
  /** The position of a turn in its session (as `indexOfTurnInRuns`): where a link to `?turn=` opens. */
  position: procedure
    .input(z.object({ id: z.string().min(1), turn: z.number() }))
    .query(({ ctx, input }) => turnPosition(ctx.db, ctx.projectId, input.id, input.turn)),
  /** Where a link to one of the session's artifacts opens: the first turn that recalled it. */
  artifactTurn: procedure
    .input(z.object({ id: z.string().min(1), artifact: z.string().min(1) }))
    .query(({ ctx, input }) => artifactTurn(ctx.db, ctx.projectId, input.id, input.artifact)),
  /** A few bytes that change whenever the digest does: what an open replay page polls. */
  stamp: procedure
    .input(z.object({ id: z.string().min(1) }))
    .query(({ ctx, input }) => sessionStamp(ctx.db, ctx.projectId, input.id)),
  /** Where the terms of a window of turns came from (by position, like `window`). */
  blame: procedure
    .input(
      z.object({ id: z.string().min(1), offset: z.number().int().min(0), limit: z.number().int().min(1).max(500) }),
    )
    .query(({ ctx, input }) => windowBlame(ctx.db, ctx.projectId, input.id, input.offset, input.limit)),
  /** Full turns by position: the replay fetches them in windows around the playhead. */
  window: procedure
    .input(
      z.object({ id: z.string().min(1), offset: z.number().int().min(0), limit: z.number().int().min(1).max(500) }),
    )
    .query(({ ctx, input }) =>
      listTurns(ctx.db, ctx.projectId, input.id, { offset: input.offset, limit: input.limit }),
    ),
  /** The memory events emitted at a window's turns (by position, as `window`), with what became of each. */
  events: procedure
    .input(
      z.object({ id: z.string().min(1), offset: z.number().int().min(0), limit: z.number().int().min(1).max(500) }),
    )
    .query(({ ctx, input }) => eventsInWindow(ctx.db, ctx.projectId, input.id, input.offset, input.limit)),
  turns: procedure
    .input(z.object({ id: z.string().min(1) }))
    .query(({ ctx, input }) => listTurns(ctx.db, ctx.projectId, input.id)),
});
