import { z } from 'zod';
import { LIMITS } from '@/lib/ingest/contract';
import { recordsProcedure, router } from '@/server/trpc/init';
import { ingest } from '@/server/services/ingest';

/** The UI's way in: the same ingest service as POST /api/v1/ingest, for files a person drops in the browser. */
export const ingestRouter = router({
  batch: recordsProcedure
    .input(z.object({ records: z.array(z.unknown()).min(1).max(LIMITS.recordsPerBatch) }))
    .mutation(({ ctx, input }) =>
      ingest(
        ctx.db,
        ctx.projectId,
        input.records.map((value) => ({ ok: true as const, value })),
        ctx.actor,
      ),
    ),
});
