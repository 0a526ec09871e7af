import { z } from 'zod';
import { procedure, router } from '@/server/trpc/init';
import { keywordSearch } from '@/server/services/search';

export const recallRouter = router({
  keyword: procedure.input(z.object({ query: z.string().max(200) })).query(({ ctx, input }) => keywordSearch(ctx.db, ctx.projectId, input.query)),
});
