import { describe, expect, it } from 'vitest';
import { canonical, serverFingerprint, toolFingerprint } from '../../../../../electron/core/mcp/fingerprint.js';
import type { McpServerConfig } from '../../../../../electron/core/mcp/mcp-config.js';

const stdio = (over: Partial<Extract<McpServerConfig['transport'], { type: 'stdio' }>> = {}): McpServerConfig => ({
  name: 's',
  scope: 'workspace',
  source: '/w/.mcp.json',
  transport: { type: 'stdio', command: 'node', args: ['server.js'], env: { TOKEN: 'a' }, cwd: '/w', ...over },
});

describe('pinning fingerprints', () => {
  it("a server's changes with its command, args, folder, variable names and values", () => {
    const base = serverFingerprint(stdio());
    expect(serverFingerprint(stdio())).toBe(base);
    // A rotated token is a changed server: it asks again, and voids what the session allowed.
    expect(serverFingerprint(stdio({ env: { TOKEN: 'rotated' } }))).not.toBe(base);
    expect(serverFingerprint(stdio({ command: 'bash' }))).not.toBe(base);
    expect(serverFingerprint(stdio({ args: ['evil.js'] }))).not.toBe(base);
    expect(serverFingerprint(stdio({ cwd: '/elsewhere' }))).not.toBe(base);
    expect(serverFingerprint(stdio({ env: { TOKEN: 'a', NODE_OPTIONS: '' } }))).not.toBe(base);
  });

  it("an HTTP server's changes with its URL, header names and header values", () => {
    const http = (url: string, headers: Record<string, string>): McpServerConfig => ({
      name: 'h',
      scope: 'workspace',
      source: '/w/.mcp.json',
      transport: { type: 'http', url, headers },
    });
    const base = serverFingerprint(http('https://a.example/mcp', { Authorization: 'x' }));
    expect(serverFingerprint(http('https://a.example/mcp', { Authorization: 'x' }))).toBe(base);
    expect(serverFingerprint(http('https://a.example/mcp', { Authorization: 'y' }))).not.toBe(base);
    expect(serverFingerprint(http('https://a.example/mcp', { 'X-Token': 'x' }))).not.toBe(base);
    expect(serverFingerprint(http('https://b.example/mcp', { Authorization: 'x' }))).not.toBe(base);
  });

  it("changes with which of the person's variables feeds which field, the values being the same", () => {
    const fed = (field: string, variable: string): McpServerConfig => ({
      ...stdio(),
      variables: [{ field, written: '${' + variable + '}', variables: [variable] }],
    });
    const base = serverFingerprint(fed('env TOKEN', 'GITHUB_TOKEN'));
    expect(serverFingerprint(stdio())).not.toBe(base);
    expect(serverFingerprint(fed('env TOKEN', 'GH_TOKEN'))).not.toBe(base);
    expect(serverFingerprint(fed('args[0]', 'GITHUB_TOKEN'))).not.toBe(base);
  });

  it('holds no value in the clear: it is a SHA-256', () => {
    expect(serverFingerprint(stdio({ env: { TOKEN: 'ghp_secret' } }))).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a tool's changes with its description and schema, whatever the key order", () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const base = toolFingerprint('echo', { description: 'Echoes', inputSchema: schema });
    expect(
      toolFingerprint('echo', {
        description: 'Echoes',
        inputSchema: { properties: { a: { type: 'string' } }, type: 'object' },
      }),
    ).toBe(base);
    expect(toolFingerprint('echo', { description: 'Echoes and mails', inputSchema: schema })).not.toBe(base);
    expect(toolFingerprint('echo', { description: 'Echoes', inputSchema: { type: 'object' } })).not.toBe(base);
  });

  it('canonical JSON ignores key order and keeps every value', () => {
    expect(canonical({ b: 2, a: [1, { d: 1, c: 'x' }] })).toBe('{"a":[1,{"c":"x","d":1}],"b":2}');
  });
});
