/**
 * A workspace server's start as the gate plans it (SPEC §10): a call no model made, a card
 * that says when the config differs from what the person allowed before, a stdio server
 * confined like a command or as the command policy says when it cannot be, and a confined
 * card that no longer holds never run unconfined.
 */
import { describe, expect, it } from 'vitest';
import { serverFingerprint } from '../../../../../electron/core/mcp/fingerprint.js';
import type { McpServerConfig } from '../../../../../electron/core/mcp/mcp-config.js';
import {
  cardProfile,
  CONFIG_CHANGED_SINCE_ALLOWED,
  startCall,
  startPlan,
} from '../../../../../electron/core/mcp/start-card.js';
import type { ConfinementPolicy } from '../../../../../electron/core/sandbox/confinement.js';
import type { Sandbox } from '../../../../../electron/core/sandbox/sandbox.js';
import { ToolError } from '../../../../../electron/core/tools/tool-def.js';

const http: McpServerConfig = {
  name: 'h',
  scope: 'workspace',
  source: '/w/.mcp.json',
  transport: { type: 'http', url: 'https://mcp.example/v1', headers: {} },
};

const stdio: McpServerConfig = {
  name: 's',
  scope: 'workspace',
  source: '/w/.mcp.json',
  transport: { type: 'stdio', command: 'node', args: ['s.js'], env: {}, cwd: '/w' },
};

/** A machine where commands cannot be confined; `refuse` is the person's setting. */
function noSandbox(refuse: boolean): ConfinementPolicy {
  const availability = async () => ({ available: false, reason: 'bwrap is not installed', fix: 'install it' });
  return { sandbox: { availability } as unknown as Sandbox, refuseUnconfined: () => refuse };
}

const plan = (config: McpServerConfig, allowedBefore?: string, policy = noSandbox(false)) =>
  startPlan({ config, allowedBefore, sandbox: policy, workspaceRoot: '/w' });

describe("a server's start call", () => {
  it("is the session's, not the model's: its own tool and id, naming the server", () => {
    expect(startCall('t1', 's')).toEqual({
      turnId: 't1',
      toolCallId: 'mcp-server-start:s',
      tool: 'mcp_server',
      args: { server: 's' },
    });
  });
});

describe("a server's start plan", () => {
  it('carries the card for the config as it is now, fingerprinted', async () => {
    const planned = await plan(http);
    expect(planned).toMatchObject({ kind: 'mcp_server', tool: 'mcp_server', args: { server: 'h' } });
    expect(planned.body).toMatchObject({
      server: 'h',
      url: 'https://mcp.example/v1',
      fingerprint: serverFingerprint(http),
    });
  });

  it('says the config changed only when it differs from the one allowed before', async () => {
    expect((await plan(http)).body.changed).toBeUndefined();
    expect((await plan(http, serverFingerprint(http))).body.changed).toBeUndefined();
    expect((await plan(http, 'an older fingerprint')).body.changed).toBe(CONFIG_CHANGED_SINCE_ALLOWED);
  });

  it('shows a stdio server running unconfined, and why, where commands cannot be confined', async () => {
    expect((await plan(stdio)).body.sandbox).toEqual({ confined: false, reason: 'bwrap is not installed' });
    expect((await plan(http)).body.sandbox).toBeUndefined();
  });

  it('is refused for a stdio server when the person refuses commands that cannot be confined', async () => {
    await expect(plan(stdio, undefined, noSandbox(true))).rejects.toBeInstanceOf(ToolError);
  });
});

describe('what an allowed start card promised', () => {
  it('an unconfined card runs unconfined; a confined one from before the home was emptied runs not at all', () => {
    expect(cardProfile(undefined)).toBeUndefined();
    expect(cardProfile({ confined: false, reason: 'no bwrap' })).toBeUndefined();
    expect(cardProfile({ confined: true, network: true, writable: ['/w'], readOnly: [], hidden: [] })).toBeNull();
  });
});
