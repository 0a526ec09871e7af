import { z } from 'zod';
import { PAPER_DEFAULTS } from '@/lib/hygiene/deletion';
import { DEFAULT_MISALIGNMENT } from '@/lib/hygiene/records';
import { hygieneAgents, hygieneLab, proposeFromLab } from '@/server/services/hygiene';
import { procedure, reviewerProcedure, router } from '@/server/trpc/init';

const unit = z.number().min(0).max(1);
/** The lab's parameters; every one has the paper's value (or ours, said on screen) as default. */
export const labInput = z.object({
  agent: z.string().min(1).max(256),
  deletion: z
    .object({
      period: z.number().int().min(1).max(1_000_000).default(PAPER_DEFAULTS.period),
      alpha: z.number().int().min(0).max(1000).default(PAPER_DEFAULTS.alpha),
      n: z.number().int().min(0).max(1000).default(PAPER_DEFAULTS.n),
      beta: unit.default(PAPER_DEFAULTS.beta),
      capacity: z.number().int().min(1).max(1_000_000).default(PAPER_DEFAULTS.capacity),
    })
    .prefault({}),
  budget: z.number().int().min(1).max(100_000).default(16),
  misalignment: z
    .object({
      inputMin: unit.default(DEFAULT_MISALIGNMENT.inputMin),
      outputMax: unit.default(DEFAULT_MISALIGNMENT.outputMax),
      minHits: z.number().int().min(1).max(1000).default(DEFAULT_MISALIGNMENT.minHits),
    })
    .prefault({}),
  wrongBelow: unit.default(0.5),
});

export const hygieneRouter = router({
  agents: procedure.query(({ ctx }) => hygieneAgents(ctx.db, ctx.projectId)),
  lab: procedure.input(labInput).query(({ ctx, input }) => hygieneLab(ctx.db, ctx.projectId, input)),
  /** Raises a deprecation proposal for a record; a reviewer decides it in the inbox like any other. */
  propose: reviewerProcedure
    .input(labInput.extend({ record: z.string().min(1).max(256), policy: z.enum(['periodic', 'history', 'combined', 'capacity', 'misaligned', 'chain', 'manual']) }))
    .mutation(({ ctx, input }) => proposeFromLab(ctx.db, ctx.projectId, input, ctx.actor)),
});
