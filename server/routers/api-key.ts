import { z } from 'zod';
import { procedure, router } from '@/server/trpc/init';
import { createKey, listKeys, revokeKey } from '@/server/services/api-keys';

export const apiKeyRouter = router({
  list: procedure.query(({ ctx }) => listKeys(ctx.db, ctx.projectId)),
  create: procedure
    .input(z.object({ name: z.string().trim().min(1, 'name is required').max(100) }))
    .mutation(({ ctx, input }) => createKey(ctx.db, ctx.projectId, input.name, ctx.actor)),
  revoke: procedure.input(z.object({ id: z.uuid() })).mutation(({ ctx, input }) => revokeKey(ctx.db, ctx.projectId, input.id, ctx.actor)),
});
