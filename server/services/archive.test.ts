import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { rowsOf, type DbHandle } from '@/server/db';
import { proposals } from '@/server/db/schema/curation';
import { freshDb } from '@/server/test/db';
import { exportProject, importProject, tableCounts } from './archive';
import { decideProposal, deprecateEntry } from './curation-decisions';
import { seedDemo } from '@/server/demo/seed';

async function exportLines(h: DbHandle, project = 'default'): Promise<string[]> {
  const lines: string[] = [];
  await exportProject(h.db, project, (l) => void lines.push(l));
  return lines;
}
/** The file without the moment it was made. */
const comparable = (lines: string[]) => [
  JSON.stringify({ ...JSON.parse(lines[0]!), exported_at: null }),
  ...lines.slice(1),
];

describe.each([
  ['pglite', 'postgres'],
  ['postgres', 'pglite'],
] as const)('project export from %s, import into %s', (from, to) => {
  let a: DbHandle;
  let b: DbHandle;
  let file: string[];
  beforeAll(async () => {
    [a, b] = await Promise.all([freshDb(from), freshDb(to)]);
    await seedDemo(a.db, 'default');
    // Decisions, versions, links and audit records: the parts a plain ingest does not make.
    const pending = await a.db
      .select({ id: proposals.id })
      .from(proposals)
      .where(and(eq(proposals.projectId, 'default'), eq(proposals.status, 'pending')));
    await decideProposal(
      a.db,
      'default',
      pending[0]!.id,
      { action: 'approve', edits: { content: 'Edited before approval: keep the nginx upstream keepalive at 64.' } },
      'alice',
    );
    await decideProposal(a.db, 'default', pending[1]!.id, { action: 'reject', reason: 'not durable' }, 'bob');
    const [entry] = rowsOf<{ id: string }>(
      await a.db.execute(
        sql`select id from memory_entries
             where project_id = 'default' and status = 'active' order by created_at limit 1`,
      ),
    );
    await deprecateEntry(a.db, 'default', entry!.id, 'superseded by the runbook', 'alice');
    file = await exportLines(a);
  }, 240_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('exports every project table with a header, one line a row, and an end marker', () => {
    const header = JSON.parse(file[0]!);
    expect(header).toMatchObject({ format: 'mnemoscope-project', version: 1, project: { id: 'default' } });
    expect(header.schema).toBeGreaterThanOrEqual(4);
    for (const t of [
      'sessions',
      'turns',
      'artifacts',
      'memory_events',
      'memory_entries',
      'memory_entry_versions',
      'proposals',
      'curation_outcomes',
      'audit_log',
      'ucs_snapshots',
      'ucs_dead_ends',
    ])
      expect(header.tables[t], t).toBeGreaterThan(0);
    const total = Object.values(header.tables as Record<string, number>).reduce((x, y) => x + y, 0);
    expect(file).toHaveLength(total + 2);
    expect(JSON.parse(file.at(-1)!)).toEqual({ end: true, rows: total });
    // Instance things stay behind.
    expect(file.some((l) => l.includes('"t":"api_keys"') || l.includes('password_hash'))).toBe(false);
  });

  it('imports into an empty instance, and exporting that gives back the same file', async () => {
    const r = await importProject(b.db, file);
    expect(r.rows).toBe(file.length - 2);
    expect(comparable(await exportLines(b))).toEqual(comparable(file));
    // Not only bytes: the imported data works, e.g. a decided proposal is still decided by its reviewer.
    const [p] = rowsOf<{ decided_by: string; decision_note: string | null }>(
      await b.db.execute(
        sql`select decided_by, decision_note from proposals where project_id = 'default' and status = 'rejected'`,
      ),
    );
    expect(p).toMatchObject({ decided_by: 'bob', decision_note: 'not durable' });
  });

  it('refuses to import into a project that holds data, and changes nothing', async () => {
    const before = await tableCounts(b.db, 'default');
    await expect(importProject(b.db, file)).rejects.toThrow(
      /project "default" already holds data \(\d+ agents, \d+ sessions/,
    );
    expect(await tableCounts(b.db, 'default')).toEqual(before);
  });

  it('refuses a truncated, reordered or foreign file, naming the line, and writes nothing', async () => {
    const c = await freshDb(to);
    onTestFinished(() => c.close());
    const target = 'default';
    await expect(importProject(c.db, file.slice(0, -1), { as: target })).rejects.toThrow(
      /without its end marker: it is truncated/,
    );
    await expect(
      importProject(c.db, [file[0]!, ...file.slice(1, -1).reverse(), file.at(-1)!], { as: target }),
    ).rejects.toThrow(/line \d+: ucs_\w+ rows after .* rows \(the file is out of order\)/);
    await expect(importProject(c.db, ['{"format":"something-else"}'], { as: target })).rejects.toThrow(
      /line 1: not a Mnemoscope project export/,
    );
    await expect(importProject(c.db, [file[0]!, 'not json'], { as: target })).rejects.toThrow(
      /line 2: not a JSON object/,
    );
    const header = JSON.parse(file[0]!);
    await expect(
      importProject(c.db, [JSON.stringify({ ...header, schema: 1 }), ...file.slice(1)], { as: target }),
    ).rejects.toThrow(/exported at schema 1; this database is at schema/);
    const counts = await tableCounts(c.db, target);
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
    const [row] = rowsOf<{ settings: unknown }>(
      await c.db.execute(sql`select settings from projects where id = ${target}`),
    );
    expect(row!.settings).toEqual({}); // the header's project settings were not applied either
    // Rows of one project under another id in the same instance collide on their global ids: refused whole, with the
    // reason.
    // A file may not reach into another project: versions, links, outcomes or proposals that point at entries of
    // `default` are refused whole, and `default` is untouched.
    const head = JSON.parse(file[0]!);
    const rowOf = (t: string) => JSON.parse(file.find((l) => l.startsWith(`{"t":"${t}"`))!).r;
    const crafted = (t: string, r: Record<string, unknown>) => [
      JSON.stringify({ ...head, project: { ...head.project, id: 'intruder' }, tables: { [t]: 1 } }),
      JSON.stringify({ t, r }),
      JSON.stringify({ end: true, rows: 1 }),
    ];
    const before = await tableCounts(b.db, 'default');
    await expect(
      importProject(b.db, crafted('memory_entry_versions', { ...rowOf('memory_entry_versions'), version: 99 })),
    ).rejects.toThrow(/memory_entry_versions rows before line \d+ refer to entries that are not in this file/);
    const theirs = rowOf('memory_entry_versions').entry_id as string;
    const link = { project_id: 'x', entry_id: theirs, other_id: theirs, relation: 'conflicts_with' };
    await expect(
      importProject(b.db, crafted('memory_entry_links', { ...link, created_at: '2026-11-24T00:00:00+00:00' })),
    ).rejects.toThrow(/1 curation outcome, proposal or link rows refer to entries that are not in this file/);
    expect(await tableCounts(b.db, 'default')).toEqual(before);
    expect(Object.values(await tableCounts(b.db, 'intruder')).every((n) => n === 0)).toBe(true);
    await expect(importProject(b.db, file, { as: 'copy' })).rejects.toThrow(
      /rows before line \d+ could not be stored: duplicate key value violates unique constraint "[a-z_]+"$/,
    );
    expect(Object.values(await tableCounts(b.db, 'copy')).every((n) => n === 0)).toBe(true);
  });
});
