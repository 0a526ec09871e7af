import { router } from '@/server/trpc/init';
import { annotationsRouter } from './annotations';
import { apiKeysRouter } from './api-keys';
import { hygieneRouter } from './hygiene';
import { ingestRouter } from './ingest';
import { recallRouter } from './recall';
import { curationRouter } from './curation';
import { membersRouter } from './members';
import { sessionsRouter } from './sessions';
import { systemRouter } from './system';
import { substrateRouter } from './substrate';
import { webhooksRouter } from './webhooks';

export const appRouter = router({
  annotations: annotationsRouter,
  apiKeys: apiKeysRouter,
  hygiene: hygieneRouter,
  ingest: ingestRouter,
  recall: recallRouter,
  curation: curationRouter,
  members: membersRouter,
  sessions: sessionsRouter,
  system: systemRouter,
  substrate: substrateRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
