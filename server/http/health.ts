import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ready } from '@/server/bootstrap';
import { MIGRATIONS_FOLDER, rowsOf } from '@/server/db';
import { serverEmbedder } from '@/server/services/embeddings';
import { shuttingDown, within } from '@/server/lifecycle';
import { errorReason } from '@/server/log';

const headers = { 'cache-control': 'no-store' };

/** GET /api/health: the process is up and serving. Touches nothing else, so it never fails for a slow database. */
export function healthGet(): Response {
  return Response.json({ status: 'ok' }, { headers });
}

const expectedMigrations = (() => {
  let n: number | null = null;
  return () =>
    (n ??= (
      JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
        entries: unknown[];
      }
    ).entries.length);
})();

/**
 * GET /api/ready: this instance can serve: start-up done, the database answers, every migration this build
 * ships is applied, the embedding model is loaded. 200, or 503 naming the check that failed; the reason is
 * logged, never sent.
 */
export async function readyGet(): Promise<Response> {
  const checks: Record<string, 'ok' | string> = { database: 'pending', migrations: 'pending', model: 'pending' };
  if (shuttingDown())
    return Response.json(
      { status: 'shutting down', checks },
      { status: 503, headers: { ...headers, 'retry-after': '5' } },
    );
  try {
    const { db } = await within(5000, 'start-up', ready());
    await within(2000, 'database', db.execute(sql`select 1`));
    checks.database = 'ok';
    const [row] = rowsOf<{ n: number }>(
      await within(2000, 'migrations', db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)),
    );
    const want = expectedMigrations();
    if (Number(row?.n) < want) throw new Error(`migrations: ${row?.n ?? 0} of ${want} applied`);
    checks.migrations = 'ok';
    await within(10_000, 'model', serverEmbedder());
    checks.model = 'ok';
    return Response.json({ status: 'ready', checks }, { headers });
  } catch (e) {
    const failed = Object.keys(checks).find((k) => checks[k] === 'pending')!;
    checks[failed] = 'failed';
    // The reason goes to the log only: this answer is unauthenticated and may reach anyone.
    console.error(`[mnemoscope] not ready (${failed}): ${errorReason(e)}`);
    return Response.json({ status: 'not ready', checks }, { status: 503, headers: { ...headers, 'retry-after': '5' } });
  }
}
