import { z } from 'zod';
import { procedure, router } from '@/server/trpc/init';
import {
  bridgeIndex,
  consultContexts,
  consultSamples,
  fieldSeries,
  judgment,
  listFieldArtifacts,
  listDeadEnds,
  listSnapshots,
  listSubstrateAgents,
  substrateAgentKnown,
  substrateAudit,
  substrateState,
} from '@/server/services/substrate';

const agent = z.string().min(1).max(256);

export const substrateRouter = router({
  agents: procedure.query(({ ctx }) => listSubstrateAgents(ctx.db, ctx.projectId)),
  /** Whether anything of the agent's substrate is stored (its pages are "not found" otherwise). */
  known: procedure
    .input(z.object({ agent }))
    .query(({ ctx, input }) => substrateAgentKnown(ctx.db, ctx.projectId, input.agent)),
  snapshots: procedure
    .input(z.object({ agent }))
    .query(({ ctx, input }) => listSnapshots(ctx.db, ctx.projectId, input.agent)),
  /** One stored state whole (the latest without t): what the consult and the simulation run on. */
  state: procedure
    .input(z.object({ agent, t: z.number().int().optional() }))
    .query(({ ctx, input }) => substrateState(ctx.db, ctx.projectId, input.agent, input.t)),
  /** What the bridge reads from its index: dead ends in order, methodology, report counter. */
  bridgeIndex: procedure
    .input(z.object({ agent }))
    .query(({ ctx, input }) => bridgeIndex(ctx.db, ctx.projectId, input.agent)),
  /** Contexts to consult with: the stored consult samples' and the judgment nodes' tasks. */
  contexts: procedure
    .input(z.object({ agent }))
    .query(({ ctx, input }) => consultContexts(ctx.db, ctx.projectId, input.agent)),
  audit: procedure
    .input(z.object({ agent }))
    .query(({ ctx, input }) => substrateAudit(ctx.db, ctx.projectId, input.agent)),
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
