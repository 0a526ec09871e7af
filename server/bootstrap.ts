import { getDbHandle, type DbHandle } from '@/server/db';
import { env } from '@/server/env';
import { DEFAULT_PROJECT, ensureProject, getProject, setProjectSetting } from '@/server/services/projects';
import { provisionKey } from '@/server/services/api-keys';
import { ensureAdmin, userCount } from '@/server/services/auth';
import { seedDemo } from '@/server/demo/seed';
import { curateBacklog } from '@/server/services/curation';
import { startWebhookWorker } from '@/server/services/webhooks';
import { startPendingSweeper } from '@/server/services/otel-pending';
import { startRetrievalSweeper } from '@/server/services/curation-retrievals';
import { startVectorSweeper } from '@/server/services/text-vectors';
import { serverModelId } from '@/server/services/embeddings';
import { errorReason, job, log } from '@/server/log';

const g = globalThis as unknown as { __mnemoscopeReady?: Promise<DbHandle> };

/**
 * Opens and migrates the database, makes the default project, provisions MNEMOSCOPE_API_KEY and,
 * on the first start with an empty database, loads the demo through the ingest path; curates memory
 * events an earlier stop left uncurated; starts sending webhook deliveries, sweeping waiting trace spans and
 * deleting old logged searches and unneeded stored vectors. Once per process.
 */
export function ready(): Promise<DbHandle> {
  if (!g.__mnemoscopeReady) {
    g.__mnemoscopeReady = (async () => {
      const e = env();
      const handle = await getDbHandle();
      const { db } = handle;
      await ensureProject(db);
      if (e.MNEMOSCOPE_AUTH === 'users') {
        if (e.MNEMOSCOPE_ADMIN_USER && e.MNEMOSCOPE_ADMIN_PASSWORD)
          await ensureAdmin(db, DEFAULT_PROJECT, e.MNEMOSCOPE_ADMIN_USER, e.MNEMOSCOPE_ADMIN_PASSWORD);
        else if (!(await userCount(db)))
          throw new Error(
            'MNEMOSCOPE_AUTH=users but no user exists: set MNEMOSCOPE_ADMIN_USER and MNEMOSCOPE_ADMIN_PASSWORD ' +
              '(12+ characters) to create the first admin',
          );
      }
      if (e.MNEMOSCOPE_API_KEY) await provisionKey(db, DEFAULT_PROJECT, e.MNEMOSCOPE_API_KEY);
      const project = await getProject(db, DEFAULT_PROJECT);
      if (e.MNEMOSCOPE_DEMO === '1' && !project?.settings.demoLoadedAt)
        await job('demo-seed', async () => {
          const summary = await seedDemo(db, DEFAULT_PROJECT);
          await setProjectSetting(db, DEFAULT_PROJECT, 'demoLoadedAt', new Date().toISOString());
          return { project: DEFAULT_PROJECT, accepted: summary.accepted };
        });
      // Events stored by a batch whose curation never ran (a crash between the two) are curated now.
      await job('curation-backlog', async () => ({
        project: DEFAULT_PROJECT,
        events: (await curateBacklog(db, DEFAULT_PROJECT))?.events ?? 0,
      })).catch(() => null);
      // Webhook calls decided on any instance are sent by whichever instance claims them first.
      startWebhookWorker(handle);
      // Trace spans still waiting for their turn are placed by whichever instance sweeps first.
      startPendingSweeper(db);
      // Agents' logged searches older than 90 days go, whether or not the project still searches.
      startRetrievalSweeper(db);
      // Stored vectors of texts no entry or artifact has any more, and of a model replaced a week ago.
      startVectorSweeper(db, serverModelId);
      log.info({ event: 'database', driver: handle.driver, location: handle.location }, 'database ready');
      return handle;
    })();
    g.__mnemoscopeReady.catch((err) => {
      console.error(`[mnemoscope] start-up failed: ${errorReason(err)}`);
      g.__mnemoscopeReady = undefined;
    });
  }
  return g.__mnemoscopeReady;
}
