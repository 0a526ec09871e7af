import { mcpNotAllowed, mcpPost } from '@/server/http/mcp';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The MCP server (server/http/mcp.ts): POST JSON-RPC; GET and DELETE answer 405 (stateless). */
export const POST = mcpPost;
export const GET = mcpNotAllowed;
export const DELETE = mcpNotAllowed;
