import { z } from 'zod';
import { procedure, router } from '@/server/trpc/init';
import {
  consultSamples,
  fieldSeries,
  judgment,
  listFieldArtifacts,
  listDeadEnds,
  listSnapshots,
  listSubstrateAgents,
  routingState,
} from '@/server/services/substrate';

const agent = z.string().min(1).max(256);

export const substrateRouter = router({
  agents: procedure.query(({ ctx }) => listSubstrateAgents(ctx.db, ctx.projectId)),
  snapshots: procedure
    .input(z.object({ agent }))
    .query(({ ctx, input }) => listSnapshots(ctx.db, ctx.projectId, input.agent)),
  routing: procedure
    .input(z.object({ agent, t: z.number().int() }))
    .query(({ ctx, input }) => routingState(ctx.db, ctx.projectId, input.agent, input.t)),
  fieldArtifacts: procedure
    .input(z.object({ agent }))
    .query(({ ctx, input }) => listFieldArtifacts(ctx.db, ctx.projectId, input.agent)),
  judgment: procedure
    .input(z.object({ agent }))
    .query(({ ctx, input }) => judgment(ctx.db, ctx.projectId, input.agent)),
  consultSamples: procedure
    .input(z.object({ agent }))
    .query(({ ctx, input }) => consultSamples(ctx.db, ctx.projectId, input.agent)),
  deadEnds: procedure
    .input(z.object({ agent }))
    .query(({ ctx, input }) => listDeadEnds(ctx.db, ctx.projectId, input.agent)),
  fieldSeries: procedure
    .input(z.object({ agent, field: z.string().min(1).max(64) }))
    .query(({ ctx, input }) => fieldSeries(ctx.db, ctx.projectId, input.agent, input.field)),
});
