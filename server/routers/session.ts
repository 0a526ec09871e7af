import { z } from 'zod';
import { procedure, router } from '@/server/trpc/init';
import { getSession, listArtifacts, listSessions, listTurns } from '@/server/services/sessions';

export const sessionRouter = router({
  list: procedure.query(({ ctx }) => listSessions(ctx.db, ctx.projectId)),
  byId: procedure.input(z.object({ id: z.string().min(1) })).query(({ ctx, input }) => getSession(ctx.db, ctx.projectId, input.id)),
  artifacts: procedure.input(z.object({ id: z.string().min(1) })).query(({ ctx, input }) => listArtifacts(ctx.db, ctx.projectId, input.id)),
  turns: procedure.input(z.object({ id: z.string().min(1) })).query(({ ctx, input }) => listTurns(ctx.db, ctx.projectId, input.id)),
});
