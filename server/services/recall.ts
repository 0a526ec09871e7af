import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { entryHref, eventHref } from '@/lib/pages';
import { rowsOf, type Tx } from '@/server/db';
import { artifacts, sessions, sessionStats, turns } from '@/server/db/schema/sessions';
import { memoryEntries, memoryEvents } from '@/server/db/schema/curation';
import { ucsAnnotations, ucsDeadEnds, ucsJudgments, ucsMethodology } from '@/server/db/schema/substrate';
import type { RecallItem } from '@/lib/recall/items';
import { InvalidInputError } from './errors';

/**
 * The recall corpus: every piece of memory text of a project as `RecallItem`s, in pages, for the
 * browser to index (keyword and vectors are computed there, so text is searched on the user's
 * machine). A page holds one kind; the cursor says which kind and where in it to go on.
 */
export interface CorpusCursor {
  /** The fetcher's name, not its place in the list: a cursor held across a deploy that adds one still means it. */
  kind: string;
  after: string[] | null;
}

export interface CorpusPage {
  items: RecallItem[];
  next: CorpusCursor | null;
}

const enc = encodeURIComponent;
const turnHref = (session: string, turn: number) => `/sessions/${enc(session)}?turn=${turn}`;

export type Fetcher = (
  db: Tx,
  projectId: string,
  after: string[] | null,
  limit: number,
) => Promise<{ items: RecallItem[]; last: string[] | null }>;

/**
 * Sessions by their titles (and ids: the label is searched too), so that a session is found by its name; its time is
 * its first turn's (the record's arrival without turns).
 */
const sessionsPage: Fetcher = async (db, projectId, after, limit) => {
  const rows = await db
    .select({
      id: sessions.id,
      agent: sessions.agentId,
      title: sessions.title,
      ts: sql<string>`coalesce(${sessionStats.firstAt}, ${sessions.createdAt})`,
    })
    .from(sessions)
    .leftJoin(
      sessionStats,
      and(eq(sessionStats.projectId, sessions.projectId), eq(sessionStats.sessionId, sessions.id)),
    )
    .where(and(eq(sessions.projectId, projectId), after ? gt(sessions.id, after[0]!) : undefined))
    .orderBy(asc(sessions.id))
    .limit(limit);
  return {
    items: rows.map((r) => ({
      id: `session:${r.id}`,
      kind: 'session',
      text: r.title?.trim() || r.id,
      label: r.title?.trim() ? r.id : null,
      agent: r.agent,
      session: r.id,
      scope: null,
      ts: isoOrNull(r.ts),
      href: `/sessions/${enc(r.id)}`,
    })),
    last: rows.length ? [rows.at(-1)!.id] : null,
  };
};

/** Turns and their CCS terms, whole sessions a page (a term's item opens the turn where it first appeared). */
const turnsAndTerms: Fetcher = async (db, projectId, after, limit) => {
  const counts = await db
    .select({ session: turns.sessionId, n: sql<number>`count(*)::int` })
    .from(turns)
    .where(and(eq(turns.projectId, projectId), after ? gt(turns.sessionId, after[0]!) : undefined))
    .groupBy(turns.sessionId)
    .orderBy(asc(turns.sessionId))
    .limit(200);
  const chosen: string[] = [];
  let total = 0;
  for (const c of counts) {
    if (chosen.length && total + c.n > limit) break;
    chosen.push(c.session);
    total += c.n;
  }
  if (!chosen.length) return { items: [], last: null };
  const rows = await db
    .select({
      session: turns.sessionId,
      turn: turns.turn,
      agent: turns.agentId,
      input: turns.input,
      output: turns.output,
      ccs: turns.ccs,
      ts: turns.ts,
    })
    .from(turns)
    .where(and(eq(turns.projectId, projectId), inArray(turns.sessionId, chosen)))
    .orderBy(asc(turns.sessionId), asc(turns.turn));
  const items: RecallItem[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    const ts = r.ts ? new Date(r.ts).toISOString() : null;
    items.push({
      id: `turn:${r.session}/${r.turn}`,
      kind: 'turn',
      text: `${r.input}\n${r.output}`,
      label: `turn ${r.turn}`,
      agent: r.agent,
      session: r.session,
      scope: null,
      ts,
      href: turnHref(r.session, r.turn),
    });
    for (const [field, terms] of Object.entries(r.ccs)) {
      for (const term of terms ?? []) {
        const key = `${r.session}\u0000${field}\u0000${term}`;
        if (seen.has(key) || term.length < 3) continue;
        seen.add(key);
        items.push({
          id: `ccs_term:${r.session}/${field}/${term}`,
          kind: 'ccs_term',
          text: term,
          label: field,
          agent: r.agent,
          session: r.session,
          scope: null,
          ts,
          href: turnHref(r.session, r.turn),
        });
      }
    }
  }
  return { items, last: [chosen.at(-1)!] };
};

const memoryEventsPage: Fetcher = async (db, projectId, after, limit) => {
  const rows = await db
    .select({
      id: memoryEvents.eventId,
      agent: memoryEvents.sourceAgent,
      kind: memoryEvents.kind,
      content: memoryEvents.content,
      scope: memoryEvents.suggestedScope,
      ts: memoryEvents.timestamp,
    })
    .from(memoryEvents)
    .where(and(eq(memoryEvents.projectId, projectId), after ? gt(memoryEvents.eventId, after[0]!) : undefined))
    .orderBy(asc(memoryEvents.eventId))
    .limit(limit);
  return {
    items: rows.map((r) => ({
      id: `memory_event:${r.id}`,
      kind: 'memory_event',
      text: r.content,
      label: r.kind,
      agent: r.agent,
      session: null,
      scope: r.scope,
      ts: isoOrNull(r.ts),
      href: eventHref(r.id),
    })),
    last: rows.length ? [rows.at(-1)!.id] : null,
  };
};

export const memoryEntriesPage: Fetcher = async (db, projectId, after, limit) => {
  const rows = await db
    .select({
      id: memoryEntries.id,
      kind: memoryEntries.kind,
      content: memoryEntries.content,
      scope: memoryEntries.scope,
      status: memoryEntries.status,
      ts: memoryEntries.updatedAt,
    })
    .from(memoryEntries)
    .where(and(eq(memoryEntries.projectId, projectId), after ? gt(memoryEntries.id, after[0]!) : undefined))
    .orderBy(asc(memoryEntries.id))
    .limit(limit);
  return {
    items: rows.map((r) => ({
      id: `memory_entry:${r.id}`,
      kind: 'memory_entry',
      text: r.content,
      label: `${r.kind} · ${r.status}`,
      agent: null,
      session: null,
      scope: r.scope,
      ts: r.ts.toISOString(),
      href: entryHref(r.id),
    })),
    last: rows.length ? [rows.at(-1)!.id] : null,
  };
};

export const artifactsPage: Fetcher = async (db, projectId, after, limit) => {
  const rows = await db
    .select({
      id: artifacts.id,
      session: artifacts.sessionId,
      agent: artifacts.agentId,
      kind: artifacts.kind,
      content: artifacts.content,
      turn: artifacts.createdTurn,
      ts: artifacts.ts,
    })
    .from(artifacts)
    .where(and(eq(artifacts.projectId, projectId), after ? gt(artifacts.id, after[0]!) : undefined))
    .orderBy(asc(artifacts.id))
    .limit(limit);
  return {
    items: rows.map((r) => ({
      id: `artifact:${r.id}`,
      kind: 'artifact',
      text: r.content,
      // The id is in the label so that searching it finds the artifact.
      label: r.kind ? `${r.kind} · ${r.id}` : r.id,
      agent: r.agent,
      session: r.session,
      scope: null,
      ts: r.ts ? new Date(r.ts).toISOString() : null,
      // Opens the first turn that recalled it, with the artifact marked (app/sessions/[id]/page.tsx).
      href: r.session ? `/sessions/${enc(r.session)}?artifact=${enc(r.id)}` : '/sessions',
    })),
    last: rows.length ? [rows.at(-1)!.id] : null,
  };
};

/** A fetcher over a UCS table keyed by (agent_id, id). */
function ucsPage<T extends { agent: string; id: string }>(
  query: (db: Tx, projectId: string, after: string[] | null, limit: number) => Promise<T[]>,
  toItem: (row: T) => RecallItem,
): Fetcher {
  return async (db, projectId, after, limit) => {
    const rows = await query(db, projectId, after, limit);
    return { items: rows.map(toItem), last: rows.length ? [rows.at(-1)!.agent, rows.at(-1)!.id] : null };
  };
}

const agentKeyAfter = (agentCol: unknown, idCol: unknown, after: string[] | null) =>
  after ? sql`(${agentCol}, ${idCol}) > (${after[0]!}, ${after[1]!})` : undefined;
const agentHref = (agent: string, rest = '') => `/substrate/${enc(agent)}${rest}`;

const deadEndsPage = ucsPage(
  (db, projectId, after, limit) =>
    db
      .select({
        agent: ucsDeadEnds.agentId,
        id: ucsDeadEnds.id,
        topic: ucsDeadEnds.topic,
        why: ucsDeadEnds.whyClosed,
        reopen: ucsDeadEnds.reopenConditions,
        date: ucsDeadEnds.date,
      })
      .from(ucsDeadEnds)
      .where(and(eq(ucsDeadEnds.projectId, projectId), agentKeyAfter(ucsDeadEnds.agentId, ucsDeadEnds.id, after)))
      .orderBy(asc(ucsDeadEnds.agentId), asc(ucsDeadEnds.id))
      .limit(limit),
  (r) => ({
    id: `dead_end:${r.agent}/${r.id}`,
    kind: 'dead_end',
    text: [r.topic, r.why, r.reopen ? `reopen if ${r.reopen}` : null].filter(Boolean).join('. '),
    label: r.topic,
    agent: r.agent,
    session: null,
    scope: null,
    ts: isoOrNull(r.date),
    href: agentHref(r.agent, `/dead-ends?focus=${enc(r.id)}`),
  }),
);

const methodologyPage = ucsPage(
  (db, projectId, after, limit) =>
    db
      .select({
        agent: ucsMethodology.agentId,
        id: ucsMethodology.id,
        summary: ucsMethodology.summary,
        date: ucsMethodology.date,
        source: ucsMethodology.sourceType,
      })
      .from(ucsMethodology)
      .where(
        and(eq(ucsMethodology.projectId, projectId), agentKeyAfter(ucsMethodology.agentId, ucsMethodology.id, after)),
      )
      .orderBy(asc(ucsMethodology.agentId), asc(ucsMethodology.id))
      .limit(limit),
  (r) => ({
    id: `methodology:${r.agent}/${r.id}`,
    kind: 'methodology',
    text: r.summary,
    label: r.source,
    agent: r.agent,
    session: null,
    scope: null,
    ts: isoOrNull(r.date),
    href: agentHref(r.agent, `/judgment?focus=${enc(r.id)}`),
  }),
);

const reflectionsPage = ucsPage(
  (db, projectId, after, limit) =>
    db
      .select({
        agent: ucsAnnotations.agentId,
        id: ucsAnnotations.artifactId,
        text: ucsAnnotations.text,
        failure: ucsAnnotations.failureCondition,
        pattern: ucsAnnotations.generalizedPattern,
        at: ucsAnnotations.annotatedAt,
      })
      .from(ucsAnnotations)
      .where(
        and(
          eq(ucsAnnotations.projectId, projectId),
          agentKeyAfter(ucsAnnotations.agentId, ucsAnnotations.artifactId, after),
        ),
      )
      .orderBy(asc(ucsAnnotations.agentId), asc(ucsAnnotations.artifactId))
      .limit(limit),
  (r) => ({
    id: `reflection:${r.agent}/${r.id}`,
    kind: 'reflection',
    text: [r.text, r.failure ? `fails when: ${r.failure}` : null, r.pattern ? `pattern: ${r.pattern}` : null]
      .filter(Boolean)
      .join('. '),
    label: r.pattern,
    agent: r.agent,
    session: null,
    scope: null,
    ts: isoOrNull(r.at),
    href: agentHref(r.agent, `?focus=${enc(r.id)}`),
  }),
);

const judgmentsPage = ucsPage(
  (db, projectId, after, limit) =>
    db
      .select({
        agent: ucsJudgments.agentId,
        id: ucsJudgments.id,
        action: ucsJudgments.action,
        outcome: ucsJudgments.outcome,
        ts: ucsJudgments.ts,
        task: sql<string | null>`${ucsJudgments.data}->'context'->>'task_description'`,
      })
      .from(ucsJudgments)
      .where(and(eq(ucsJudgments.projectId, projectId), agentKeyAfter(ucsJudgments.agentId, ucsJudgments.id, after)))
      .orderBy(asc(ucsJudgments.agentId), asc(ucsJudgments.id))
      .limit(limit),
  (r) => ({
    id: `judgment:${r.agent}/${r.id}`,
    kind: 'judgment',
    text: [r.task, r.action ? `chose ${r.action}` : null, r.outcome].filter(Boolean).join('. '),
    label: r.action,
    agent: r.agent,
    session: null,
    scope: null,
    ts: isoOrNull(r.ts),
    href: agentHref(r.agent, `/judgment?focus=${enc(r.id)}`),
  }),
);

const FETCHERS: [string, Fetcher][] = [
  ['session', sessionsPage],
  ['turn', turnsAndTerms],
  ['memory_event', memoryEventsPage],
  ['memory_entry', memoryEntriesPage],
  ['artifact', artifactsPage],
  ['dead_end', deadEndsPage],
  ['methodology', methodologyPage],
  ['reflection', reflectionsPage],
  ['judgment', judgmentsPage],
];

function isoOrNull(s: string | null): string | null {
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** One page of the corpus (about `limit` items; a page of turns holds whole sessions). Start with `cursor` null. */
export async function corpusPage(
  db: Tx,
  projectId: string,
  cursor: CorpusCursor | null,
  limit = 5000,
): Promise<CorpusPage> {
  const start = cursor ? FETCHERS.findIndex(([name]) => name === cursor.kind) : 0;
  if (start < 0) throw new InvalidInputError(`cursor.kind: no kind "${cursor!.kind}"`);
  for (let k = start, after = cursor?.after ?? null; k < FETCHERS.length; k++, after = null) {
    const [kind, fetch] = FETCHERS[k]!;
    const { items, last } = await fetch(db, projectId, after, limit);
    if (items.length) return { items, next: { kind, after: last } };
  }
  return { items: [], next: null };
}

/**
 * Changes whenever the corpus may have: row counts and newest ingest times of the tables it reads.
 * The browser polls it and fetches the corpus again only when it moved.
 */
export async function corpusVersion(db: Tx, projectId: string): Promise<string> {
  const r = await db.execute(sql`
    select concat_ws('/',
      -- A session named after its turns came (a session record filling in one that turns created) is counted again.
      (select count(*) || ':' || count(*) filter (where declared) from sessions where project_id = ${projectId}),
      (select count(*) || ':' || coalesce(max(ingested_at)::text, '') from turns where project_id = ${projectId}),
      (select count(*) || ':' || coalesce(max(received_at)::text, '') from memory_events
        where project_id = ${projectId}),
      (select count(*) || ':' || coalesce(max(updated_at)::text, '') from memory_entries
        where project_id = ${projectId}),
      (select count(*) || ':' || coalesce(max(ingested_at)::text, '') from artifacts where project_id = ${projectId}),
      (select count(*) from ucs_dead_ends where project_id = ${projectId}),
      (select count(*) from ucs_methodology where project_id = ${projectId}),
      (select count(*) from ucs_annotations where project_id = ${projectId}),
      (select count(*) from ucs_judgments where project_id = ${projectId}),
      -- A superseded record changes its text in place: the count of versions moves instead.
      (select count(*) from record_versions where project_id = ${projectId})
    ) as v`);
  return rowsOf<{ v: string }>(r)[0]?.v ?? '';
}
