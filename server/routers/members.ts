import { z } from 'zod';
import { adminProcedure, router } from '@/server/trpc/init';
import { listMembers, removeMember, ROLES, setMember } from '@/server/services/auth';

/** Who may open this project, and as what (users mode). */
export const membersRouter = router({
  list: adminProcedure.query(({ ctx }) => listMembers(ctx.db, ctx.projectId)),
  set: adminProcedure
    .input(
      z.object({
        username: z.string().trim().min(2).max(64),
        role: z.enum(ROLES as [string, ...string[]]),
        password: z.string().max(200).nullish(),
      }),
    )
    .mutation(({ ctx, input }) =>
      setMember(
        ctx.db,
        ctx.projectId,
        input.username,
        input.role as (typeof ROLES)[number],
        input.password ?? null,
        ctx.actor,
      ),
    ),
  remove: adminProcedure
    .input(z.object({ username: z.string().trim().min(2).max(64) }))
    .mutation(({ ctx, input }) => removeMember(ctx.db, ctx.projectId, input.username, ctx.actor)),
});
