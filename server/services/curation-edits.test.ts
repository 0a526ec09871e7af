import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@/server/db';
import { auditLog } from '@/server/db/schema/projects';
import { DRIVERS, freshDb } from '@/server/test/db';
import { createEntry, editEntry, linkEntries } from './curation-edits';
import { deprecateEntry } from './curation-decisions';
import { entryDetail } from './curation-views';
import { ensureProject } from './projects';

describe.each(DRIVERS)('a reviewer’s own memory writes on %s', (driver) => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb(driver);
    await ensureProject(h.db, 'default', 'Default');
  });
  afterAll(() => h?.close());

  it('creates an entry (secrets redacted), edits it with history and reason; only changes are recorded', async () => {
    const { id, redacted } = await createEntry(
      h.db,
      'default',
      { scope: 'project', kind: 'procedure', content: 'Deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789' },
      'ana',
    );
    expect(redacted).toBe(1);
    const edit = await editEntry(
      h.db,
      'default',
      id,
      {
        content: 'Deploy from the release branch only.',
        scope: 'project',
        kind: 'procedure',
        reason: 'was wrong',
        version: 1,
      },
      'bo',
    );
    expect(edit).toEqual({ version: 2, edited: ['content'] });
    const d = await entryDetail(h.db, 'default', id);
    expect(d.entry).toMatchObject({ content: 'Deploy from the release branch only.', version: 2, status: 'active' });
    expect(d.versions.map((v) => [v.version, v.operation, v.createdBy, v.note])).toEqual([
      [1, 'append', 'ana', null],
      [2, 'update', 'bo', 'was wrong'],
    ]);
    expect(d.versions[0]!.content).not.toContain('ghp_abcdefghij');
    const audit = await h.db
      .select({ action: auditLog.action, actor: auditLog.actor, detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.projectId, 'default'), eq(auditLog.subjectId, id)));
    expect(audit.map((a) => [a.action, a.actor])).toEqual([
      ['entry.create', 'ana'],
      ['entry.edit', 'bo'],
    ]);
  });

  it('refuses a new entry of a kind that is about other entries (deprecation, conflict), naming the way', async () => {
    for (const kind of ['deprecation', 'conflict'] as const)
      await expect(createEntry(h.db, 'default', { scope: 'project', kind, content: 'x' }, 'ana')).rejects.toThrow(
        new RegExp(`^kind: a ${kind} is written by `),
      );
  });

  it('refuses a stale edit, an edit that changes nothing, an edit of a deprecated entry, a double link', async () => {
    const { id } = await createEntry(h.db, 'default', { scope: 'team_memory', kind: 'fact', content: 'A' }, 'ana');
    const { id: other } = await createEntry(
      h.db,
      'default',
      { scope: 'team_memory', kind: 'fact', content: 'B' },
      'ana',
    );
    await editEntry(h.db, 'default', id, { content: 'A2', reason: 'typo', version: 1 }, 'bo');
    await expect(editEntry(h.db, 'default', id, { content: 'A3', reason: 'x', version: 1 }, 'cy')).rejects.toThrow(
      'the entry changed meanwhile (now version 2)',
    );
    await expect(editEntry(h.db, 'default', id, { content: ' A2 ', reason: 'x' }, 'cy')).rejects.toThrow(
      'nothing changed',
    );
    await expect(editEntry(h.db, 'default', id, { kind: 'decision', reason: ' ' }, 'cy')).rejects.toThrow(/^reason: /);
    const links = await linkEntries(h.db, 'default', { id, otherId: other, relation: 'contradicts' }, 'bo');
    expect(links).toEqual([{ otherId: other, relation: 'contradicts' }]);
    expect((await entryDetail(h.db, 'default', other)).links.map((l) => l.otherId)).toEqual([id]);
    await expect(linkEntries(h.db, 'default', { id, otherId: other, relation: 'contradicts' }, 'bo')).rejects.toThrow(
      'already linked',
    );
    await deprecateEntry(h.db, 'default', other, 'merged into A', 'bo');
    await expect(editEntry(h.db, 'default', other, { content: 'B2', reason: 'x' }, 'bo')).rejects.toThrow(/deprecated/);
  });
});
