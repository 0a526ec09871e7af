import { and, asc, desc, eq, ilike, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '@/server/db';
import { auditLog } from '@/server/db/schema/projects';
import {
  curationOutcomes,
  ingestBatches,
  memoryEntries,
  memoryEntryLinks,
  memoryEntryVersions,
  memoryEvents,
  proposals,
  rejectedEvents,
} from '@/server/db/schema/curation';
import { artifacts } from '@/server/db/schema/sessions';
import { memoryEventFieldsBut, pick, WINDOW_EVENTS } from '@/lib/curation/event';
import type { CurationReport } from '@/lib/curation/report';
import { mergeHealthDays, type HealthDay } from '@/lib/curation/health';
import { nearestInScope } from './curation-index';
import { curationPolicy, malformedOutcome, sameAmong } from './curation';
import { retrievalDays } from './curation-retrievals';
import { NotFoundError } from './errors';

/**
 * Read models of the curation pages: the inbox, one proposal with its context, the memory browser, reports,
 * audit, health.
 */

export interface InboxFilters {
  status?: 'pending' | 'approved' | 'rejected';
  scope?: string | null;
  kind?: string | null;
  agent?: string | null;
  confidence?: string | null;
}

/**
 * Where a list that grows while it is read (the inbox, the Events tab) goes on: the last row shown, by its sort time
 * as PostgreSQL prints it (to the microsecond; a JavaScript Date would round it) and its tie-breakers. Unlike an
 * offset, it neither repeats nor skips rows when rows are added or decided between pages.
 */
export interface Keyset {
  at: string;
  eventId: string;
  id?: string;
}

/**
 * One page of the review inbox (oldest pending first; decided ones newest first), after the row `after` when given.
 * The first page also says how many match the filters, the counts per facet of the status, and the totals per
 * status; the pages after it do not count again.
 */
export async function inbox(db: Tx, projectId: string, f: InboxFilters & { after?: Keyset | null; limit?: number }) {
  const status = f.status ?? 'pending';
  const limit = f.limit ?? 100;
  const filters = and(
    eq(proposals.projectId, projectId),
    eq(proposals.status, status),
    f.scope ? eq(proposals.scope, f.scope) : undefined,
    f.kind ? eq(proposals.kind, f.kind) : undefined,
    f.agent ? eq(proposals.sourceAgent, f.agent) : undefined,
    f.confidence ? eq(proposals.confidence, f.confidence) : undefined,
  );
  const sortAt = status === 'pending' ? proposals.createdAt : proposals.decidedAt;
  const a = f.after;
  const after = !a
    ? undefined
    : status === 'pending'
      ? sql`(${proposals.createdAt}, ${proposals.eventId}, ${proposals.id})
          > (${a.at}::timestamptz, ${a.eventId}, ${a.id ?? ZERO_UUID}::uuid)`
      : // Bounded first (<=), so an index on the time can start there.
        sql`${proposals.decidedAt} <= ${a.at}::timestamptz and (${proposals.decidedAt} < ${a.at}::timestamptz
          or (${proposals.eventId}, ${proposals.id}) > (${a.eventId}, ${a.id ?? ZERO_UUID}::uuid))`;
  const first = !a;
  const [rows, facets, totals, matching] = await Promise.all([
    db
      .select({
        id: proposals.id,
        eventId: proposals.eventId,
        operation: proposals.operation,
        scope: proposals.scope,
        kind: proposals.kind,
        content: proposals.content,
        confidence: proposals.confidence,
        sourceAgent: proposals.sourceAgent,
        reviewBecause: sql<string | null>`${proposals.rationale}->>'reviewBecause'`,
        conflicts: sql<number>`jsonb_array_length(${proposals.conflictsWith})::int`,
        createdAt: proposals.createdAt,
        decidedBy: proposals.decidedBy,
        decidedAt: proposals.decidedAt,
        decisionNote: proposals.decisionNote,
        sortAt: sql<string>`${sortAt}::text`,
      })
      .from(proposals)
      .where(and(filters, after))
      .orderBy(status === 'pending' ? asc(sortAt) : desc(sortAt), asc(proposals.eventId), asc(proposals.id))
      .limit(limit + 1),
    first
      ? db
          .select({
            scope: proposals.scope,
            kind: proposals.kind,
            agent: proposals.sourceAgent,
            confidence: proposals.confidence,
            n: sql<number>`count(*)::int`,
          })
          .from(proposals)
          .where(and(eq(proposals.projectId, projectId), eq(proposals.status, status)))
          .groupBy(proposals.scope, proposals.kind, proposals.sourceAgent, proposals.confidence)
      : null,
    first
      ? db
          .select({ status: proposals.status, n: sql<number>`count(*)::int` })
          .from(proposals)
          .where(eq(proposals.projectId, projectId))
          .groupBy(proposals.status)
      : null,
    first ? count(db, proposals, filters) : null,
  ]);
  const byFacet = (key: 'scope' | 'kind' | 'agent' | 'confidence') => {
    const m: Record<string, number> = {};
    for (const r of facets ?? []) if (r[key]) m[r[key]!] = (m[r[key]!] ?? 0) + r.n;
    return m;
  };
  const { items, last } = keysetPage(rows, limit);
  return {
    items,
    next: last ? { at: last.sortAt, eventId: last.eventId, id: last.id } : null,
    matching,
    facets: facets && {
      scope: byFacet('scope'),
      kind: byFacet('kind'),
      agent: byFacet('agent'),
      confidence: byFacet('confidence'),
    },
    totals: totals && (Object.fromEntries(totals.map((t) => [t.status, t.n])) as Record<string, number>),
  };
}

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/** The rows of a page (one more was read to learn whether another page follows) and, if one does, its last row. */
function keysetPage<T extends { sortAt: string }>(rows: T[], limit: number) {
  const items = rows.slice(0, limit).map(({ sortAt: _, ...r }) => r);
  return { items, last: rows.length > limit ? rows[limit - 1]! : null };
}

const entryColumns = {
  id: memoryEntries.id,
  scope: memoryEntries.scope,
  kind: memoryEntries.kind,
  content: memoryEntries.content,
  status: memoryEntries.status,
  version: memoryEntries.version,
  sourceEventId: memoryEntries.sourceEventId,
  updatedAt: memoryEntries.updatedAt,
};

/** A memory event as a reviewer reads it: every stored field but the raw JSON. */
const eventColumns = pick(memoryEvents, memoryEventFieldsBut('raw'));

/** A row of the Events tab: the longer fields are left out (evidence refs are counted). */
const eventRowColumns = pick(
  memoryEvents,
  memoryEventFieldsBut('ttl', 'evidenceRefs', 'requestContext', 'supersedes', 'conflictsWith', 'raw'),
);

/**
 * One proposal with everything a reviewer needs: the event as sent, the curator's steps, nearest and
 * conflicting entries.
 */
export async function proposalDetail(db: Db, projectId: string, id: string) {
  const [p] = await db
    .select()
    .from(proposals)
    .where(and(eq(proposals.projectId, projectId), eq(proposals.id, id)));
  if (!p) throw new NotFoundError('proposal', id);
  const [event] = await db
    .select(eventColumns)
    .from(memoryEvents)
    .where(and(eq(memoryEvents.projectId, projectId), eq(memoryEvents.eventId, p.eventId)));
  const linked = [...p.conflictsWith, ...(p.targetEntryId ? [p.targetEntryId] : [])];
  const named = linked.length
    ? await db
        .select(entryColumns)
        .from(memoryEntries)
        .where(and(eq(memoryEntries.projectId, projectId), inArray(memoryEntries.id, linked)))
    : [];
  const [targetArtifact] = p.targetArtifactId
    ? await db
        .select({
          id: artifacts.id,
          kind: artifacts.kind,
          content: artifacts.content,
          session: artifacts.sessionId,
          status: artifacts.status,
        })
        .from(artifacts)
        .where(and(eq(artifacts.projectId, projectId), eq(artifacts.id, p.targetArtifactId)))
    : [];
  // Once approved, the entry the proposal wrote (or merged into) holds its very words: not a neighbour of it.
  const written = p.status === 'approved' ? await writtenBy(db, projectId, p.eventId) : [];
  const nearest = await nearestInScope(db, projectId, p.content, p.scope, 5, { ids: written });
  return {
    proposal: p,
    event: event ?? null,
    target: named.find((e) => e.id === p.targetEntryId) ?? null,
    targetArtifact: targetArtifact ?? null,
    conflicting: named.filter((e) => p.conflictsWith.includes(e.id)),
    /** The entries its approval wrote or changed, left out of `nearest`. */
    written: [...new Set(written)],
    nearest,
    // A new entry waiting for review whose twin has been written since: approving it would be a second copy.
    sameAs:
      p.status === 'pending' && p.operation === 'append'
        ? sameAmong(p.content, nearest, await curationPolicy(db, projectId))
        : null,
  };
}

/**
 * Where proposals stand (pending, or who decided them and when): for a reviewer's browser to learn what became of
 * decisions it sent as a page closed, whose answers it never heard. Ids of other projects are not found here.
 */
export async function proposalStatuses(db: Db, projectId: string, ids: string[]) {
  if (!ids.length) return [];
  return db
    .select({
      id: proposals.id,
      status: proposals.status,
      decidedBy: proposals.decidedBy,
      decidedAt: proposals.decidedAt,
    })
    .from(proposals)
    .where(and(eq(proposals.projectId, projectId), inArray(proposals.id, ids)));
}

/** The entry an approved event wrote or merged into (its curation outcome's), if any. */
async function writtenBy(db: Db, projectId: string, eventId: string): Promise<string[]> {
  const rows = await db
    .select({ entryId: curationOutcomes.entryId })
    .from(curationOutcomes)
    .where(and(eq(curationOutcomes.projectId, projectId), eq(curationOutcomes.eventId, eventId)));
  return rows.flatMap((r) => (r.entryId ? [r.entryId] : []));
}

export interface EntryFilters {
  scope?: string | null;
  status?: string | null;
  query?: string | null;
}

/** One page of a project's entries, newest change first, with how many match and the counts per scope and status. */
export async function listEntries(db: Tx, projectId: string, f: EntryFilters & PageOpts) {
  const escape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
  const offset = f.offset ?? 0;
  const where = and(
    eq(memoryEntries.projectId, projectId),
    f.scope ? eq(memoryEntries.scope, f.scope) : undefined,
    f.status ? eq(memoryEntries.status, f.status) : undefined,
    f.query ? ilike(memoryEntries.content, `%${escape(f.query)}%`) : undefined,
  );
  const [items, counts, matching] = await Promise.all([
    db
      .select(entryColumns)
      .from(memoryEntries)
      .where(where)
      .orderBy(desc(memoryEntries.updatedAt), asc(memoryEntries.id))
      .limit(f.limit ?? 100)
      .offset(offset),
    db
      .select({ scope: memoryEntries.scope, status: memoryEntries.status, n: sql<number>`count(*)::int` })
      .from(memoryEntries)
      .where(eq(memoryEntries.projectId, projectId))
      .groupBy(memoryEntries.scope, memoryEntries.status),
    count(db, memoryEntries, where),
  ]);
  return { ...paged(items, matching, offset), counts };
}

/** An entry with its versions (oldest first), links, and provenance: the event and every decision about it. */
export async function entryDetail(db: Tx, projectId: string, id: string) {
  const [entry] = await db
    .select(entryColumns)
    .from(memoryEntries)
    .where(and(eq(memoryEntries.projectId, projectId), eq(memoryEntries.id, id)));
  if (!entry) throw new NotFoundError('memory entry', id);
  const [versions, links, decisions] = await Promise.all([
    db
      .select()
      .from(memoryEntryVersions)
      .where(eq(memoryEntryVersions.entryId, id))
      .orderBy(asc(memoryEntryVersions.version)),
    db
      .select({
        otherId: memoryEntryLinks.otherId,
        relation: memoryEntryLinks.relation,
        content: memoryEntries.content,
        status: memoryEntries.status,
        scope: memoryEntries.scope,
      })
      .from(memoryEntryLinks)
      .innerJoin(memoryEntries, eq(memoryEntries.id, memoryEntryLinks.otherId))
      .where(and(eq(memoryEntryLinks.projectId, projectId), eq(memoryEntryLinks.entryId, id))),
    db
      .select({
        eventId: curationOutcomes.eventId,
        disposition: curationOutcomes.disposition,
        reason: curationOutcomes.reason,
        decidedBy: curationOutcomes.decidedBy,
        decidedAt: curationOutcomes.decidedAt,
      })
      .from(curationOutcomes)
      .where(and(eq(curationOutcomes.projectId, projectId), eq(curationOutcomes.entryId, id)))
      .orderBy(asc(curationOutcomes.decidedAt)),
  ]);
  return { entry, versions, links, decisions };
}

/** A page of rows, how many there are in all, and where the next page starts (null after the last). */
export interface Paged<T> {
  items: T[];
  matching: number;
  next: number | null;
}

export interface PageOpts {
  offset?: number;
  limit?: number;
}

const paged = <T>(items: T[], matching: number, offset: number): Paged<T> => {
  const end = offset + items.length;
  return { items, matching, next: end < matching ? end : null };
};

type Counted =
  | typeof ingestBatches
  | typeof rejectedEvents
  | typeof memoryEntries
  | typeof proposals
  | typeof memoryEvents
  | typeof auditLog;
const count = async (db: Tx, table: Counted, where?: SQL) =>
  Number(
    (
      await db
        .select({ n: sql<number>`count(*)::int` })
        .from(table)
        .where(where)
    )[0]?.n ?? 0,
  );

/** Ingest batches that carried memory events, newest first, a page at a time. */
export async function listBatches(db: Tx, projectId: string, page: PageOpts = {}) {
  const offset = page.offset ?? 0;
  const rows = db
    .select({
      id: ingestBatches.id,
      actor: ingestBatches.actor,
      receivedAt: ingestBatches.receivedAt,
      events: ingestBatches.events,
      written: sql<number>`(select count(*)::int from ${curationOutcomes} o
        where o.batch_id = "ingest_batches"."id" and o.disposition = 'written')`,
      proposed: sql<number>`(select count(*)::int from ${curationOutcomes} o
        where o.batch_id = "ingest_batches"."id" and o.disposition = 'proposed')`,
      // As the report counts them (its "Rejected Events"): refused, duplicates and discarded alike.
      rejected: sql<number>`(select count(*)::int from ${curationOutcomes} o
        where o.batch_id = "ingest_batches"."id" and o.disposition in ('rejected', 'duplicate', 'discarded'))`,
    })
    .from(ingestBatches)
    .where(eq(ingestBatches.projectId, projectId))
    .orderBy(desc(ingestBatches.receivedAt), asc(ingestBatches.id))
    .limit(page.limit ?? 100)
    .offset(offset);
  const [items, matching] = await Promise.all([rows, count(db, ingestBatches, eq(ingestBatches.projectId, projectId))]);
  return paged(items, matching, offset);
}

/** The data of a curation report (the template's sections) for one ingest batch. */
export async function batchReport(db: Tx, projectId: string, batchId: string): Promise<CurationReport> {
  const [batch] = await db
    .select()
    .from(ingestBatches)
    .where(and(eq(ingestBatches.projectId, projectId), eq(ingestBatches.id, batchId)));
  if (!batch) throw new NotFoundError('ingest batch', batchId);
  const outcomes = await db
    .select({
      eventId: curationOutcomes.eventId,
      disposition: curationOutcomes.disposition,
      scope: curationOutcomes.scope,
      kind: curationOutcomes.kind,
      reason: curationOutcomes.reason,
      rationale: curationOutcomes.rationale,
      entryId: curationOutcomes.entryId,
    })
    .from(curationOutcomes)
    .where(and(eq(curationOutcomes.projectId, projectId), eq(curationOutcomes.batchId, batchId)))
    .orderBy(asc(curationOutcomes.eventId));
  const eventIds = outcomes.map((o) => o.eventId);
  const redactions = eventIds.length
    ? await db
        .select({ eventId: memoryEvents.eventId, redactions: memoryEvents.redactions })
        .from(memoryEvents)
        .where(and(eq(memoryEvents.projectId, projectId), inArray(memoryEvents.eventId, eventIds)))
    : [];
  const decided = await db
    .select({ eventId: proposals.eventId, status: proposals.status, decidedBy: proposals.decidedBy })
    .from(proposals)
    .where(and(eq(proposals.projectId, projectId), eq(proposals.batchId, batchId)));
  const statusOf = new Map(
    decided.map((d) => [d.eventId, d.status === 'pending' ? 'pending' : `${d.status} by ${d.decidedBy}`]),
  );
  const audit = await db
    .select({
      at: auditLog.at,
      actor: auditLog.actor,
      action: auditLog.action,
      subjectId: auditLog.subjectId,
      eventId: sql<string | null>`${auditLog.detail}->>'eventId'`,
      reason: sql<string | null>`${auditLog.detail}->>'reason'`,
      edited: sql<string[] | null>`${auditLog.detail}->'edited'`,
    })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.projectId, projectId),
        sql`${auditLog.detail}->>'batchId' = ${batchId}`,
        sql`${auditLog.action} not like 'curate.%'`,
      ),
    );
  const op = (o: (typeof outcomes)[number]) => (o.rationale as { operation?: string }).operation ?? null;
  // What a reviewer changed before approving (the scope, the content…): the report says the proposal as decided.
  const editedOf = new Map(audit.flatMap((a) => (a.eventId && a.edited?.length ? [[a.eventId, a.edited]] : [])));
  return {
    batchId,
    receivedAt: batch.receivedAt.toISOString(),
    actor: batch.actor,
    received: batch.events,
    written: outcomes
      .filter((o) => o.disposition === 'written')
      .map((o) => ({
        eventId: o.eventId,
        scope: o.scope ?? '',
        kind: o.kind ?? '',
        action: op(o) ?? 'append',
        target: o.entryId ?? '',
      })),
    proposed: outcomes
      .filter((o) => o.disposition === 'proposed')
      .map((o) => ({
        eventId: o.eventId,
        scope: o.scope ?? '',
        kind: o.kind ?? '',
        because: (o.reason ?? '').replace(/^proposal queued: /, ''),
        status:
          (statusOf.get(o.eventId) ?? 'pending') +
          (editedOf.get(o.eventId) ? `, with ${editedOf.get(o.eventId)!.join(', ')} edited` : ''),
      })),
    rejected: outcomes
      .filter((o) => ['rejected', 'duplicate', 'discarded'].includes(o.disposition))
      .map((o) => ({ eventId: o.eventId, disposition: o.disposition, reason: o.reason ?? '' })),
    redactions: redactions.flatMap((r) =>
      r.redactions.map((x) => ({ eventId: r.eventId, redaction: `${x.count} × ${x.type} at ${x.path || 'event'}` })),
    ),
    conflicts: outcomes
      .filter((o) => ((o.rationale as { conflictsWith?: string[] }).conflictsWith ?? []).length)
      .map((o) => ({
        eventId: o.eventId,
        conflictsWith: ((o.rationale as { conflictsWith?: string[] }).conflictsWith ?? []).join(', '),
        resolution: o.disposition === 'proposed' ? 'review: keep both and link, or reject' : 'both kept and linked',
      })),
    // A deprecation whose target is not stored here is kept as an entry (the curator's write step says so).
    deprecations: outcomes
      .filter((o) => op(o) === 'deprecate' || (o.kind === 'deprecation' && o.disposition !== 'rejected'))
      .map((o) => ({
        eventId: o.eventId,
        target:
          op(o) === 'deprecate'
            ? (((o.rationale as { targetEntryId?: string }).targetEntryId ?? '') as string)
            : o.disposition === 'proposed'
              ? '(not stored here: would be kept as an entry)'
              : '(not stored here: kept as an entry)',
      })),
    notes: audit.map(
      (a) =>
        `${a.at.toISOString()} ${a.actor} ${a.action.replace('proposal.', '')} ${a.subjectId}` +
        (a.eventId ? ` (event ${a.eventId})` : '') +
        (a.edited?.length ? `, with ${a.edited.join(', ')} edited` : '') +
        (a.reason ? `: ${a.reason}` : ''),
    ),
  };
}

export interface AuditFilters {
  action?: string | null;
  actor?: string | null;
  subject?: string | null;
  before?: number | null;
  limit?: number;
}

export async function auditPage(db: Tx, projectId: string, f: AuditFilters) {
  const matches = and(
    eq(auditLog.projectId, projectId),
    f.action ? ilike(auditLog.action, `${f.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
    f.actor ? eq(auditLog.actor, f.actor) : undefined,
    f.subject ? eq(auditLog.subjectId, f.subject) : undefined,
  );
  const limit = f.limit ?? 100;
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(matches, f.before ? lt(auditLog.id, f.before) : undefined))
    .orderBy(desc(auditLog.id))
    .limit(limit + 1);
  const [matching, actions, actors] = await Promise.all([
    count(db, auditLog, matches),
    db.selectDistinct({ v: auditLog.action }).from(auditLog).where(eq(auditLog.projectId, projectId)),
    db.selectDistinct({ v: auditLog.actor }).from(auditLog).where(eq(auditLog.projectId, projectId)),
  ]);
  return {
    rows: rows.slice(0, limit),
    next: rows.length > limit ? rows[limit - 1]!.id : null,
    /** Records that match the filters, on every page. */
    matching,
    actions: actions.map((a) => a.v).sort(),
    actors: actors.map((a) => a.v).sort(),
  };
}

/** Malformed memory events with their reasons, newest first, a page at a time. */
export async function listRejectedEvents(db: Tx, projectId: string, page: PageOpts = {}) {
  const offset = page.offset ?? 0;
  const where = eq(rejectedEvents.projectId, projectId);
  const [items, matching] = await Promise.all([
    db
      .select()
      .from(rejectedEvents)
      .where(where)
      .orderBy(desc(rejectedEvents.receivedAt), asc(rejectedEvents.id))
      .limit(page.limit ?? 100)
      .offset(offset),
    count(db, rejectedEvents, where),
  ]);
  return paged(items, matching, offset);
}

/**
 * The curation metrics of the curator paper ("Self-Evolving Agents Hallucinate at Scale: A Provable Memory
 * Curator Architecture") that can be computed from what is stored, per day: approval and
 * rejection rates of reviewed proposals (M-), routing accuracy and scope leakage measured on the reviewers' decisions
 * as labels (M1: approved in the curator's scope; M2: approved after the reviewer moved the scope, a leak the review
 * caught), evidence sufficiency (M3: events that passed the evidence check without demotion, of those that reached
 * it), redundancy (M4: duplicates among curated events), conflicts
 * (M5, detected), curator latency per event (M7, p50 / p95), and the counts of retrieval F1 (M6) from reviewers'
 * labels on agents' searches (curation-retrievals.ts), by the day of the search.
 */
export async function curationHealth(db: Tx, projectId: string): Promise<HealthDay[]> {
  // M1 and M2 judge the curator's routing, so only its own proposals count (not deprecations raised in the hygiene
  // lab, whose events are `hygiene_…`). A scope a reviewer moved is a leak caught when the new scope has fewer
  // readers (the five layers, widest first: user_identity, team_memory, project, agent_repo, session; discard none).
  const rank = (col: SQL) =>
    sql`case ${col} when 'user_identity' then 5 when 'team_memory' then 4 when 'agent_team' then 4
      when 'project' then 3 when 'agent_repo' then 2 when 'session' then 1 else 0 end`;
  const curation = db.execute(sql`
    with o as (
      select date_trunc('day', c.decided_at) as day, c.disposition, c.decided_by, c.latency_ms, c.rationale,
        c.event_id like ${'hygiene\\_%'} as lab,
        exists (select 1 from memory_events m where m.project_id = c.project_id and m.event_id = c.event_id)
          as received,
        coalesce(c.rationale->'edited', '[]'::jsonb) @> '["scope"]'::jsonb as moved,
        coalesce(${rank(sql`c.scope`)} < ${rank(sql`p.scope`)}, false) as narrower
      from curation_outcomes c
      left join lateral (select scope from curation_outcomes q where q.project_id = c.project_id
        and q.event_id = c.event_id and q.decided_by = 'curator' and q.disposition = 'proposed'
        order by q.decided_at limit 1) p on true
      where c.project_id = ${projectId}
      -- A deprecation raised in the hygiene lab: a proposal no curator routed (no outcome), on the day raised.
      union all
      select date_trunc('day', r.created_at), 'raised', 'hygiene lab', null, null, true, false, false, false
      from proposals r where r.project_id = ${projectId} and r.event_id like ${'hygiene\\_%'}
    )
    select to_char(day, 'YYYY-MM-DD') as day,
      count(*) filter (where decided_by = 'curator')::int as curated,
      count(*) filter (where decided_by = 'curator' and received)::int as received,
      count(*) filter (where disposition = 'raised')::int as raised,
      count(*) filter (where disposition = 'written')::int as written,
      count(*) filter (where disposition = 'proposed')::int as proposed,
      count(*) filter (where disposition = 'rejected' and decided_by = 'curator')::int as rejected,
      count(*) filter (where disposition = 'duplicate')::int as duplicates,
      count(*) filter (where disposition = 'discarded')::int as discarded,
      count(*) filter (where disposition = 'approved')::int as approved,
      count(*) filter (where disposition = 'rejected' and decided_by <> 'curator')::int as declined,
      count(*) filter (where decided_by <> 'curator' and disposition in ('approved', 'rejected') and not lab)::int
        as reviewed,
      count(*) filter (where disposition = 'approved' and not lab and not moved)::int as scope_kept,
      count(*) filter (where disposition = 'approved' and not lab and moved and narrower)::int as scope_moved,
      count(*) filter (where disposition = 'approved' and not lab and moved and not narrower)::int as scope_widened,
      count(*) filter (where decided_by = 'curator'
        and rationale->'steps' @> '[{"step":"evidence"}]')::int as evidence_checked,
      count(*) filter (where decided_by = 'curator'
        and rationale->'steps' @> '[{"step":"evidence","outcome":"demoted"}]')::int as demoted,
      count(*) filter (where decided_by = 'curator'
        and rationale->'steps' @> '[{"step":"evidence","outcome":"insufficient"}]')::int as insufficient,
      count(*) filter (where jsonb_array_length(coalesce(rationale->'conflictsWith', '[]'::jsonb)) > 0)::int
        as conflicts,
      percentile_cont(0.5) within group (order by latency_ms) as p50,
      percentile_cont(0.95) within group (order by latency_ms) as p95
    from o group by day order by day`);
  const [r, retrieval] = await Promise.all([curation, retrievalDays(db, projectId)]);
  return mergeHealthDays(rowsOf<Parameters<typeof mergeHealthDays>[0][number]>(r), retrieval);
}

/**
 * How often memory events are sent: the events stored and the days (UTC, by each event's own timestamp) on which any
 * was sent, for the simulator's λ. Not by the day the curator decided them: a backlog or an import curates many days
 * of events at once.
 */
export async function eventDays(db: Tx, projectId: string): Promise<{ events: number; days: number }> {
  const [r] = rowsOf<{ events: number; days: number }>(
    await db.execute(sql`select count(*)::int as events,
        count(distinct date_trunc('day', ts at time zone 'UTC'))::int as days
      from memory_events where project_id = ${projectId}`),
  );
  return { events: r?.events ?? 0, days: r?.days ?? 0 };
}

const eventRow = { ...eventRowColumns, evidenceCount: sql<number>`jsonb_array_length(${memoryEvents.evidenceRefs})` };

/**
 * One page of the incoming memory events, newest first (the Events tab), of one kind or all, after the row `after`
 * when given. The first page also carries how many match, the counts per kind and of those with secrets redacted, and
 * the event a link points at (`focus`) wherever it is, if it is of the kind shown.
 */
export async function listEvents(
  db: Tx,
  projectId: string,
  f: { kind?: string | null; focus?: string | null; after?: Keyset | null; limit?: number } = {},
) {
  const limit = f.limit ?? 100;
  const mine = eq(memoryEvents.projectId, projectId);
  const where = and(mine, f.kind ? eq(memoryEvents.kind, f.kind) : undefined);
  const a = f.after;
  const after = a
    ? sql`${memoryEvents.ts} <= ${a.at}::timestamptz
        and (${memoryEvents.ts} < ${a.at}::timestamptz or ${memoryEvents.eventId} > ${a.eventId})`
    : undefined;
  const first = !a;
  const [rows, matching, kinds, redacted, focused] = await Promise.all([
    db
      .select({ ...eventRow, sortAt: sql<string>`${memoryEvents.ts}::text` })
      .from(memoryEvents)
      .where(and(where, after))
      // As memory_events_ts_idx orders them.
      .orderBy(sql`${memoryEvents.ts} desc nulls last`, asc(memoryEvents.eventId))
      .limit(limit + 1),
    first ? count(db, memoryEvents, where) : null,
    first
      ? db
          .select({ kind: memoryEvents.kind, n: sql<number>`count(*)::int` })
          .from(memoryEvents)
          .where(mine)
          .groupBy(memoryEvents.kind)
          .orderBy(memoryEvents.kind)
      : null,
    first
      ? db
          .select({ n: sql<number>`count(*)::int` })
          .from(memoryEvents)
          .where(and(mine, sql`jsonb_array_length(${memoryEvents.redactions}) > 0`))
      : null,
    first && f.focus
      ? db
          .select(eventRow)
          .from(memoryEvents)
          .where(and(where, eq(memoryEvents.eventId, f.focus)))
      : null,
  ]);
  const { items: page, last } = keysetPage(rows, limit);
  const focusedRow = focused?.[0] ?? null;
  const outcome = await outcomesOf(
    db,
    projectId,
    [...page, ...(focusedRow ? [focusedRow] : [])].map((e) => e.eventId),
  );
  const withOutcome = <E extends { eventId: string }>(e: E) => ({ ...e, outcome: outcome.get(e.eventId) ?? null });
  const items = page.map(withOutcome);
  return {
    items,
    next: last ? { at: last.sortAt, eventId: last.eventId } : null,
    matching,
    kinds,
    total: kinds && kinds.reduce((n, k) => n + k.n, 0),
    redacted: redacted && (redacted[0]?.n ?? 0),
    focused: focusedRow && withOutcome(focusedRow),
  };
}

/**
 * The memory events an agent emitted at the turns of one window of a session (by position, as the replay fetches its
 * turns), in turn order, each with what became of it; past `WINDOW_EVENTS`, the turns from `listedBefore` on are
 * left out whole (a turn is never shown with part of its events).
 */
export async function eventsInWindow(db: Tx, projectId: string, sessionId: string, offset: number, limit: number) {
  // The window's first and last turn, read in one pass, and only for a session whose agent named any turn (most
  // sessions: none, answered from the index alone).
  const [range] = rowsOf<{ lo: number | null; hi: number | null }>(
    await db.execute(sql`select min(turn) as lo, max(turn) as hi from (select turn from turns
        where project_id = ${projectId} and session_id = ${sessionId} order by turn offset ${offset} limit ${limit}) w
      where exists (select 1 from memory_events
        where project_id = ${projectId} and session_id = ${sessionId} and turn is not null)`),
  );
  if (range?.lo == null || range.hi == null) return { items: [], listedBefore: null };
  const rows = await db
    .select(eventRow)
    .from(memoryEvents)
    .where(
      and(
        eq(memoryEvents.projectId, projectId),
        eq(memoryEvents.sessionId, sessionId),
        sql`${memoryEvents.turn} between ${Number(range.lo)} and ${Number(range.hi)}`,
      ),
    )
    // As memory_events_turn_idx orders them, then as sent.
    .orderBy(asc(memoryEvents.turn), asc(memoryEvents.ts), asc(memoryEvents.eventId))
    .limit(WINDOW_EVENTS + 1);
  const items = rows.slice(0, WINDOW_EVENTS);
  const outcome = await outcomesOf(
    db,
    projectId,
    items.map((e) => e.eventId),
  );
  // Past the cap, the turns before the first event left out are listed whole; that turn and those after it are not.
  const firstLeft = rows.length > WINDOW_EVENTS ? rows[WINDOW_EVENTS]!.turn : null;
  const lastShown = items.filter((e) => firstLeft === null || e.turn! < firstLeft);
  return {
    items: lastShown.map((e) => ({ ...e, outcome: outcome.get(e.eventId) ?? null })),
    /** The first turn whose events are not all listed (null: every turn's are). */
    listedBefore: firstLeft,
  };
}

/** What became of an event as the Events tab shows it: its latest outcome and the proposal that asks a reviewer. */
export interface EventOutcome {
  disposition: string;
  reason: string | null;
  /** Where and as what the curator put it (it may differ from what the agent asked); null where it put nothing. */
  scope: string | null;
  kind: string | null;
  /** The entry it wrote, or for a duplicate the entry that says it already. */
  entryId: string | null;
  proposalId: string | null;
  proposalStatus: string | null;
}

/**
 * The latest outcome of each event (not a malformed version's, refused under the same id before it), as
 * `GET /api/v1/memory-events/{id}` answers it, with its latest proposal. Events the curator has not run on have none.
 */
async function outcomesOf(db: Tx, projectId: string, ids: string[]): Promise<Map<string, EventOutcome>> {
  if (!ids.length) return new Map();
  const [outcomes, asked] = await Promise.all([
    db
      .selectDistinctOn([curationOutcomes.eventId], {
        eventId: curationOutcomes.eventId,
        disposition: curationOutcomes.disposition,
        reason: curationOutcomes.reason,
        scope: curationOutcomes.scope,
        kind: curationOutcomes.kind,
        entryId: curationOutcomes.entryId,
        // A duplicate's entry is the one that says it already.
        duplicateOf: sql<string | null>`${curationOutcomes.rationale}->>'targetEntryId'`,
      })
      .from(curationOutcomes)
      .where(
        and(
          eq(curationOutcomes.projectId, projectId),
          inArray(curationOutcomes.eventId, ids),
          sql`not ${malformedOutcome(sql`${curationOutcomes.rationale}`)}`,
        ),
      )
      .orderBy(curationOutcomes.eventId, desc(curationOutcomes.decidedAt), desc(curationOutcomes.id)),
    db
      .selectDistinctOn([proposals.eventId], { eventId: proposals.eventId, id: proposals.id, status: proposals.status })
      .from(proposals)
      .where(and(eq(proposals.projectId, projectId), inArray(proposals.eventId, ids)))
      .orderBy(proposals.eventId, desc(proposals.createdAt)),
  ]);
  const proposal = new Map(asked.map((p) => [p.eventId, p]));
  return new Map(
    outcomes.map((o) => [
      o.eventId!,
      {
        disposition: o.disposition,
        reason: o.reason,
        scope: o.scope,
        kind: o.kind,
        entryId: o.entryId ?? (o.disposition === 'duplicate' ? o.duplicateOf : null),
        proposalId: proposal.get(o.eventId!)?.id ?? null,
        proposalStatus: proposal.get(o.eventId!)?.status ?? null,
      },
    ]),
  );
}
