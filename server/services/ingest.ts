import { sql } from 'drizzle-orm';
import { currentRequestId, errorReason } from '@/server/log';
import type { BodyItem } from '@/lib/ingest/body';
import type { IngestResult } from '@/lib/ingest/contract';
import { toCurationEvent, toMemoryEventRow, type CurationEvent } from '@/lib/curation/event';
import { rowsOf, type Db, type Tx } from '@/server/db';
import { agents, auditLog } from '@/server/db/schema/projects';
import { artifacts, sessions, turns } from '@/server/db/schema/sessions';
import { addToSessionStats, recountSessionStats, usageSql } from './session-stats';
import { duringIngest, forgetDigests, refreshDigestsSoon } from './session-digest';
import { correct, CORRECTABLE, type Correction } from './ingest-corrections';
import { notifyTurnEvents, notifyTurns } from './live';
import { memoryEvents } from '@/server/db/schema/curation';
import { curateBatch, type CurationCounts } from './curation';
import { isInfrastructureError, UnavailableError } from './errors';
import { chunks, firstOf, markStored, ofType, recordType, type Pending, type Rec } from './ingest-batch';
import { prepareItems, turnRow, type Prepared } from './ingest-prepare';
import { writeSubstrate } from './substrate-ingest';
import { rejectMisfitScores, warnMissingTargets, writeAnnotations } from './annotations-ingest';

/** A stored turn's tokens, cost and latency (whole OTLP traces), as its RETURNING clause reads them. */
const USAGE = usageSql('');

export interface IngestSummary {
  results: IngestResult[];
  accepted: number;
  duplicates: number;
  rejected: number;
  /** Records whose id was taken by a different version: kept as stored (`conflict`) or replaced (`superseded`). */
  conflicts: number;
  superseded: number;
  /** What the curator made of the batch's memory events (absent when it had none). */
  curation?: CurationCounts | { error: string };
}

/**
 * Stores a batch of envelopes. Each record is validated alone: valid ones are stored even when
 * others are rejected, and a rejected one is not stored (a malformed memory event is kept apart, with its reasons,
 * for the inbox). The batch is written in one
 * transaction; should the database refuse it, each record is retried in its own transaction so a
 * single bad row cannot take the others down. Idempotent: a record already stored is `duplicate`.
 */
export function ingest(
  db: Db,
  projectId: string,
  items: BodyItem[],
  actor: string,
  opts: StoreOptions = {},
): Promise<IngestSummary> {
  return storePrepared(db, projectId, prepareItems(items), actor, opts);
}

export interface StoreOptions {
  /** A record whose id is taken by a different version replaces it (the old one kept in record_versions). */
  supersede?: boolean;
  /**
   * A turn whose trace span another turn of its session holds is a retried export (OTLP: `duplicate`); otherwise it
   * is refused, naming the turn that holds the span.
   */
  spanRetries?: boolean;
}

/** Stores records validated by prepareItems/prepareBody (in this thread or a worker's). */
export function storePrepared(
  db: Db,
  projectId: string,
  prepared: Prepared,
  actor: string,
  opts: StoreOptions = {},
): Promise<IngestSummary> {
  // Replay digests are caught up in the background only while no ingest runs (session-digest.ts).
  return duringIngest(() => storeItems(db, projectId, prepared, actor, opts));
}

async function storeItems(
  db: Db,
  projectId: string,
  prepared: Prepared,
  actor: string,
  opts: StoreOptions,
): Promise<IngestSummary> {
  const { malformed } = prepared;
  const results: IngestResult[] = new Array(prepared.count);
  for (const r of prepared.rejected) results[r.index] = r;
  // A score that does not fit its definition is the record's fault: found in the transaction that writes the rest,
  // which holds the scores' names against a definition written meanwhile (lockScoreNames).
  const withoutMisfits = async (tx: Tx, some: Pending[]) => {
    const misfits = await rejectMisfitScores(tx, projectId, some);
    for (const r of misfits) results[r.index] = r;
    return misfits.length ? some.filter((p) => results[p.index] === undefined) : some;
  };
  let pending = prepared.pending;

  if (pending.length) {
    try {
      await db.transaction(async (tx) => {
        pending = await withoutMisfits(tx, pending);
        if (!pending.length) return;
        const w = await writeBatch(tx, projectId, pending, actor, opts);
        for (const p of pending) results[p.index] = outcome(p, w);
      });
    } catch (batchError) {
      // A full disk or a database that is down is nobody's record: the whole request is to be retried.
      if (isInfrastructureError(batchError))
        throw new UnavailableError(`the database cannot store records now (${dbMessage(batchError)}); retry later`);
      for (const p of pending) {
        try {
          await db.transaction(async (tx) => {
            const [kept] = await withoutMisfits(tx, [p]);
            if (kept) results[p.index] = outcome(p, await writeBatch(tx, projectId, [p], actor, opts));
          });
        } catch (err) {
          results[p.index] = {
            index: p.index,
            status: 'rejected',
            type: recordType(p.record),
            id: p.id,
            errors: [{ path: '', message: `could not be stored: ${dbMessage(err)}` }],
          };
        }
      }
    }
  }

  await explainHeldSpans(db, projectId, pending, results, opts);
  const summary: IngestSummary = { results, ...countResults(results) };

  // The replay digests of the sessions that gained turns are caught up in the background once ingest pauses, so
  // opening a long session does not build its digest (a view catches up whatever this has not yet).
  const grown = new Set<string>();
  for (const p of pending)
    if (p.record.type === 'turn' && ['accepted', 'superseded'].includes(results[p.index]?.status ?? ''))
      grown.add(p.record.sessionId);
  if (grown.size) refreshDigestsSoon(db, projectId, grown);

  // The curator runs on the memory events this batch newly stored (a replayed event is a duplicate
  // above, so it is never curated twice), after they are safely committed.
  const fresh: CurationEvent[] = [];
  for (const p of pending) {
    const r = p.record;
    if (r.type !== 'memory_event' || results[p.index]?.status !== 'accepted') continue;
    fresh.push(toCurationEvent(r));
  }
  if (fresh.length || malformed.length) {
    try {
      summary.curation = await curateBatch(db, projectId, fresh, malformed, actor);
    } catch (err) {
      summary.curation = { error: `curation failed; the events are stored and not yet curated: ${dbMessage(err)}` };
    }
  }
  return summary;
}

/**
 * A traced span is one turn (the `turns_otel_span` index). A turn sent under another number with a span its session
 * already holds was not stored: unless it is a retried export, say so, naming the turn that holds the span, instead of
 * "duplicate" (nothing is stored under its number) or the index's own words (a supersede that would move the span).
 */
async function explainHeldSpans(
  db: Db,
  projectId: string,
  pending: Pending[],
  results: IngestResult[],
  opts: StoreOptions,
) {
  const spanOf = (p: Pending) =>
    p.record.type === 'turn'
      ? ((p.record.extra as { otel?: { span_id?: unknown } } | undefined)?.otel?.span_id ?? null)
      : null;
  const suspects = pending.filter((p) => {
    const r = results[p.index];
    if (typeof spanOf(p) !== 'string') return false;
    if (r?.status === 'duplicate') return !opts.spanRetries;
    return r?.status === 'rejected' && r.errors.some((e) => e.message.includes('turns_otel_span'));
  });
  if (!suspects.length) return;
  const held = rowsOf<{ session_id: string; turn: number; span: string }>(
    await db.execute(
      sql`select session_id, turn, extra->'otel'->>'span_id' as span from turns
          where project_id = ${projectId} and (session_id, extra->'otel'->>'span_id') in (${sql.join(
            suspects.map((p) => sql`(${(p.record as Rec<'turn'>).sessionId}, ${String(spanOf(p))})`),
            sql`, `,
          )})`,
    ),
  );
  const holder = new Map(held.map((h) => [`${h.session_id}\u0000${h.span}`, Number(h.turn)]));
  for (const p of suspects) {
    const t = p.record as Rec<'turn'>;
    const n = holder.get(`${t.sessionId}\u0000${String(spanOf(p))}`);
    if (n === undefined || n === t.turn) continue;
    results[p.index] = {
      index: p.index,
      status: 'rejected',
      type: 'turn',
      id: p.id,
      errors: [
        {
          path: 'data.otel.span_id',
          message:
            `span ${String(spanOf(p))} is turn ${n} of session ${t.sessionId} already, and a span is one turn: ` +
            `send it as turn ${n}, or give this turn its own span`,
        },
      ],
    };
  }
}

/** The answer's counts, by status. */
export function countResults(results: IngestResult[]) {
  const n = { accepted: 0, duplicate: 0, rejected: 0, conflict: 0, superseded: 0 };
  for (const r of results) n[r.status]++;
  return {
    accepted: n.accepted,
    duplicates: n.duplicate,
    rejected: n.rejected,
    conflicts: n.conflict,
    superseded: n.superseded,
  };
}

function outcome(p: Pending, w: Written): IngestResult {
  const base = {
    index: p.index,
    type: recordType(p.record),
    id: p.id,
    ...(p.warnings ? { warnings: p.warnings } : {}),
  };
  if (w.stored.has(p.index)) return { ...base, status: 'accepted' };
  const c = w.corrections.get(p.index);
  if (!c) return { ...base, status: 'duplicate' };
  if (c.superseded) return { ...base, status: 'superseded', fields: c.fields };
  return {
    ...base,
    status: 'conflict',
    fields: c.fields,
    message:
      `another version is stored under this id (${
        p.record.type === 'memory_event'
          ? 'the event sent differs from the one stored'
          : `it differs in ${c.fields.join(', ')}`
      }); it was kept. ` +
      (p.record.type === 'memory_event'
        ? 'A memory event cannot be replaced once the curator has seen it: send a new event whose supersedes ' +
          'names this one'
        : 'Send the request with supersede=true to replace it (the old version is kept in its history)'),
  };
}

interface Written {
  stored: Set<number>;
  corrections: Map<number, Correction>;
}

const dbMessage = (err: unknown) => errorReason(err).slice(0, 300);

/**
 * Writes the records; returns the indexes of those newly stored, and of those whose id was taken by another version
 * (kept, or replaced when the request supersedes). The rest were already there, the same.
 */
async function writeBatch(
  tx: Tx,
  projectId: string,
  pending: Pending[],
  actor: string,
  opts: StoreOptions,
): Promise<Written> {
  const stored = new Set<number>();
  await writeAgents(tx, projectId, pending);
  await writeSessions(tx, projectId, ofType(pending, 'session'), stored);
  await writeTurns(tx, projectId, ofType(pending, 'turn'), stored);
  await writeArtifacts(tx, projectId, ofType(pending, 'artifact'), stored);
  await writeMemoryEvents(tx, projectId, ofType(pending, 'memory_event'), stored);
  await writeSubstrate(tx, projectId, pending, stored);
  await writeAnnotations(tx, projectId, ofType(pending, 'annotation'), stored, actor);
  await warnMissingTargets(tx, projectId, ofType(pending, 'annotation'));
  const corrections = new Map<number, Correction>();
  for (const type of CORRECTABLE) {
    const taken = pending.filter((p) => p.record.type === type && !stored.has(p.index));
    for (const [i, c] of await correct(tx, projectId, type, taken, { supersede: !!opts.supersede, actor }))
      corrections.set(i, c);
  }
  const replacedTurns = pending.filter((p) => p.record.type === 'turn' && corrections.get(p.index)?.superseded);
  if (replacedTurns.length)
    await turnsReplaced(tx, projectId, new Set(replacedTurns.map((p) => (p.record as Rec<'turn'>).sessionId)));
  await writeAudit(tx, projectId, pending, stored, actor, corrections);
  return { stored, corrections };
}

async function writeAgents(tx: Tx, projectId: string, pending: Pending[]) {
  const agentIds = new Set<string>();
  for (const { record: r } of pending) {
    if ('agentId' in r && r.agentId) agentIds.add(r.agentId);
    if (r.type === 'memory_event') agentIds.add(r.sourceAgent);
  }
  if (agentIds.size)
    await tx
      .insert(agents)
      .values([...agentIds].map((id) => ({ projectId, id })))
      .onConflictDoNothing();
}

/** Sessions: a declared session fills in one that turns created before it, once. */
async function writeSessions(tx: Tx, projectId: string, recs: Pending<Rec<'session'>>[], stored: Set<number>) {
  for (const chunk of chunks(firstOf(recs, (p) => p.record.id))) {
    const rows = await tx
      .insert(sessions)
      .values(
        chunk.map(({ record: r }) => ({
          projectId,
          id: r.id,
          agentId: r.agentId,
          title: r.title,
          domain: r.domain,
          metadata: r.metadata,
          extra: r.extra,
          declared: true,
        })),
      )
      .onConflictDoUpdate({
        target: [sessions.projectId, sessions.id],
        set: {
          agentId: sql`excluded.agent_id`,
          title: sql`excluded.title`,
          domain: sql`excluded.domain`,
          metadata: sql`excluded.metadata`,
          extra: sql`excluded.extra`,
          declared: sql`true`,
        },
        setWhere: sql`${sessions.declared} = false`,
      })
      .returning({ id: sessions.id });
    const ids = new Set(rows.map((r) => r.id));
    for (const p of chunk) if (ids.has(p.record.id)) stored.add(p.index);
  }
}

async function writeTurns(tx: Tx, projectId: string, recs: Pending<Rec<'turn'>>[], stored: Set<number>) {
  const turnRecs = firstOf(recs, (p) => `${p.record.sessionId}\u0000${p.record.turn}`);
  if (!turnRecs.length) return;
  const implicit = new Map<string, string>();
  for (const { record: r } of turnRecs) if (!implicit.has(r.sessionId)) implicit.set(r.sessionId, r.agentId);
  for (const chunk of chunks([...implicit])) {
    await tx
      .insert(sessions)
      .values(chunk.map(([id, agentId]) => ({ projectId, id, agentId })))
      .onConflictDoNothing();
  }
  // The sessions list's figures gain the turns newly stored (`session-stats.ts`), in this transaction.
  const added: Parameters<typeof addToSessionStats>[2] = [];
  // The hot path: one JSON parameter a batch, expanded by Postgres (jsonb_to_recordset), instead of
  // 18 bound parameters a row built by the query builder, which cost more CPU than the insert itself.
  // Measured here: 22k rows/s against 15k for a multi-row VALUES insert of the same rows.
  for (const chunk of chunks(turnRecs)) {
    const payload = `[${chunk.map((p) => p.row ?? turnRow(p.record)).join(',')}]`;
    const rows = rowsOf<{
      session_id: string;
      turn: number;
      ts: string | null;
      hallucination: number | null;
      drift: number | null;
      fc: number | null;
      ft: number | null;
      ut: number | null;
      uc: number | null;
      ul: number | null;
    }>(
      await tx.execute(sql`
        insert into ${turns} (project_id, session_id, turn, agent_id, input, output, ccs_raw, ccs, recalled,
                              qualified, footprint, judge, hallucination, drift, "timestamp", ts, extra, redactions)
        select ${projectId}, x.session_id, x.turn, x.agent_id, x.input, x.output, x.ccs_raw, x.ccs, x.recalled,
               x.qualified, x.footprint, x.judge, x.hallucination, x.drift, x."timestamp", x."timestamp"::timestamptz,
               x.extra, x.redactions
        from jsonb_to_recordset(${payload}::jsonb) as x(
          session_id text, turn int, agent_id text, input text, output text, ccs_raw jsonb, ccs jsonb,
          recalled jsonb, qualified jsonb, footprint jsonb, judge jsonb, hallucination float8, drift float8,
          "timestamp" text, extra jsonb, redactions jsonb)
        on conflict do nothing
        returning session_id, turn, to_jsonb(ts) #>> '{}' as ts, hallucination, drift,
                  (footprint->>'ccs')::float8 as fc, (footprint->>'transcript')::float8 as ft,
                  ${USAGE.tokens} as ut, ${USAGE.cost} as uc, ${USAGE.latency} as ul`),
    );
    for (const r of rows)
      added.push({
        sessionId: r.session_id,
        turn: Number(r.turn),
        ts: r.ts,
        hallucination: r.hallucination === null ? null : Number(r.hallucination),
        drift: r.drift === null ? null : Number(r.drift),
        ccs: r.fc === null ? null : Number(r.fc),
        transcript: r.ft === null ? null : Number(r.ft),
        tokens: r.ut === null ? null : Number(r.ut),
        cost: r.uc === null ? null : Number(r.uc),
        latency: r.ul === null ? null : Number(r.ul),
      });
    const keys = new Set(rows.map((r) => `${r.session_id}\u0000${r.turn}`));
    for (const p of chunk) if (keys.has(`${p.record.sessionId}\u0000${p.record.turn}`)) stored.add(p.index);
  }
  await addToSessionStats(tx, projectId, added);
  await notifyTurns(tx, projectId, new Set(added.map((a) => a.sessionId)));
}

async function writeArtifacts(tx: Tx, projectId: string, recs: Pending<Rec<'artifact'>>[], stored: Set<number>) {
  for (const chunk of chunks(firstOf(recs, (p) => p.record.id))) {
    const rows = await tx
      .insert(artifacts)
      .values(
        chunk.map(({ record: r }) => ({
          projectId,
          id: r.id,
          sessionId: r.sessionId,
          agentId: r.agentId,
          kind: r.kind,
          content: r.content,
          provenance: r.provenance,
          createdTurn: r.createdTurn,
          timestamp: r.timestamp,
          ts: r.timestamp,
          extra: r.extra,
          redactions: r.redactions,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: artifacts.id });
    markStored(
      rows.map((r) => r.id),
      chunk,
      (p) => p.record.id,
      stored,
    );
  }
}

async function writeMemoryEvents(tx: Tx, projectId: string, recs: Pending<Rec<'memory_event'>>[], stored: Set<number>) {
  for (const chunk of chunks(firstOf(recs, (p) => p.record.eventId))) {
    const rows = await tx
      .insert(memoryEvents)
      .values(chunk.map(({ record: r }) => ({ projectId, ...toMemoryEventRow(r), ts: r.timestamp })))
      .onConflictDoNothing()
      .returning({ eventId: memoryEvents.eventId });
    markStored(
      rows.map((r) => r.eventId),
      chunk,
      (p) => p.record.eventId,
      stored,
    );
    const added = new Set(rows.map((r) => r.eventId));
    const sessions = chunk.flatMap(({ record: r }) =>
      added.has(r.eventId) && r.sessionId !== null && r.turn !== null ? [r.sessionId] : [],
    );
    await notifyTurnEvents(tx, projectId, sessions);
  }
}

/** Sessions whose turns a correction replaced: their digests start again, their figures are counted again. */
export async function turnsReplaced(tx: Tx, projectId: string, sessionIds: Set<string>) {
  await forgetDigests(tx, projectId, sessionIds);
  await recountSessionStats(tx, projectId, sessionIds);
  await notifyTurns(tx, projectId, sessionIds);
}

/** The audit log: one row per batch, and one per record whose text had secrets redacted. */
async function writeAudit(
  tx: Tx,
  projectId: string,
  pending: Pending[],
  stored: Set<number>,
  actor: string,
  corrections: Map<number, Correction>,
) {
  const audit: (typeof auditLog.$inferInsert)[] = [];
  for (const p of pending) {
    const c = corrections.get(p.index);
    if (c?.superseded)
      audit.push({
        projectId,
        actor,
        action: 'record.supersede',
        subjectType: recordType(p.record),
        subjectId: p.id,
        detail: { fields: c.fields },
      });
  }
  for (const p of pending) {
    const r = p.record;
    if (!stored.has(p.index) || !('redactions' in r) || !r.redactions.length) continue;
    audit.push({
      projectId,
      actor,
      action: 'redact',
      subjectType: recordType(r),
      subjectId: p.id,
      detail: { redactions: r.redactions },
    });
  }
  const counts: Record<string, number> = {};
  for (const p of pending)
    if (stored.has(p.index)) counts[recordType(p.record)] = (counts[recordType(p.record)] ?? 0) + 1;
  // The request is the subject, by the id its answer's `x-request-id` and its log line carry (the count of records it
  // held read as an id); an import or another caller without a request is a batch.
  const requestId = currentRequestId();
  if (stored.size)
    audit.push({
      projectId,
      actor,
      action: 'ingest',
      subjectType: requestId ? 'request' : 'batch',
      subjectId: requestId ?? `${pending.length} records`,
      detail: { records: pending.length, stored: counts, duplicates: pending.length - stored.size },
    });
  for (const chunk of chunks(audit)) await tx.insert(auditLog).values(chunk);
}
