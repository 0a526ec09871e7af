import { z } from 'zod';
import { procedure, router } from '@/server/trpc/init';
import { corpusPage, corpusVersion } from '@/server/services/recall';

const cursor = z.object({ kind: z.string().max(40), after: z.array(z.string()).nullable() }).nullable();

export const recallRouter = router({
  /** One page of the project's memory text for the browser's recall index. */
  corpus: procedure
    .input(z.object({ cursor, limit: z.number().int().min(100).max(20000).default(5000) }))
    .query(({ ctx, input }) => corpusPage(ctx.db, ctx.projectId, input.cursor, input.limit)),
  /** Changes when the corpus may have changed. */
  version: procedure.query(({ ctx }) => corpusVersion(ctx.db, ctx.projectId)),
});
