import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, inject, it } from 'vitest';
import { mcpClientConfigs, type McpClient } from '@/lib/mcp/clients';
import { MCP_TOOLS } from '@/lib/mcp/tools';

/**
 * The MCP configurations the Connect page gives, each resolved the way its client resolves variables, then used to
 * call the live server; Claude Desktop's through the real mcp-remote bridge (from the npm registry) over stdio.
 */
const srv = inject('servers')[0]!;
const root = path.resolve(import.meta.dirname, '..');
const configs = mcpClientConfigs(srv.url);
const env = { MNEMOSCOPE_API_KEY: srv.key };
const prompted: Record<string, string> = { 'mnemoscope-key': srv.key };

/** Each client's variable syntax, as its documentation gives it. */
const RESOLVE: Record<Exclude<McpClient, 'claude-desktop'>, (s: string) => string> = {
  'claude-code': (s) => s.replace(/\$\{([A-Za-z_]\w*)\}/g, (m, n: keyof typeof env) => env[n] ?? m),
  cursor: (s) => s.replace(/\$\{env:([A-Za-z_]\w*)\}/g, (m, n: keyof typeof env) => env[n] ?? m),
  vscode: (s) => s.replace(/\$\{input:([\w-]+)\}/g, (m, id: string) => prompted[id] ?? m),
};

async function toolsThrough(client: Client) {
  const { tools } = await client.listTools();
  const search = (await client.callTool({ name: 'search_memory', arguments: { query: 'checkout deploy' } })) as {
    isError?: boolean;
    structuredContent?: { results: unknown[] };
  };
  await client.close();
  return { names: tools.map((t) => t.name).sort(), search };
}

describe('MCP client configurations from the Connect page', () => {
  it.each(['claude-code', 'cursor', 'vscode'] as const)(
    '%s: resolved as the client does, it calls the tools',
    async (c) => {
      const config = configs.find((x) => x.client === c)!;
      const resolved = JSON.parse(RESOLVE[c](JSON.stringify(config.config))) as {
        mcpServers?: Record<string, { url: string; headers: Record<string, string> }>;
        servers?: Record<string, { url: string; headers: Record<string, string> }>;
      };
      const server = (resolved.mcpServers ?? resolved.servers)!.mnemoscope!;
      expect(server.headers.Authorization).toBe(`Bearer ${srv.key}`);
      const client = new Client({ name: c, version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }),
      );
      const { names, search } = await toolsThrough(client);
      expect(names).toEqual([...MCP_TOOLS].sort());
      expect(search.isError).toBeFalsy();
      expect(search.structuredContent!.results.length).toBeGreaterThan(0);
      // Read by a client with another syntax, the placeholder goes out as text: a 401 that says what it wants.
      const literal = await fetch(server.url, {
        method: 'POST',
        headers: { authorization: 'Bearer ${MNEMOSCOPE_API_KEY}' },
      });
      expect(literal.status).toBe(401);
      expect(literal.headers.get('www-authenticate')).toMatch(/^Bearer realm="mnemoscope", error="invalid_token"/);
    },
  );

  it('claude-desktop: the mcp-remote bridge, started as configured, calls the tools over stdio', async () => {
    const config = configs.find((x) => x.client === 'claude-desktop')!;
    const server = (
      config.config.mcpServers as Record<string, { command: string; args: string[]; env: Record<string, string> }>
    ).mnemoscope!;
    expect(server.args.slice(0, 2)).toEqual(['-y', 'mcp-remote@0.15.1']);
    // The same package and version, from the lockfile rather than a download; the key in env as the page says.
    const client = new Client({ name: 'claude-desktop', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--offline', 'mcp-remote', ...server.args.slice(2)],
      cwd: root,
      env: {
        ...(process.env as Record<string, string>),
        AUTH_HEADER: server.env.AUTH_HEADER!.replace('<your API key>', srv.key),
        MCP_REMOTE_CONFIG_DIR: mkdtempSync(path.join(os.tmpdir(), 'mcp-remote-')),
      },
      stderr: 'pipe',
    });
    let log = '';
    transport.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    await client.connect(transport);
    const { names, search } = await toolsThrough(client);
    expect(names, log).toEqual([...MCP_TOOLS].sort());
    expect(search.isError).toBeFalsy();
    expect(log).toMatch(/Replacing \$\{AUTH_HEADER\} with environment value/);
  }, 90_000);
});
