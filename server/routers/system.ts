import { procedure, router } from '@/server/trpc/init';
import { projectCounts, storageCounts } from '@/server/services/system';

export const systemRouter = router({
  info: procedure.query(async ({ ctx }) => ({
    driver: ctx.driver,
    // Where the data lives is the deployment's business: admins see it (password masked), others do not.
    location: ctx.role === 'admin' ? ctx.location : null,
    projectId: ctx.projectId,
    counts: await projectCounts(ctx.db, ctx.projectId),
    /** Who is asking: the mode, and in users mode the person, their role here and their projects. */
    auth: {
      mode: ctx.mode ?? 'local',
      role: ctx.role,
      username: ctx.user?.username ?? null,
      projects: ctx.user?.projects ?? [],
    },
  })),
  /** What the project stores (Settings): counts the app shell does not ask for on every page. */
  storage: procedure.query(({ ctx }) => storageCounts(ctx.db, ctx.projectId)),
});
