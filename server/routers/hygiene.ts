import { z } from 'zod';
import { labInput, PROPOSAL_POLICIES } from '@/lib/hygiene/contract';
import { hygieneAgents, hygieneLab, pendingDeprecations, proposeFromLab } from '@/server/services/hygiene';
import { procedure, reviewerProcedure, router } from '@/server/trpc/init';

export const hygieneRouter = router({
  agents: procedure.query(({ ctx }) => hygieneAgents(ctx.db, ctx.projectId)),
  lab: procedure.input(labInput).query(({ ctx, input }) => hygieneLab(ctx.db, ctx.projectId, input)),
  /** Memory items with a deprecation waiting for review, and its proposal. */
  pending: procedure.query(({ ctx }) => pendingDeprecations(ctx.db, ctx.projectId)),
  /** Raises a deprecation proposal for a memory item; a reviewer decides it in the inbox like any other. */
  propose: reviewerProcedure
    .input(labInput.extend({ item: z.string().min(1).max(256), policy: z.enum(PROPOSAL_POLICIES) }))
    .mutation(({ ctx, input }) => proposeFromLab(ctx.db, ctx.projectId, input, ctx.actor)),
});
