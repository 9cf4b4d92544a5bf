/**
 * The states of one MCP server (SPEC §10): when a turn starts it, what a refused start
 * leaves it in and says, and what stopping keeps.
 */
import { describe, expect, it } from 'vitest';
import { DENIED } from '../../../../../electron/core/gate/permission-gate.js';
import type { McpServerConfig } from '../../../../../electron/core/mcp/mcp-config.js';
import type { ServerConnection } from '../../../../../electron/core/mcp/server-connection.js';
import {
  cardClosed,
  detach,
  newServer,
  startDue,
  startRefused,
  toAsking,
  toEnabled,
  toLost,
  toReady,
  toStarting,
  type McpServer,
} from '../../../../../electron/core/mcp/server-state.js';
import type { McpServerState } from '../../../../../shared/contract.js';

const CONFIG: McpServerConfig = {
  name: 's',
  scope: 'workspace',
  source: '/w/.mcp.json',
  transport: { type: 'stdio', command: 'node', args: ['s.js'], env: {}, cwd: '/w' },
};

function inState(state: McpServerState, over: Partial<McpServer> = {}): McpServer {
  return { ...newServer(CONFIG, false), state, ...over };
}

/** A connection as the state machine reads it: how it closed, and its stderr. */
const connection = (closed: string | null) =>
  ({ closed, stderrTail: () => 'panic: gone', stop: async () => {} }) as unknown as ServerConnection;

describe('a new server', () => {
  it('is stopped, or disabled when the person disabled it', () => {
    expect(newServer(CONFIG, false).state).toBe('stopped');
    expect(newServer(CONFIG, true).state).toBe('disabled');
  });
});

describe('whether a turn starts a server', () => {
  it('starts one stopped, and one lost since it ran', () => {
    expect(startDue(inState('stopped'), undefined)).toBe(true);
    expect(startDue(inState('failed', { lost: true }), undefined)).toBe(true);
  });

  it('leaves one that failed to start, is running, asking, disabled or not allowed', () => {
    for (const state of ['failed', 'ready', 'starting', 'asking', 'disabled', 'not_allowed'] as const) {
      expect(startDue(inState(state), undefined)).toBe(false);
    }
  });

  it('does not ask again for a config the person denied: it is not allowed, and says why', () => {
    const server = inState('stopped');
    expect(startDue(server, server.fingerprint)).toBe(false);
    expect(server).toMatchObject({ state: 'not_allowed', error: 'its start card was denied' });
  });

  it('asks again once the denied config changed', () => {
    expect(startDue(inState('stopped'), 'an older fingerprint')).toBe(true);
  });
});

describe("a workspace server's start card", () => {
  /** Asks, and ends the card's wait with `result`. */
  function asked(result: Parameters<typeof startRefused>[1], aborted = false): McpServer {
    const server = inState('stopped');
    toAsking(server);
    cardClosed(server);
    startRefused(server, result, aborted);
    return server;
  }

  it('denied, leaves it not allowed', () => {
    expect(asked({ ok: false, error: DENIED })).toMatchObject({
      state: 'not_allowed',
      error: 'its start card was denied',
    });
  });

  it('not planned, leaves it failed with the reason', () => {
    expect(asked({ ok: false, error: 'no sandbox' })).toMatchObject({ state: 'failed', error: 'no sandbox' });
  });

  it('open when the turn stopped, leaves it stopped to be asked again, with nothing to say', () => {
    const server = asked({ ok: false, error: 'cancelled' }, true);
    expect(server.state).toBe('stopped');
    expect(server.error).toBeUndefined();
  });

  it('allowed, leaves the state its start reached', () => {
    const server = inState('stopped');
    toAsking(server);
    toStarting(server);
    toReady(server);
    cardClosed(server);
    startRefused(server, { ok: true, output: 'started, 1 tools' }, false);
    expect(server.state).toBe('ready');
  });
});

describe('a running server', () => {
  it('stopped, gives up its connection and is stopped', () => {
    const open = connection(null);
    const server = inState('ready', { connection: open });
    expect(detach(server)).toBe(open);
    expect(server).toMatchObject({ state: 'stopped', connection: null });
  });

  it('lost, is failed with how it closed and its stderr, to start again next turn', () => {
    const closed = connection('the process exited with code 1');
    const server = inState('ready', { connection: closed });
    toLost(server, closed);
    expect(server).toMatchObject({
      state: 'failed',
      lost: true,
      error: 'it stopped (the process exited with code 1)',
      stderrTail: 'panic: gone',
      connection: null,
    });
    toStarting(server);
    expect(server.lost).toBe(false);
    expect(server.error).toBeUndefined();
  });
});

describe('a server that is not running', () => {
  it('stopped, keeps the state that says why (failed, not allowed, disabled)', () => {
    for (const state of ['failed', 'not_allowed', 'disabled'] as const) {
      const server = inState(state);
      expect(detach(server)).toBeNull();
      expect(server.state).toBe(state);
    }
  });

  it('enabled, may start only when it was disabled', () => {
    const disabled = inState('disabled');
    expect(toEnabled(disabled)).toBe(true);
    expect(disabled.state).toBe('stopped');
    expect(toEnabled(inState('failed'))).toBe(false);
  });
});
