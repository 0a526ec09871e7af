import { procedure, router } from '@/server/trpc/init';
import { listUcsAgents } from '@/server/services/ucs';

export const ucsRouter = router({
  agents: procedure.query(({ ctx }) => listUcsAgents(ctx.db, ctx.projectId)),
});
