import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { NextResponse } from 'next/server';
import { env } from '@/server/env';
import { authedBody } from '@/server/http/respond';
import { createMcpServer } from '@/server/services/mcp';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * POST /api/v1/mcp — the MCP server over streamable HTTP, stateless: each request gets its own server
 * and transport, authenticated by the API key (`Authorization: Bearer <key>`), with JSON answers.
 */
export async function POST(req: Request) {
  const got = await authedBody(req, env().MNEMOSCOPE_MAX_BODY_BYTES);
  if (got instanceof NextResponse) return got;
  const { auth, body } = got;
  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(new TextDecoder().decode(body));
  } catch (e) {
    return NextResponse.json({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: the body is not JSON (${(e as Error).message})` }, id: null }, { status: 400 });
  }
  const server = createMcpServer(auth.db, auth.projectId, auth.actor);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req, { parsedBody });
  } finally {
    void server.close();
  }
}

/** No server-initiated stream and no sessions in stateless mode (the MCP spec's answer is 405). */
function notAllowed() {
  return NextResponse.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST JSON-RPC messages' }, id: null }, { status: 405, headers: { Allow: 'POST' } });
}
export const GET = notAllowed;
export const DELETE = notAllowed;
