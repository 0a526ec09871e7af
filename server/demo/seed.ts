import path from 'node:path';
import type { Db } from '@/server/db';
import { demoSessions } from '@/server/demo/generate';
import { demoMemoryEvents } from '@/server/demo/events';
import { hygieneDemo } from '@/server/demo/hygiene';
import { convertFiles } from '@/lib/import/files';
import type { Envelope } from '@/lib/ingest/contract';
import { readTree } from '@/server/fs/read-tree';
import { ingest } from '@/server/services/ingest';

export const DEMO_DIR = path.join(process.cwd(), 'server', 'demo');

/** Everything the demo loads, as envelopes: three ACC sessions, curator events, the UCS workspace fixture. */
export function demoEnvelopes(): Envelope[] {
  const fixtures = convertFiles(readTree(path.join(DEMO_DIR, 'curator')));
  const ucs = convertFiles(readTree(path.join(DEMO_DIR, 'ucs-workspace')));
  const errors = [...fixtures.errors, ...ucs.errors];
  if (errors.length)
    throw new Error(`demo fixtures did not convert: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return [
    ...demoSessions(),
    ...hygieneDemo(),
    ...demoMemoryEvents(),
    ...fixtures.files.flatMap((f) => f.envelopes),
    ...ucs.files.flatMap((f) => f.envelopes),
  ];
}

/** Loads the demo through the ingest path, in batches as a client would send them. */
export async function seedDemo(db: Db, projectId: string) {
  const envelopes = demoEnvelopes();
  let accepted = 0;
  let rejected = 0;
  for (let i = 0; i < envelopes.length; i += 200) {
    const r = await ingest(
      db,
      projectId,
      envelopes.slice(i, i + 200).map((value) => ({ ok: true as const, value })),
      'demo',
    );
    accepted += r.accepted;
    rejected += r.rejected;
    if (r.rejected) {
      const bad = r.results.filter((x) => x.status === 'rejected');
      throw new Error(`demo data was rejected: ${JSON.stringify(bad.slice(0, 3))}`);
    }
  }
  return { accepted, rejected };
}
