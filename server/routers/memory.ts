import { procedure, router } from '@/server/trpc/init';
import { listMemoryEvents } from '@/server/services/memory';

export const memoryRouter = router({
  events: procedure.query(({ ctx }) => listMemoryEvents(ctx.db, ctx.projectId)),
});
