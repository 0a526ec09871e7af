import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { CONFIDENCES, MEMORY_KINDS, SCOPES, agentlasEventSchema } from '@/lib/ingest/contract';
import { newEventId } from '@/lib/sdk/producers';
import { wouldReopen } from '@/lib/ucs/reopen';
import { rowsOf, type Db } from '@/server/db';
import { curationOutcomes, proposals } from '@/server/db/schema/memory';
import { sessions, turns } from '@/server/db/schema/sessions';
import { ingest } from './ingest';
import { listDeadEnds } from './ucs';

/**
 * The MCP server agents talk to (mounted at /api/v1/mcp, streamable HTTP, one per request): the
 * Memory Curator paper's default integration. Each tool acts in the API key's project only.
 * Arguments are validated by the SDK against the schemas below (an MCP error names the field); a tool
 * that fails answers `isError` with the reason, never a crash.
 */
export const MCP_TOOLS = ['submit_memory_event', 'search_memory', 'get_session_state', 'list_dead_ends'] as const;

/** What each tool does, as MCP clients (and the Connect page) show it. */
export const MCP_TOOL_DOCS: Record<(typeof MCP_TOOLS)[number], string> = {
  submit_memory_event:
    'Proposes a durable memory to the curator. It is validated, redacted, checked for safety, evidence, duplicates and conflicts, then written, queued for human review, or rejected. Returns the disposition and the reason.',
  search_memory:
    'Keyword search (Postgres full text, English stemming) over the project’s durable memory entries and its artifact store. All words must match; when nothing does, any word may. Semantic search runs in the Mnemoscope browser UI.',
  get_session_state: 'The latest Compressed Cognitive State of a session (or the one committed at a given turn), with the turn it belongs to and its H_t / D_t.',
  list_dead_ends:
    'What the agent learned does not work: each dead end with why it was closed and the conditions that would reopen it. Give `situation` (what you are about to try, or what changed) to see which dead ends it touches.',
};

const A = agentlasEventSchema.shape;

/** The Agentlas memory event, with what a tool caller need not fill in made optional. */
const memoryEventArgs = {
  content: A.content.describe('The memory itself, one statement (≤ 1200 characters). Secrets are redacted before storage.'),
  memory_kind: A.memory_kind.describe(`One of ${MEMORY_KINDS.join(', ')}.`),
  suggested_scope: A.suggested_scope.describe(`Where it belongs: ${SCOPES.join(', ')}.`),
  source_agent: A.source_agent.describe('The agent emitting the event.'),
  task_id: A.task_id.describe('The task the agent was working on.'),
  confidence: A.confidence.optional().describe(`${CONFIDENCES.join(', ')} (default medium).`),
  evidence_refs: A.evidence_refs.optional().describe('Evidence: "commit:<sha>", "file:<path>", "message:<id>" or "url:<url>". Facts, decisions and procedures without evidence are rejected.'),
  sensitivity: A.sensitivity.optional().describe('public, internal (default), private, confidential or secret (secret is never stored).'),
  ttl: A.ttl.optional().describe('durable (default), until_milestone, session or discard.'),
  event_id: A.event_id.optional().describe('memevt_… id; give the same one when retrying so the event is not stored twice. Generated when absent.'),
  timestamp: A.timestamp.optional(),
  project_id: A.project_id,
  agent_repo: A.agent_repo,
  team_id: A.team_id,
  request_context: A.request_context,
  supersedes: A.supersedes,
  conflicts_with: A.conflicts_with,
  human_review_required: A.human_review_required,
};

type ToolResult = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

const ok = (value: Record<string, unknown>): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value });
const fail = (message: string): ToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/** Runs a tool body; whatever it throws becomes an `isError` result naming the reason. */
async function guard(f: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await f();
  } catch (e) {
    const err = e as Error & { cause?: Error };
    return fail(`failed: ${(err.cause?.message ?? err.message).split('\n')[0]}`);
  }
}

export function createMcpServer(db: Db, projectId: string, actor: string): McpServer {
  const server = new McpServer({ name: 'mnemoscope', version: '0.1.0' }, { instructions: 'Mnemoscope holds this project’s agent memory. Submit durable memory through submit_memory_event; check list_dead_ends before retrying an approach.' });

  server.registerTool(
    'submit_memory_event',
    {
      title: 'Submit a memory event',
      description: MCP_TOOL_DOCS.submit_memory_event,
      inputSchema: memoryEventArgs,
      annotations: { idempotentHint: true, destructiveHint: false },
    },
    (args) =>
      guard(async () => {
        const event = {
          confidence: 'medium',
          sensitivity: 'internal',
          ttl: 'durable',
          evidence_refs: [],
          ...Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)),
          event_id: args.event_id ?? newEventId(),
          timestamp: args.timestamp ?? new Date().toISOString(),
        };
        const summary = await ingest(db, projectId, [{ ok: true, value: { type: 'memory_event', data: event } }], actor);
        const r = summary.results[0]!;
        if (r.status === 'rejected') return fail(`memory event rejected: ${r.errors.map((e) => `${e.path || '(event)'}: ${e.message}`).join('; ')}`);
        return ok({ event_id: event.event_id, stored: r.status, ...(await disposition(db, projectId, event.event_id)) });
      }),
  );

  server.registerTool(
    'search_memory',
    {
      title: 'Search memory',
      description: MCP_TOOL_DOCS.search_memory,
      inputSchema: {
        query: z.string().trim().min(1, 'must not be empty').max(500),
        limit: z.number().int().min(1).max(50).optional().describe('At most this many results (default 10).'),
        include_deprecated: z.boolean().optional().describe('Also search deprecated entries and records (default false).'),
      },
      annotations: { readOnlyHint: true },
    },
    ({ query, limit, include_deprecated }) => guard(async () => ok({ query, results: await searchMemory(db, projectId, query, limit ?? 10, include_deprecated ?? false) })),
  );

  server.registerTool(
    'get_session_state',
    {
      title: 'Get session state',
      description: MCP_TOOL_DOCS.get_session_state,
      inputSchema: {
        session_id: z.string().trim().min(1).max(256),
        turn: z.number().int().nonnegative().optional().describe('A turn number; default the latest.'),
      },
      annotations: { readOnlyHint: true },
    },
    ({ session_id, turn }) =>
      guard(async () => {
        const state = await sessionState(db, projectId, session_id, turn);
        return state ? ok(state) : fail(turn === undefined ? `session ${JSON.stringify(session_id)} not found or has no turns` : `session ${JSON.stringify(session_id)} has no turn ${turn}`);
      }),
  );

  server.registerTool(
    'list_dead_ends',
    {
      title: 'List dead ends',
      description: MCP_TOOL_DOCS.list_dead_ends,
      inputSchema: {
        agent: z.string().trim().min(1).max(256).optional().describe('A UCS agent id; default every agent of the project.'),
        situation: z.string().max(2000).optional(),
      },
      annotations: { readOnlyHint: true },
    },
    ({ agent, situation }) => guard(async () => ok(await deadEnds(db, projectId, agent, situation))),
  );

  return server;
}

/** What the curator made of an event: its latest outcome, and the proposal when it waits for review. */
async function disposition(db: Db, projectId: string, eventId: string) {
  const [o] = await db
    .select({ disposition: curationOutcomes.disposition, scope: curationOutcomes.scope, kind: curationOutcomes.kind, reason: curationOutcomes.reason, entryId: curationOutcomes.entryId })
    .from(curationOutcomes)
    .where(and(eq(curationOutcomes.projectId, projectId), eq(curationOutcomes.eventId, eventId)))
    .orderBy(desc(curationOutcomes.decidedAt))
    .limit(1);
  if (!o) return { disposition: 'pending_curation', reason: 'stored; the curator has not decided yet (it runs again at the next start)' };
  const [p] = await db
    .select({ id: proposals.id, status: proposals.status })
    .from(proposals)
    .where(and(eq(proposals.projectId, projectId), eq(proposals.eventId, eventId)))
    .orderBy(desc(proposals.createdAt))
    .limit(1);
  return {
    disposition: o.disposition,
    reason: o.reason,
    scope: o.scope,
    kind: o.kind,
    entry_id: o.entryId,
    ...(p ? { proposal_id: p.id, proposal_status: p.status, review_url: `/curation?proposal=${p.id}` } : {}),
    ...(o.entryId ? { entry_url: `/curation/memory?entry=${o.entryId}` } : {}),
  };
}

export async function searchMemory(db: Db, projectId: string, query: string, limit: number, includeDeprecated: boolean) {
  const run = (tsquery: ReturnType<typeof sql>) =>
    db.execute(sql`
      with q as (select ${tsquery} as q)
      select * from (
        select 'memory_entry' as source, e.id::text as id, e.scope, e.kind, e.status, e.content, e.updated_at as at,
               ts_rank(to_tsvector('english', e.content), q.q) as score
          from memory_entries e, q
         where e.project_id = ${projectId} and to_tsvector('english', e.content) @@ q.q
           and (${includeDeprecated} or e.status in ('active', 'in_conflict'))
        union all
        select 'artifact', a.id, null, a.kind, null, a.content, coalesce(a.ts, a.ingested_at),
               ts_rank(to_tsvector('english', a.content), q.q)
          from artifacts a, q
         where a.project_id = ${projectId} and to_tsvector('english', a.content) @@ q.q
           and (${includeDeprecated} or a.status = 'active')
      ) hits
      order by score desc, at desc
      limit ${limit}`);
  type Hit = { source: string; id: string; scope: string | null; kind: string | null; status: string | null; content: string; score: number };
  let rows = rowsOf<Hit>(await run(sql`websearch_to_tsquery('english', ${query})`));
  let match = 'all words';
  if (!rows.length) {
    rows = rowsOf<Hit>(await run(sql`nullif(replace(plainto_tsquery('english', ${query})::text, '&', '|'), '')::tsquery`));
    match = 'any word';
  }
  return rows.map((r) => ({
    source: r.source,
    id: r.id,
    ...(r.scope ? { scope: r.scope } : {}),
    ...(r.kind ? { kind: r.kind } : {}),
    ...(r.status ? { status: r.status } : {}),
    content: r.content.length > 1000 ? `${r.content.slice(0, 1000)}…` : r.content,
    score: Number(Number(r.score).toFixed(4)),
    match,
    url: r.source === 'memory_entry' ? `/curation/memory?entry=${r.id}` : undefined,
  }));
}

export async function sessionState(db: Db, projectId: string, sessionId: string, turn?: number) {
  const [row] = await db
    .select({ turn: turns.turn, agent: turns.agentId, ccs: turns.ccs, timestamp: turns.timestamp, hallucination: turns.hallucination, drift: turns.drift, title: sessions.title })
    .from(turns)
    .innerJoin(sessions, and(eq(sessions.projectId, turns.projectId), eq(sessions.id, turns.sessionId)))
    .where(and(eq(turns.projectId, projectId), eq(turns.sessionId, sessionId), turn === undefined ? undefined : eq(turns.turn, turn)))
    .orderBy(desc(turns.turn))
    .limit(1);
  if (!row) return null;
  const [{ n }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from turns where project_id = ${projectId} and session_id = ${sessionId}`)) as [{ n: number }];
  return {
    session_id: sessionId,
    title: row.title,
    agent: row.agent,
    turn: row.turn,
    turns: n,
    timestamp: row.timestamp,
    ccs: row.ccs,
    hallucination: row.hallucination,
    drift: row.drift,
    url: `/sessions/${encodeURIComponent(sessionId)}?turn=${row.turn}`,
  };
}

export async function deadEnds(db: Db, projectId: string, agent: string | undefined, situation: string | undefined) {
  const rows = await listDeadEnds(db, projectId, agent);
  const touched = situation ? new Map(wouldReopen(situation, rows).map((m) => [m.deadEnd, m])) : null;
  const list = (touched ? rows.filter((r) => touched.has(r)) : rows).map((r) => {
    const m = touched?.get(r);
    return {
      agent: r.agent,
      id: r.id,
      date: r.date,
      topic: r.topic,
      why_closed: r.whyClosed,
      reopen_conditions: r.reopenConditions,
      capabilities: r.capabilities,
      ...(m ? { matched_words: m.matched, reopen_coverage: Number(m.coverage.toFixed(2)) } : {}),
      url: `/substrate/${encodeURIComponent(r.agent)}/dead-ends?focus=${encodeURIComponent(r.id)}`,
    };
  });
  if (touched) list.sort((a, b) => (b.reopen_coverage ?? 0) - (a.reopen_coverage ?? 0));
  return { count: list.length, total: rows.length, ...(situation ? { situation } : {}), dead_ends: list };
}
