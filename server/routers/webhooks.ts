import { z } from 'zod';
import { adminProcedure, router } from '@/server/trpc/init';
import { WEBHOOK_EVENTS } from '@/lib/webhooks/contract';
import {
  createWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  removeWebhook,
  setWebhookEnabled,
  webhookSecret,
} from '@/server/services/webhooks';

/** Webhooks carry a secret and announce decisions to other systems: admins only. */
export const webhooksRouter = router({
  list: adminProcedure.query(({ ctx }) => listWebhooks(ctx.db, ctx.projectId)),
  secret: adminProcedure
    .input(z.object({ id: z.uuid() }))
    .query(({ ctx, input }) => webhookSecret(ctx.db, ctx.projectId, input.id)),
  create: adminProcedure
    .input(
      z.object({
        url: z.string().trim().min(1, 'url is required').max(2000, 'url is longer than 2,000 characters'),
        events: z.array(z.enum(WEBHOOK_EVENTS)),
      }),
    )
    .mutation(({ ctx, input }) => createWebhook(ctx.db, ctx.projectId, input, ctx.actor)),
  setEnabled: adminProcedure
    .input(z.object({ id: z.uuid(), enabled: z.boolean() }))
    .mutation(({ ctx, input }) => setWebhookEnabled(ctx.db, ctx.projectId, input.id, input.enabled, ctx.actor)),
  remove: adminProcedure
    .input(z.object({ id: z.uuid() }))
    .mutation(({ ctx, input }) => removeWebhook(ctx.db, ctx.projectId, input.id, ctx.actor)),
  deliveries: adminProcedure
    .input(z.object({ webhookId: z.uuid().nullish(), limit: z.number().int().min(1).max(200).default(50) }))
    .query(({ ctx, input }) => listDeliveries(ctx.db, ctx.projectId, input)),
  redeliver: adminProcedure
    .input(z.object({ id: z.uuid() }))
    .mutation(({ ctx, input }) => redeliver(ctx.db, ctx.projectId, input.id, ctx.actor)),
});
