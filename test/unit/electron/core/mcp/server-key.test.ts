/**
 * A server is known by its file and its name (SPEC §10): the same name in two files is two
 * servers, and a start card or grant names the same server its config does.
 */
import { describe, expect, it } from 'vitest';
import { namedServer, serverKey } from '../../../../../electron/core/mcp/server-key.js';

describe("a server's key", () => {
  it('tells apart two files that name a server alike', () => {
    const workspace = serverKey({ source: '/w/.mcp.json', name: 'github' });
    const user = serverKey({ source: '/data/mcp.json', name: 'github' });
    expect(workspace).not.toBe(user);
  });

  it('is the same for a config and the start card or grant that names it', () => {
    const card = { kind: 'mcp_server', server: 'github', source: '/w/.mcp.json', fingerprint: 'f' };
    expect(serverKey(namedServer(card))).toBe(serverKey({ source: '/w/.mcp.json', name: 'github' }));
  });

  it('keeps the spelling mcp-disabled.json holds, a path with "#" included', () => {
    expect(serverKey({ source: '/w/#x/.mcp.json', name: 's' })).toBe('/w/#x/.mcp.json#s');
  });
});
