import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { freshDb, DRIVERS } from '@/server/test/db';
import { rowsOf, type DbHandle } from '@/server/db';
import { auditLog } from '@/server/db/schema/projects';
import { memoryEvents } from '@/server/db/schema/curation';
import { sessions, turns } from '@/server/db/schema/sessions';
import { demoSessions } from '@/server/demo/generate';
import { convertFiles } from '@/lib/import/files';
import { readTree } from '@/server/fs/read-tree';
import { requestContext } from '@/server/log';
import { ingest } from './ingest';
import { UnavailableError } from './errors';
import { exportSession } from './sessions';
import { listRejectedEvents } from './curation-views';
import { exportSubstrate } from './substrate';

const items = (values: unknown[]) => values.map((value) => ({ ok: true as const, value }));
const turn = (n: number, over: Record<string, unknown> = {}) => ({
  type: 'turn',
  data: {
    session_id: 'batch',
    agent: 'a',
    turn: n,
    input: `in ${n}`,
    output: `out ${n}`,
    ccs: { constraints: ['keep(x)'] },
    ...over,
  },
});
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );
const count = async (h: DbHandle, table: typeof turns | typeof sessions | typeof memoryEvents) =>
  (await h.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;

describe.each(DRIVERS)('ingest service on %s', (driver) => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await freshDb(driver);
  });
  afterAll(async () => h?.close());

  it('stores the valid records of a batch and leaves nothing of the rejected ones', async () => {
    const r = await ingest(
      h.db,
      'default',
      items([turn(1), turn('two' as unknown as number), turn(3, { hallucination: 7 }), turn(4)]),
      'test',
    );
    expect(r.results.map((x) => x.status)).toEqual(['accepted', 'rejected', 'rejected', 'accepted']);
    expect(await count(h, turns)).toBe(2);
  });

  it('is idempotent: a retried batch creates nothing twice, and in-batch repeats are duplicates', async () => {
    const r = await ingest(h.db, 'default', items([turn(1), turn(4), turn(5), turn(5)]), 'test');
    expect(r.results.map((x) => x.status)).toEqual(['duplicate', 'duplicate', 'accepted', 'duplicate']);
    expect(await count(h, turns)).toBe(3);
  });

  it('creates a session from its first turn, and lets a session record fill it in once', async () => {
    const first = await ingest(
      h.db,
      'default',
      items([{ type: 'session', data: { id: 'batch', agent: 'a', title: 'Named later' } }]),
      'test',
    );
    expect(first.results[0]?.status).toBe('accepted');
    const again = await ingest(
      h.db,
      'default',
      items([{ type: 'session', data: { id: 'batch', agent: 'a', title: 'Renamed' } }]),
      'test',
    );
    // Not dropped in silence: the stored declaration is kept and the other one named a conflict.
    expect(again.results[0]).toMatchObject({ status: 'conflict', fields: ['title'] });
    const [s] = await h.db
      .select()
      .from(sessions)
      .where(sql`id = 'batch'`);
    expect(s?.title).toBe('Named later');
  });

  it('rejects, alone, a record the database refuses, and keeps the rest of the batch', async () => {
    // A rule only the database knows (as an administrator's constraint would be).
    await h.db.execute(
      sql`create function refuse_explode() returns trigger as $$
        begin if new.input = 'explode' then raise exception 'input refused by policy'; end if; return new; end
      $$ language plpgsql`,
    );
    await h.db.execute(
      sql`create trigger refuse_explode before insert on turns for each row execute function refuse_explode()`,
    );
    try {
      const r = await ingest(h.db, 'default', items([turn(10), turn(11, { input: 'explode' }), turn(12)]), 'test');
      expect(r.results.map((x) => x.status)).toEqual(['accepted', 'rejected', 'accepted']);
      expect(r.results[1]).toMatchObject({
        errors: [{ path: '', message: 'could not be stored: input refused by policy' }],
      });
      expect(await count(h, turns)).toBe(5);
    } finally {
      await h.db.execute(sql`drop trigger refuse_explode on turns`);
    }
  });

  it('stores HTML as text and records every redaction in the row and the audit log', async () => {
    const html = '<img src=x onerror="alert(1)"> <script>steal()</script>';
    const r = await ingest(h.db, 'default', items([turn(20, { input: `${html} key AKIAIOSFODNN7EXAMPLE` })]), 'tester');
    expect(r.accepted).toBe(1);
    const [row] = await h.db
      .select()
      .from(turns)
      .where(sql`turn = 20`);
    expect(row?.input).toBe(`${html} key [REDACTED:aws_access_key]`);
    expect(row?.redactions).toEqual([{ path: 'input', type: 'aws_access_key', count: 1 }]);
    const audit = await h.db
      .select()
      .from(auditLog)
      .where(sql`action = 'redact' and subject_id = 'batch/20'`);
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor).toBe('tester');
  });

  it("audits an ingest under its request id (its answer's x-request-id, its log line), else as a batch", async () => {
    await requestContext.run({ requestId: 'req-audit-1' }, () =>
      ingest(h.db, 'default', items([turn(30), turn(31), turn(30)]), 'auditor'),
    );
    await ingest(h.db, 'default', items([turn(32)]), 'auditor');
    const rows = await h.db
      .select()
      .from(auditLog)
      .where(sql`action = 'ingest' and actor = 'auditor'`)
      .orderBy(auditLog.at);
    expect(rows.map((r) => [r.subjectType, r.subjectId, r.detail])).toEqual([
      ['request', 'req-audit-1', { records: 3, stored: { turn: 2 }, duplicates: 1 }],
      ['batch', '1 records', { records: 1, stored: { turn: 1 }, duplicates: 0 }],
    ]);
  });

  it('keeps the audit log append-only', async () => {
    await expect(
      h.db
        .update(auditLog)
        .set({ actor: 'x' })
        .where(sql`true`),
    ).rejects.toThrow();
    await expect(h.db.delete(auditLog).where(sql`true`)).rejects.toThrow();
    expect((await h.db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]!.n).toBeGreaterThan(0);
  });

  it('exports a session that imports into an empty database and exports identically', async () => {
    const demo = demoSessions().filter((e) => JSON.stringify(e).includes('itops-nginx-502'));
    await ingest(h.db, 'default', items(demo), 'test');
    const first = await exportSession(h.db, 'default', 'itops-nginx-502');
    expect(first.filter((e) => e.type === 'turn')).toHaveLength(50);
    const other = await freshDb(driver);
    try {
      const r = await ingest(other.db, 'default', items(first), 'test');
      expect(r.rejected).toBe(0);
      expect(await exportSession(other.db, 'default', 'itops-nginx-502')).toEqual(first);
    } finally {
      await other.close();
    }
    // The export is what was sent, but for the redactions made on the way in.
    const sent = demo.find((e) => e.type === 'turn' && (e.data as { turn: number }).turn === 2)!;
    const back = first.find((e) => e.type === 'turn' && (e.data as { turn: number }).turn === 2)!;
    expect(back.data).toEqual(sent.data);
  });

  it('stores the UCS workspace fixture without loss', async () => {
    const root = path.join(process.cwd(), 'server/demo/ucs-workspace');
    const files = readTree(root);
    const plan = convertFiles(files);
    const sent = plan.files.flatMap((f) => f.envelopes);
    const r = await ingest(h.db, 'default', items(sent), 'test');
    expect(r.rejected).toBe(0);
    expect(r.duplicates).toBe(1); // ucs/state/torusfield_state.json is snapshot 00399 again
    const back = await exportSubstrate(h.db, 'default', 'aegis-demo');
    // The same data; jsonb keeps its own key order, so compare key-sorted.
    const key = (e: { type: string; data: unknown }) => `${e.type}:${canonical(e.data)}`;
    const sentKeys = new Set(sent.map(key));
    // Every file comes back as written: states, documents, the action log.
    for (const e of back) expect(sentKeys.has(key(e))).toBe(true);
    expect(back).toHaveLength(sent.length - 1);
  });

  it('keeps per-record results in order across the slices of a large batch', async () => {
    const big = Array.from({ length: 400 }, (_, k) => turn(1000 + k, { session_id: 'big' }));
    big[150] = turn(1000, { session_id: 'big' }); // repeats record 0, in a later slice
    big[260] = turn('bad' as unknown as number, { session_id: 'big' });
    const r = await ingest(h.db, 'default', items(big), 'test');
    expect(r.results.map((x) => x.index)).toEqual(big.map((_, k) => k));
    expect(r.results[150]).toMatchObject({ status: 'duplicate', id: 'big/1000' });
    expect(r.results[260]).toMatchObject({ status: 'rejected' });
    expect([r.accepted, r.duplicates, r.rejected]).toEqual([398, 1, 1]);
  });

  it('refuses a 10,000-level memory event alone and keeps the rest of the batch', async () => {
    const deep = JSON.parse('['.repeat(10_000) + ']'.repeat(10_000));
    const r = await ingest(
      h.db,
      'default',
      items([{ type: 'memory_event', data: { event_id: 'memevt_deep0001', nested: deep } }, turn(77)]),
      'tester',
    );
    expect(r.results.map((x) => x.status)).toEqual(['rejected', 'accepted']);
    // It names its id, so the answer says which record it refuses.
    expect(r.results[0]).toMatchObject({ id: 'memevt_deep0001' });
  });

  it('refuses a memory event whose id holds a NUL alone: the rest of the batch is curated', async () => {
    const good = {
      type: 'memory_event',
      data: {
        event_id: 'memevt_nulbatch_good',
        source_agent: 'worker',
        task_id: 'T-1',
        memory_kind: 'hypothesis',
        content: 'The cache may be cold after a deploy.',
        suggested_scope: 'session',
        confidence: 'medium',
        sensitivity: 'internal',
        ttl: 'session',
        evidence_refs: [],
        timestamp: '2026-11-25T10:00:00Z',
      },
    };
    const bad = { type: 'memory_event', data: { ...good.data, event_id: 'memevt_nulbatch_\u0000x' } };
    const r = await ingest(h.db, 'default', items([good, bad]), 'tester');
    expect(r.results.map((x) => x.status)).toEqual(['accepted', 'rejected']);
    // No id to name: the one sent cannot be stored (nor answered as one).
    expect(r.results[1]!.id).toBeUndefined();
    // The good event is curated (before, the refused one's id made the batch's curation fail: "stored, not curated").
    expect(r.curation).toMatchObject({ written: 1 });
  });

  it('keeps each malformed memory event sent without its envelope, whole, not one null for all', async () => {
    const r = await ingest(
      h.db,
      'default',
      items([
        { type: 'memory_event', event_id: 'bad-nodata-1', kind: 'fact' },
        { type: 'memory_event', foo: 1 },
        { type: 'memory_event', event_id: 'bad-nodata-3', api_key: 'sk-live-abcdefghijklmnop1234' },
      ]),
      'tester',
    );
    expect(r.results.map((x) => x.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(r.curation).toMatchObject({ events: 3, rejected: 3 });
    const kept = await listRejectedEvents(h.db, 'default', { limit: 100 });
    const raws = kept.items.map((k) => JSON.stringify(k.raw));
    for (const marker of ['bad-nodata-1', '"foo":1', 'bad-nodata-3'])
      expect(
        raws.filter((x) => x.includes(marker)),
        marker,
      ).toHaveLength(1);
    expect(raws.join('')).not.toContain('sk-live-abcdefghijklmnop1234');
    // Sent again (a retry), they are the same three, not three more.
    await ingest(h.db, 'default', items([{ type: 'memory_event', foo: 1 }]), 'tester');
    const again = await listRejectedEvents(h.db, 'default', { limit: 100 });
    expect(again.items.length).toBe(kept.items.length);
  });

  it('keeps a malformed memory event for the inbox without its NUL, which the database cannot store', async () => {
    const r = await ingest(
      h.db,
      'default',
      items([
        { type: 'memory_event', data: { event_id: 'memevt_nul00001', content: 'a\u0000b', 'k\u0000': 1 } },
        turn(78),
      ]),
      'tester',
    );
    expect(r.results.map((x) => x.status)).toEqual(['rejected', 'accepted']);
    expect(r.curation).not.toHaveProperty('error');
  });

  it('keeps a field it does not know, and warns when it looks like a slip for a known one', async () => {
    const r = await ingest(
      h.db,
      'default',
      items([
        turn(1, { session_id: 'slips', halucination: 0.9, model: 'gpt-x' }),
        { type: 'session', data: { id: 'slips', agent: 'a', titel: 'Typo' } },
      ]),
      'test',
    );
    expect(r.results).toEqual([
      {
        index: 0,
        status: 'accepted',
        type: 'turn',
        id: 'slips/1',
        warnings: [
          {
            path: 'data.halucination',
            message: "not a field of a turn, kept as the agent's own; did you mean hallucination?",
          },
        ],
      },
      expect.objectContaining({
        warnings: [{ path: 'data.titel', message: expect.stringMatching(/did you mean title\?$/) }],
      }),
    ]);
    const [row] = rowsOf(await h.db.execute(sql`select extra, hallucination from turns where session_id = 'slips'`));
    expect(row).toEqual({ extra: { halucination: 0.9, model: 'gpt-x' }, hallucination: null });
    // Sent again: a duplicate, and the warning again.
    const again = await ingest(
      h.db,
      'default',
      items([turn(1, { session_id: 'slips', halucination: 0.9, model: 'gpt-x' })]),
      'test',
    );
    expect(again.results[0]).toMatchObject({ status: 'duplicate', warnings: [{ path: 'data.halucination' }] });
  });
});

describe('ingest when the database cannot write', () => {
  it('answers that the database is unavailable, not that the records are bad', async () => {
    const full = Object.assign(new Error('could not extend file "base/16384/2619": No space left on device'), {
      code: '53100',
    });
    const db = { transaction: async () => Promise.reject(full) } as unknown as DbHandle['db'];
    await expect(ingest(db, 'default', items([turn(1), turn(2)]), 'tester')).rejects.toBeInstanceOf(UnavailableError);
  });
});
