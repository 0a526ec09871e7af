import { router } from '@/server/trpc/init';
import { apiKeyRouter } from './api-key';
import { hygieneRouter } from './hygiene';
import { ingestRouter } from './ingest';
import { memoryRouter } from './memory';
import { recallRouter } from './recall';
import { curationRouter } from './curation';
import { membersRouter } from './members';
import { sessionRouter } from './session';
import { systemRouter } from './system';
import { ucsRouter } from './ucs';

export const appRouter = router({
  apiKey: apiKeyRouter,
  hygiene: hygieneRouter,
  ingest: ingestRouter,
  memory: memoryRouter,
  recall: recallRouter,
  curation: curationRouter,
  members: membersRouter,
  session: sessionRouter,
  system: systemRouter,
  ucs: ucsRouter,
});

export type AppRouter = typeof appRouter;
