import { z } from 'zod';
import { createEntry, editEntry, linkEntries, LINK_RELATIONS } from '@/server/services/curation-edits';
import { readAs } from '@/server/services/curation-read-as';
import { adminProcedure, procedure, reviewerProcedure, router } from '@/server/trpc/init';
import { ENTRY_CONTENT_MAX, KINDS, SCOPES } from '@/lib/curation/pipeline';
import { readAsInputSchema } from '@/lib/curation/read-as';
import { curationPolicy, setCurationPolicy } from '@/server/services/curation';
import { decideProposal, deprecateEntry } from '@/server/services/curation-decisions';
import { judgeRetrieval, listRetrievals, retrievalDetail } from '@/server/services/curation-retrievals';
import { judgmentInputSchema } from '@/lib/curation/retrievals';
import {
  auditPage,
  batchReport,
  curationHealth,
  eventDays,
  entryDetail,
  inbox,
  listBatches,
  listEntries,
  listEvents,
  listRejectedEvents,
  proposalDetail,
  proposalStatuses,
} from '@/server/services/curation-views';

const scope = z.enum(SCOPES);
const kind = z.enum(KINDS);
const decision = z.object({
  action: z.enum(['approve', 'reject']),
  /** Approve a proposed merge as a separate entry instead (the reviewer judged the two to be different facts). */
  keepSeparate: z.boolean().optional(),
  /** Approve although an entry says the same already (written since it was proposed). */
  despiteDuplicate: z.boolean().optional(),
  reason: z.string().max(2000).optional(),
  edits: z
    .object({ content: z.string().max(ENTRY_CONTENT_MAX).optional(), scope: scope.optional(), kind: kind.optional() })
    .optional(),
});

/** A page of a list: `cursor` is the offset (TanStack infinite queries pass it), 100 rows by default. */
const pageInput = z.object({
  cursor: z.number().int().min(0).nullish(),
  limit: z.number().int().min(1).max(500).default(100),
});

/** A timestamp as PostgreSQL prints it (the server's `next`): anything else is refused here, not failed in SQL. */
const cursorTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/, 'not a cursor');

/**
 * A page of a list that grows while it is read: `cursor` is the last row shown (the server's `next`), so rows added or
 * decided between pages neither repeat nor go missing.
 */
const keysetInput = z.object({
  cursor: z.object({ at: cursorTime, eventId: z.string().max(500), id: z.uuid().optional() }).nullish(),
  limit: z.number().int().min(1).max(500).default(100),
});

export const curationRouter = router({
  inbox: procedure
    .input(
      z.object({
        status: z.enum(['pending', 'approved', 'rejected']).default('pending'),
        scope: z.string().nullish(),
        kind: z.string().nullish(),
        agent: z.string().nullish(),
        confidence: z.string().nullish(),
        ...keysetInput.shape,
      }),
    )
    .query(({ ctx, input }) => inbox(ctx.db, ctx.projectId, { ...input, after: input.cursor })),
  proposal: procedure
    .input(z.object({ id: z.uuid() }))
    .query(({ ctx, input }) => proposalDetail(ctx.db, ctx.projectId, input.id)),
  /** Where these proposals stand, by id (a browser checking the decisions it sent as its page closed). */
  statuses: procedure
    .input(z.object({ ids: z.array(z.uuid()).min(1).max(500) }))
    .query(({ ctx, input }) => proposalStatuses(ctx.db, ctx.projectId, input.ids)),
  decide: reviewerProcedure
    .input(z.object({ id: z.uuid(), decision }))
    .mutation(({ ctx, input }) => decideProposal(ctx.db, ctx.projectId, input.id, input.decision, ctx.actor)),
  /** Bulk approve or reject: each proposal in its own transaction; the answer says what happened to each. */
  decideMany: reviewerProcedure
    .input(
      z.object({
        ids: z.array(z.uuid()).min(1).max(500),
        decision: decision.omit({ edits: true, keepSeparate: true }),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const out: { id: string; ok: boolean; message?: string }[] = [];
      for (const id of input.ids) {
        try {
          await decideProposal(ctx.db, ctx.projectId, id, input.decision, ctx.actor);
          out.push({ id, ok: true });
        } catch (e) {
          out.push({ id, ok: false, message: e instanceof Error ? e.message : String(e) });
        }
      }
      return out;
    }),
  entries: procedure
    .input(
      z.object({
        scope: z.string().nullish(),
        status: z.string().nullish(),
        query: z.string().max(200).nullish(),
        ...pageInput.shape,
      }),
    )
    // The answer names the search it answers: while a newer one loads, the list still shows this one's rows.
    .query(async ({ ctx, input }) => ({
      ...(await listEntries(ctx.db, ctx.projectId, { ...input, offset: input.cursor ?? 0 })),
      query: input.query ?? '',
    })),
  /** What an agent with this user, team, project, repository and task reads, scope by scope (Curation → Read as). */
  readAs: procedure.input(readAsInputSchema).query(({ ctx, input }) => readAs(ctx.db, ctx.projectId, input)),
  entry: procedure
    .input(z.object({ id: z.uuid() }))
    .query(({ ctx, input }) => entryDetail(ctx.db, ctx.projectId, input.id)),
  /** A reviewer's own entry (append), edit (a new version with the reason) and link: see curation-edits.ts. */
  createEntry: reviewerProcedure
    .input(z.object({ scope, kind, content: z.string().max(ENTRY_CONTENT_MAX), note: z.string().max(2000).optional() }))
    .mutation(({ ctx, input }) => createEntry(ctx.db, ctx.projectId, input, ctx.actor)),
  editEntry: reviewerProcedure
    .input(
      z.object({
        id: z.uuid(),
        content: z.string().max(ENTRY_CONTENT_MAX).optional(),
        scope: scope.optional(),
        kind: kind.optional(),
        reason: z.string().max(2000),
        version: z.number().int().positive().optional(),
      }),
    )
    .mutation(({ ctx, input }) => editEntry(ctx.db, ctx.projectId, input.id, input, ctx.actor)),
  linkEntries: reviewerProcedure
    .input(z.object({ id: z.uuid(), otherId: z.uuid(), relation: z.enum(LINK_RELATIONS) }))
    .mutation(({ ctx, input }) => linkEntries(ctx.db, ctx.projectId, input, ctx.actor)),
  deprecate: reviewerProcedure
    .input(z.object({ id: z.uuid(), reason: z.string().max(2000) }))
    .mutation(({ ctx, input }) => deprecateEntry(ctx.db, ctx.projectId, input.id, input.reason, ctx.actor)),
  batches: procedure
    .input(pageInput)
    .query(({ ctx, input }) => listBatches(ctx.db, ctx.projectId, { offset: input.cursor ?? 0, limit: input.limit })),
  report: procedure
    .input(z.object({ batchId: z.uuid() }))
    .query(({ ctx, input }) => batchReport(ctx.db, ctx.projectId, input.batchId)),
  audit: procedure
    .input(
      z.object({
        action: z.string().nullish(),
        actor: z.string().nullish(),
        subject: z.string().nullish(),
        before: z.number().int().nullish(),
        limit: z.number().int().min(1).max(500).default(100),
      }),
    )
    .query(({ ctx, input }) => auditPage(ctx.db, ctx.projectId, input)),
  events: procedure
    .input(
      z.object({ kind: z.string().max(100).nullish(), focus: z.string().max(500).nullish(), ...keysetInput.shape }),
    )
    .query(({ ctx, input }) => listEvents(ctx.db, ctx.projectId, { ...input, after: input.cursor })),
  rejected: procedure
    .input(pageInput)
    .query(({ ctx, input }) =>
      listRejectedEvents(ctx.db, ctx.projectId, { offset: input.cursor ?? 0, limit: input.limit }),
    ),
  /** Agents' logged `search_memory` calls, newest first (Curation → Retrievals), keyset paged as events are. */
  retrievals: procedure
    .input(
      z.object({
        unlabelled: z.boolean().default(false),
        cursor: z.object({ at: cursorTime, id: z.uuid() }).nullish(),
        limit: z.number().int().min(1).max(500).default(100),
      }),
    )
    .query(({ ctx, input }) => listRetrievals(ctx.db, ctx.projectId, { ...input, after: input.cursor })),
  retrieval: procedure
    .input(z.object({ id: z.uuid() }))
    .query(({ ctx, input }) => retrievalDetail(ctx.db, ctx.projectId, input.id)),
  /** A reviewer's relevance label on an item of a logged search, or an item it missed (the inputs of M6). */
  judge: reviewerProcedure
    .input(judgmentInputSchema)
    .mutation(({ ctx, input }) => judgeRetrieval(ctx.db, ctx.projectId, input, ctx.actor)),
  health: procedure.query(({ ctx }) => curationHealth(ctx.db, ctx.projectId)),
  eventDays: procedure.query(({ ctx }) => eventDays(ctx.db, ctx.projectId)),
  policy: procedure.query(({ ctx }) => curationPolicy(ctx.db, ctx.projectId)),
  setPolicy: adminProcedure
    .input(
      z.object({
        approvalScopes: z.array(scope).optional(),
        dedupThreshold: z.number().min(0.5).max(1).optional(),
        conflictThreshold: z.number().min(0.3).max(1).optional(),
        demoteFrom: z.enum(['low', 'medium', 'high']).optional(),
      }),
    )
    .mutation(({ ctx, input }) => setCurationPolicy(ctx.db, ctx.projectId, input, ctx.actor)),
});
