import { describe, expect, it } from 'vitest';
import { mcpClientConfigs } from './clients';

const bridgeArgs = (origin: string) =>
  (
    mcpClientConfigs(origin).find((c) => c.client === 'claude-desktop')!.config.mcpServers as Record<
      string,
      { args: string[] }
    >
  ).mnemoscope!.args;

describe('MCP client configurations', () => {
  it('point every client at the server’s MCP route, with no key written into them', () => {
    const configs = mcpClientConfigs('https://mnemo.example.org/');
    expect(configs.map((c) => c.client)).toEqual(['claude-code', 'claude-desktop', 'cursor', 'vscode']);
    for (const c of configs) {
      const text = JSON.stringify(c.config);
      expect(text).toContain('"https://mnemo.example.org/api/v1/mcp"');
      expect(text).toMatch(/\$\{(MNEMOSCOPE_API_KEY|AUTH_HEADER|env:MNEMOSCOPE_API_KEY|input:mnemoscope-key)\}/);
    }
  });

  it('let the bridge use plain http only where it must: on another host, never on loopback or https', () => {
    expect(bridgeArgs('http://10.0.0.5:3000')).toContain('--allow-http');
    expect(bridgeArgs('http://127.0.0.1:3000')).not.toContain('--allow-http');
    expect(bridgeArgs('https://mnemo.example.org')).not.toContain('--allow-http');
  });
});
