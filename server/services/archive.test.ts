import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { rowsOf, type DbHandle } from '@/server/db';
import { proposals } from '@/server/db/schema/curation';
import { DRIVERS, freshDb } from '@/server/test/db';
import { exportProject, importProject, tableCounts } from './archive';
import { decideProposal, deprecateEntry } from './curation-decisions';
import { seedDemo } from '@/server/demo/seed';
import { ingest } from './ingest';

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
    // Ids that look like references and are not: a proposal raised in the Hygiene lab (its event is its own) and an
    // artifact naming a session that was never sent. The export keeps them (it once dropped them as dangling).
    await a.db.insert(proposals).values({
      projectId: 'default',
      eventId: 'hygiene_regression',
      operation: 'deprecate',
      scope: 'team',
      kind: 'deprecation',
      content: 'Deprecate the stale runbook.',
    });
    const artifact = { id: 'artifact-of-no-session', session_id: 'never-sent', kind: 'log', content: 'a log line' };
    await ingest(a.db, 'default', [{ ok: true, value: { type: 'artifact', data: artifact } }], 'test');
    file = await exportLines(a);
  }, 240_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('exports every project table with a header, one line a row, and an end marker', () => {
    const header = JSON.parse(file[0]!);
    expect(header).toMatchObject({ format: 'mnemoscope-project', version: 2, project: { id: 'default' } });
    expect(header.schema).toBeGreaterThanOrEqual(4);
    const trailer = JSON.parse(file.at(-1)!);
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
      expect(trailer.tables[t], t).toBeGreaterThan(0);
    const total = Object.values(trailer.tables as Record<string, number>).reduce((x, y) => x + y, 0);
    expect(file).toHaveLength(total + 2);
    expect(trailer).toEqual({ end: true, rows: total, tables: trailer.tables, skipped: 0 });
    expect(file.some((l) => l.includes('"hygiene_regression"'))).toBe(true);
    expect(file.some((l) => l.includes('"artifact-of-no-session"'))).toBe(true);
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
      JSON.stringify({ ...head, project: { ...head.project, id: 'intruder' } }),
      JSON.stringify({ t, r }),
      JSON.stringify({ end: true, rows: 1, tables: { [t]: 1 }, skipped: 0 }),
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

describe.each(DRIVERS)('a project export on %s while agents write', (driver) => {
  let a: DbHandle;
  let b: DbHandle;
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('holds no transaction while the client reads: writes land mid-export, the file imports whole', async () => {
    [a, b] = await Promise.all([freshDb(driver), freshDb(driver)]);
    await seedDemo(a.db, 'default');
    // The second is the last entry in key order, so its new version comes after the export's cursor.
    const activeEntries = rowsOf<{ id: string }>(
      await a.db.execute(sql`(select id from memory_entries where project_id = 'default' and status = 'active'
                                order by id limit 1)
                             union all
                             (select id from memory_entries where project_id = 'default' and status = 'active'
                                order by id desc limit 1)`),
    );
    const lines: string[] = [];
    const wrote: string[] = [];
    // A slow client: the export waits for each line to be taken. While it waits at the first turn and at the first
    // entry version, an agent sends a new session and a reviewer deprecates an entry. Under one long transaction on
    // the embedded database's single connection these writes would wait for the whole export (here: forever).
    // Pages of two rows, so that the writes land between pages, as they do between pages of 2,000 in a big project.
    const trailer = await exportProject(
      a.db,
      'default',
      async (l) => {
        lines.push(l);
        if (l.startsWith('{"t":"turns"') && !wrote.includes('turns')) {
          wrote.push('turns');
          const late = [1, 2, 3].map((n) => ({
            ok: true as const,
            value: {
              type: 'turn',
              data: {
                session_id: 'zz-late',
                agent: 'a',
                turn: n,
                input: `in ${n}`,
                output: 'out',
                ccs: { constraints: ['keep(x)'] },
              },
            },
          }));
          expect((await ingest(a.db, 'default', late, 'test')).results.map((r) => r.status)).toEqual([
            'accepted',
            'accepted',
            'accepted',
          ]);
          await deprecateEntry(a.db, 'default', activeEntries[0]!.id, 'written while the export read turns', 'alice');
        }
        if (l.startsWith('{"t":"memory_entry_versions"') && !wrote.includes('versions')) {
          wrote.push('versions');
          await deprecateEntry(a.db, 'default', activeEntries[1]!.id, 'written after entries were read', 'alice');
        }
      },
      { pageSize: 2 },
    );
    expect(wrote).toEqual(['turns', 'versions']);
    const rows = lines.slice(1, -1).map((l) => JSON.parse(l) as { t: string; r: Record<string, unknown> });
    // The late session was written after sessions were read: its turns are left out, not left dangling.
    expect(rows.some((x) => x.t === 'sessions' && x.r.id === 'zz-late')).toBe(false);
    expect(rows.some((x) => x.t === 'turns' && x.r.session_id === 'zz-late')).toBe(false);
    // The entry deprecated before entries were read is in the file deprecated, with that version; the one
    // deprecated after is in the file as it was when read, without the newer version.
    const entry = (id: string) => rows.find((x) => x.t === 'memory_entries' && x.r.id === id)!.r;
    const versions = (id: string) =>
      rows.filter((x) => x.t === 'memory_entry_versions' && x.r.entry_id === id).map((x) => x.r.version);
    expect(entry(activeEntries[0]!.id).status).toBe('deprecated');
    expect(Math.max(...(versions(activeEntries[0]!.id) as number[]))).toBe(entry(activeEntries[0]!.id).version);
    expect(entry(activeEntries[1]!.id).status).toBe('active');
    expect(Math.max(...(versions(activeEntries[1]!.id) as number[]))).toBe(entry(activeEntries[1]!.id).version);
    expect(trailer.skipped).toBe(4);
    const r = await importProject(b.db, lines);
    expect(r.rows).toBe(trailer.rows);
    // What was written during the export is all there in the source.
    expect(await tableCounts(a.db, 'default')).toMatchObject({
      turns: trailer.tables.turns! + 3,
      memory_entry_versions: trailer.tables.memory_entry_versions! + 1,
    });
  }, 240_000);
});
