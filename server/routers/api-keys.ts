import { z } from 'zod';
import { adminProcedure, procedure, router } from '@/server/trpc/init';
import { KEY_NAME_MAX } from '@/lib/api/contract';
import { createKey, keyNames, listKeys, revokeKey } from '@/server/services/api-keys';

export const apiKeysRouter = router({
  list: adminProcedure.query(({ ctx }) => listKeys(ctx.db, ctx.projectId)),
  /** Keys' names and prefixes by the actor the logs record (no secret): for anyone who reads those logs. */
  names: procedure.query(({ ctx }) => keyNames(ctx.db, ctx.projectId)),
  create: adminProcedure
    .input(
      z.object({
        name: z.string().trim().min(1, 'name is required').max(KEY_NAME_MAX),
        role: z.enum(['agent', 'admin']).default('agent'),
      }),
    )
    .mutation(({ ctx, input }) => createKey(ctx.db, ctx.projectId, input.name, ctx.actor, input.role)),
  revoke: adminProcedure
    .input(z.object({ id: z.uuid() }))
    .mutation(({ ctx, input }) => revokeKey(ctx.db, ctx.projectId, input.id, ctx.actor)),
});
