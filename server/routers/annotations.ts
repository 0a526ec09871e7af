import { z } from 'zod';
import { missingTargets } from '@/server/services/annotations-ingest';
import { adminProcedure, procedure, reviewerProcedure, router } from '@/server/trpc/init';
import { annotationFilterSchema, scoreDefinitionSchema } from '@/lib/annotations/contract';
import { ANNOTATION_TARGETS, COMMENT_MAX } from '@/lib/ingest/contract';
import {
  annotate,
  annotatedTurns,
  annotationCounts,
  defineScore,
  listAnnotations,
  listScoreDefinitions,
  removeAnnotation,
  removeScoreDefinition,
} from '@/server/services/annotations';

const ref = z.string().min(1).max(256);

/** The list's place: the last row shown, as the server gave it (`next`); anything else is refused here. */
const cursor = z
  .object({
    at: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/, 'not a cursor'),
    id: ref,
  })
  .nullish();

/** What a person sends from the player, the inbox or an entry; the id, author and time are the server's. */
const annotationInput = z.object({
  target: z.enum(ANNOTATION_TARGETS),
  session_id: ref.optional(),
  turn: z.number().int().nonnegative().optional(),
  field: z.string().min(1).max(64).optional(),
  term: z.string().min(1).max(2000).optional(),
  artifact_id: ref.optional(),
  proposal_id: ref.optional(),
  entry_id: ref.optional(),
  name: z.string().max(64).optional(),
  value: z.union([z.number(), z.boolean(), z.string()]).optional(),
  comment: z.string().max(COMMENT_MAX).optional(),
});

export const annotationsRouter = router({
  list: procedure
    .input(annotationFilterSchema.extend({ cursor, limit: z.number().int().min(1).max(500).default(100) }))
    .query(async ({ ctx, input }) => {
      const page = await listAnnotations(ctx.db, ctx.projectId, { ...input, after: input.cursor });
      // An annotation may name a target not stored (yet): the list says so rather than link to nothing.
      const missing = await missingTargets(ctx.db, ctx.projectId, page.items);
      return { ...page, items: page.items.map((a, k) => ({ ...a, missing: missing[k]?.message ?? null })) };
    }),
  /** Per turn of a session, how many annotations it has: the marks on the replay timeline. */
  turns: procedure
    .input(z.object({ sessionId: ref }))
    .query(({ ctx, input }) => annotatedTurns(ctx.db, ctx.projectId, input.sessionId)),
  counts: procedure
    .input(z.object({ target: z.enum(['proposal', 'entry']), ids: z.array(ref).max(500) }))
    .query(({ ctx, input }) => annotationCounts(ctx.db, ctx.projectId, input.target, input.ids)),
  create: reviewerProcedure
    .input(annotationInput)
    .mutation(({ ctx, input }) => annotate(ctx.db, ctx.projectId, input, ctx.actor)),
  remove: reviewerProcedure
    .input(z.object({ id: ref }))
    .mutation(({ ctx, input }) => removeAnnotation(ctx.db, ctx.projectId, input.id, ctx.actor, ctx.role === 'admin')),
  scores: procedure.query(({ ctx }) => listScoreDefinitions(ctx.db, ctx.projectId)),
  defineScore: adminProcedure
    .input(scoreDefinitionSchema)
    .mutation(({ ctx, input }) => defineScore(ctx.db, ctx.projectId, input, ctx.actor)),
  removeScore: adminProcedure
    .input(z.object({ name: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => removeScoreDefinition(ctx.db, ctx.projectId, input.name, ctx.actor)),
});
