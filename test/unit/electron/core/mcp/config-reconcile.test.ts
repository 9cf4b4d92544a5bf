/**
 * Reconciling a session's servers with its config read afresh (SPEC §10): what left the
 * config or changed stops, what is new joins, and an unchanged server keeps running.
 */
import { describe, expect, it } from 'vitest';
import { reconcileConfig } from '../../../../../electron/core/mcp/config-reconcile.js';
import { serverFingerprint } from '../../../../../electron/core/mcp/fingerprint.js';
import type { McpConfig, McpServerConfig } from '../../../../../electron/core/mcp/mcp-config.js';

const WORKSPACE_FILE = '/w/.mcp.json';

function server(name: string, over: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    name,
    scope: 'workspace',
    source: WORKSPACE_FILE,
    transport: { type: 'stdio', command: 'node', args: [`${name}.js`], env: {}, cwd: '/w' },
    ...over,
  };
}

/** The session's servers by name, as they started. */
function running(...configs: McpServerConfig[]) {
  return new Map(configs.map((config) => [config.name, { config, fingerprint: serverFingerprint(config) }]));
}

const config = (...servers: McpServerConfig[]): McpConfig => ({ servers, problems: [] });
const names = (list: readonly { config: McpServerConfig }[]) => list.map((s) => s.config.name);

describe('reconciling the config', () => {
  it('keeps a server whose config is unchanged', () => {
    expect(reconcileConfig(running(server('a')), config(server('a')))).toEqual({ stop: [], add: [] });
  });

  it('stops a server that left the config', () => {
    const { stop, add } = reconcileConfig(running(server('a'), server('b')), config(server('b')));
    expect(names(stop)).toEqual(['a']);
    expect(add).toEqual([]);
  });

  it('stops a server whose config changed, and adds it again as it is now', () => {
    const changed = server('a', { transport: { type: 'stdio', command: 'bash', args: [], env: {}, cwd: '/w' } });
    const { stop, add } = reconcileConfig(running(server('a')), config(changed));
    expect(names(stop)).toEqual(['a']);
    expect(add).toEqual([changed]);
  });

  it('stops a server now named by another file, though its entry reads the same', () => {
    const moved = server('a', { source: '/elsewhere/.mcp.json' });
    const { stop, add } = reconcileConfig(running(server('a')), config(moved));
    expect(names(stop)).toEqual(['a']);
    expect(add).toEqual([moved]);
  });

  it("adds new servers in the config's order, and stops in the session's", () => {
    const now = config(server('z'), server('c'), server('a', { scope: 'user' }));
    const { stop, add } = reconcileConfig(running(server('b'), server('a'), server('d')), now);
    expect(names(stop)).toEqual(['b', 'a', 'd']);
    expect(add.map((c) => c.name)).toEqual(['z', 'c', 'a']);
  });

  it('starts from nothing: every server the config names is added', () => {
    const { stop, add } = reconcileConfig(new Map(), config(server('a'), server('b')));
    expect(stop).toEqual([]);
    expect(add.map((c) => c.name)).toEqual(['a', 'b']);
  });
});
