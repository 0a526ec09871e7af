/**
 * How each MCP client reaches Mnemoscope's MCP server, in that client's own configuration file and variable syntax,
 * so that no key is written into a file: Claude Code expands `${NAME}`, Cursor `${env:NAME}`, VS Code prompts for
 * `${input:id}` once and stores it, and Claude Desktop (stdio servers only) runs the `mcp-remote` bridge from the npm
 * registry, which expands `${NAME}` in its `--header` values from the `env` it is given. The Connect page shows these;
 * the tests resolve each one as its client does and call the server with the result.
 */

export const MCP_REMOTE_VERSION = '0.15.1';

export type McpClient = 'claude-code' | 'claude-desktop' | 'cursor' | 'vscode';

export interface McpClientConfig {
  client: McpClient;
  title: string;
  /** Where the configuration goes. */
  file: string;
  config: Record<string, unknown>;
  /** What else to do, in a sentence. */
  note: string;
}

const isLoopback = (url: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

export function mcpClientConfigs(origin: string): McpClientConfig[] {
  const url = `${origin.replace(/\/+$/, '')}/api/v1/mcp`;
  const parsed = new URL(url);
  return [
    {
      client: 'claude-code',
      title: 'Claude Code',
      file: '.mcp.json (in the project)',
      config: {
        mcpServers: {
          mnemoscope: { type: 'http', url, headers: { Authorization: 'Bearer ${MNEMOSCOPE_API_KEY}' } },
        },
      },
      note: 'Claude Code reads MNEMOSCOPE_API_KEY from the environment it starts in.',
    },
    {
      client: 'claude-desktop',
      title: 'Claude Desktop',
      file: 'claude_desktop_config.json',
      config: {
        mcpServers: {
          mnemoscope: {
            command: 'npx',
            args: [
              '-y',
              `mcp-remote@${MCP_REMOTE_VERSION}`,
              url,
              '--header',
              'Authorization:${AUTH_HEADER}',
              ...(parsed.protocol === 'http:' && !isLoopback(parsed) ? ['--allow-http'] : []),
            ],
            env: { AUTH_HEADER: 'Bearer <your API key>' },
          },
        },
      },
      note:
        'Claude Desktop starts local (stdio) servers only: the mcp-remote bridge forwards to this server. The key ' +
        'goes in env, written without a space after "Authorization:" (some launchers split arguments on spaces).',
    },
    {
      client: 'cursor',
      title: 'Cursor',
      file: '~/.cursor/mcp.json (or .cursor/mcp.json in the project)',
      config: {
        mcpServers: { mnemoscope: { url, headers: { Authorization: 'Bearer ${env:MNEMOSCOPE_API_KEY}' } } },
      },
      note: 'Cursor reads MNEMOSCOPE_API_KEY from the environment it starts in.',
    },
    {
      client: 'vscode',
      title: 'VS Code',
      file: '.vscode/mcp.json',
      config: {
        inputs: [{ type: 'promptString', id: 'mnemoscope-key', description: 'Mnemoscope API key', password: true }],
        servers: {
          mnemoscope: { type: 'http', url, headers: { Authorization: 'Bearer ${input:mnemoscope-key}' } },
        },
      },
      note: 'VS Code asks for the key the first time the server starts and keeps it in its secret storage.',
    },
  ];
}
