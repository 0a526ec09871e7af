import { stoppingSignal } from '@/server/lifecycle';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { randomUUID } from 'node:crypto';
import { NextResponse } from 'next/server';
import { newEventId } from '@/lib/curation/event-id';
import {
  annotateArgs,
  deadEndsArgs,
  memoryDecisionArgs,
  memoryEventArgs,
  MCP_TOOL_DOCS,
  searchMemoryArgs,
  sessionStateArgs,
} from '@/lib/mcp/tools';
import type { DbHandle } from '@/server/db';
import { ready } from '@/server/bootstrap';
import { env } from '@/server/env';
import { logRetrieval } from '@/server/services/curation-retrievals';
import { errorReason } from '@/server/log';
import { awaitDecision, MAX_WAIT_SECONDS, memoryEventDecision } from '@/server/services/decisions';
import { ingest, storePrepared } from '@/server/services/ingest';
import { prepareItems } from '@/server/services/ingest-prepare';
import { SEARCH_LIMIT, searchMemory } from '@/server/services/memory-search';
import { sessionState } from '@/server/services/sessions';
import { deadEndsTouchedBy } from '@/server/services/substrate';
import { authedBody } from './respond';

/**
 * The MCP server agents talk to (mounted at /api/v1/mcp, streamable HTTP, one per request): the
 * default integration of the Memory Curator paper ("Self-Evolving Agents Hallucinate at Scale: A
 * Provable Memory Curator Architecture"). Each tool acts in the API key's project only. Arguments are
 * validated by the SDK against lib/mcp/tools.ts (an MCP error names the field); a tool that fails
 * answers `isError` with the reason, never a crash.
 */
type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const ok = (value: Record<string, unknown>): ToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
  structuredContent: value,
});
const fail = (message: string): ToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/** Runs a tool body; whatever it throws becomes an `isError` result naming the reason. */
async function guard(f: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await f();
  } catch (e) {
    return fail(`failed: ${errorReason(e)}`);
  }
}

export function createMcpServer(handle: DbHandle, projectId: string, actor: string): McpServer {
  const { db } = handle;
  const server = new McpServer(
    { name: 'mnemoscope', version: '0.1.0' },
    {
      instructions:
        'Mnemoscope holds this project’s agent memory. Submit durable memory through submit_memory_event; ' +
        'check list_dead_ends before retrying an approach.',
    },
  );

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
        const summary = await ingest(
          db,
          projectId,
          [{ ok: true, value: { type: 'memory_event', data: event } }],
          actor,
        );
        const r = summary.results[0]!;
        if (r.status === 'rejected')
          return fail(
            `memory event rejected: ${r.errors.map((e) => `${e.path || '(event)'}: ${e.message}`).join('; ')}`,
          );
        return ok({
          event_id: event.event_id,
          stored: r.status,
          ...(await memoryEventDecision(db, projectId, event.event_id)),
        });
      }),
  );

  server.registerTool(
    'search_memory',
    {
      title: 'Search memory',
      description: MCP_TOOL_DOCS.search_memory,
      inputSchema: searchMemoryArgs,
      annotations: { readOnlyHint: true },
    },
    ({ query, limit, include_deprecated, mode, reader }) =>
      guard(async () => {
        const as = reader ? { ...reader, agentRepo: reader.agent_repo } : null;
        const found = await searchMemory(db, projectId, query, {
          limit,
          includeDeprecated: include_deprecated,
          mode,
          ...(as ? { reader: as } : {}),
        });
        // Logged for reviewers' relevance labels (M6); a failure to log is a warning, never the search's failure.
        await logRetrieval(db, projectId, actor, {
          query,
          mode: found.mode,
          limit: limit ?? SEARCH_LIMIT,
          results: found.results,
          reader: as,
        });
        return ok({ query, ...found });
      }),
  );

  server.registerTool(
    'get_session_state',
    {
      title: 'Get session state',
      description: MCP_TOOL_DOCS.get_session_state,
      inputSchema: sessionStateArgs,
      annotations: { readOnlyHint: true },
    },
    ({ session_id, turn }) =>
      guard(async () => {
        const state = await sessionState(db, projectId, session_id, turn);
        return state
          ? ok(state)
          : fail(
              turn === undefined
                ? `session ${JSON.stringify(session_id)} not found or has no turns`
                : `session ${JSON.stringify(session_id)} has no turn ${turn}`,
            );
      }),
  );

  server.registerTool(
    'get_memory_decision',
    {
      title: 'Get a memory decision',
      description: MCP_TOOL_DOCS.get_memory_decision,
      inputSchema: memoryDecisionArgs,
      annotations: { readOnlyHint: true },
    },
    ({ event_id, wait_seconds }, extra) =>
      guard(async () => {
        const wait = Math.min(wait_seconds ?? 0, MAX_WAIT_SECONDS) * 1000;
        const d = await awaitDecision(handle, projectId, event_id, wait, extra.signal, stoppingSignal());
        return d ? ok({ ...d }) : fail(`memory event ${JSON.stringify(event_id)} not found in this project`);
      }),
  );

  server.registerTool(
    'annotate',
    {
      title: 'Annotate',
      description: MCP_TOOL_DOCS.annotate,
      inputSchema: annotateArgs,
      annotations: { idempotentHint: true, destructiveHint: false },
    },
    (args) =>
      guard(async () => {
        const data = {
          ...Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)),
          id: args.id ?? `ann_${randomUUID()}`,
        };
        const summary = await storePrepared(
          db,
          projectId,
          prepareItems([{ ok: true, value: { type: 'annotation', data } }]),
          actor,
        );
        const r = summary.results[0]!;
        if (r.status === 'rejected')
          return fail(
            `annotation rejected: ${r.errors.map((e) => `${e.path || '(annotation)'}: ${e.message}`).join('; ')}`,
          );
        if (r.status === 'conflict') return fail(`annotation ${data.id} holds another annotation: ${r.message}`);
        return ok({ id: data.id, stored: r.status, author: actor });
      }),
  );

  server.registerTool(
    'list_dead_ends',
    {
      title: 'List dead ends',
      description: MCP_TOOL_DOCS.list_dead_ends,
      inputSchema: deadEndsArgs,
      annotations: { readOnlyHint: true },
    },
    ({ agent, situation }) => guard(async () => ok(await deadEndsTouchedBy(db, projectId, agent, situation))),
  );

  return server;
}

/**
 * POST /api/v1/mcp — the MCP server over streamable HTTP, stateless: each request gets its own server
 * and transport, authenticated by the API key (`Authorization: Bearer <key>`), with JSON answers.
 */
export async function mcpPost(req: Request) {
  const got = await authedBody(req, env().MNEMOSCOPE_MAX_BODY_BYTES);
  if (got instanceof NextResponse) return got;
  const { auth, body } = got;
  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(new TextDecoder().decode(body));
  } catch (e) {
    return NextResponse.json(
      {
        jsonrpc: '2.0',
        error: { code: -32700, message: `Parse error: the body is not JSON (${(e as Error).message})` },
        id: null,
      },
      { status: 400 },
    );
  }
  const server = createMcpServer(await ready(), auth.projectId, auth.actor);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req, { parsedBody });
  } finally {
    void server.close();
  }
}

/** No server-initiated stream and no sessions in stateless mode (the MCP spec's answer is 405). */
export function mcpNotAllowed() {
  return NextResponse.json(
    {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST JSON-RPC messages' },
      id: null,
    },
    { status: 405, headers: { Allow: 'POST' } },
  );
}
