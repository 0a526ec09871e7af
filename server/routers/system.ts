import { procedure, router } from '@/server/trpc/init';
import { projectCounts } from '@/server/services/overview';

export const systemRouter = router({
  info: procedure.query(async ({ ctx }) => ({
    driver: ctx.driver,
    location: ctx.location,
    projectId: ctx.projectId,
    counts: await projectCounts(ctx.db, ctx.projectId),
  })),
});
