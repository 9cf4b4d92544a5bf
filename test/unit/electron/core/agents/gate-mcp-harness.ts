/**
 * A whole core with one session driven by an open-turn driver, the gate's MCP face on
 * the session's socket, and a real MCP SDK client talking to it over that socket, as an
 * agent does through its jail's bridge.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startGateMcpServer, type GateMcpServer } from '../../../../../electron/core/agents/gate-mcp-server.js';
import type { Sandbox } from '../../../../../electron/core/sandbox/sandbox.js';
import type { SessionEvent } from '../../../../../shared/events.js';
import { unixSocketFetch } from '../../../../support/unix-socket-fetch.js';
import { startHarness, type Harness } from '../core-harness.js';
import { openTurnDriver, type OpenTurnDriver } from './open-turn-driver.js';

export interface GateHarness {
  h: Harness;
  id: string;
  driver: OpenTurnDriver;
  gate: GateMcpServer;
  socketPath: string;
  client: Client;
  /** A second client on the same socket, as a restarted agent would be. */
  connect(): Promise<Client>;
  /** Sends a message and resolves with the turn's id once the driver shows it live. */
  startTurn(text?: string): Promise<string>;
  /** Ends the live turn and waits for its `turn_ended`. */
  endTurn(): Promise<void>;
  call(name: string, args: unknown, client?: Client): Promise<CallToolResult>;
  /** The session's events of these types. */
  events(...types: SessionEvent['type'][]): Promise<SessionEvent[]>;
  close(): Promise<void>;
}

export async function startGateHarness(
  options: { sandboxFor?: (root: string) => Sandbox; open?: (h: Harness) => Promise<string> } = {},
): Promise<GateHarness> {
  const driver = openTurnDriver();
  const { open, ...rest } = options;
  const h = await startHarness(undefined, { driver, ...rest, ...(open ? { base: '/var/tmp' } : {}) });
  const id = open ? await open(h) : await h.open();
  const socketPath = path.join(h.dataDir, 'agents', 'run', `${id}.sock`);
  const gate = await startGateMcpServer({ socketPath, seam: driver.seams[0]!, turn: driver.door });
  driver.idle = () => gate.idle();
  const clients: Client[] = [];
  const connect = async () => {
    const client = new Client({ name: 'gate-mcp-test', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`http://gate${gate.path}`), {
      fetch: unixSocketFetch(socketPath),
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const client = await connect();
  const g: GateHarness = {
    h,
    id,
    driver,
    gate,
    socketPath,
    client,
    connect,
    async startTurn(text = 'go') {
      await h.call('session.send', { id, text });
      const started = await h.event(id, 'turn_started', (e) => driver.door.current()?.turnId === e.turnId);
      return started.turnId;
    },
    async endTurn() {
      const turnId = driver.door.current()?.turnId;
      driver.end();
      await h.event(id, 'turn_ended', (e) => e.turnId === turnId);
    },
    call: (name, args, via = client) =>
      via.callTool({ name, arguments: args as Record<string, unknown> }, undefined, {
        timeout: 120_000,
      }) as Promise<CallToolResult>,
    async events(...types) {
      return (await h.events(id)).filter((e) => types.includes(e.type));
    },
    async close() {
      await Promise.allSettled(clients.map((c) => c.close()));
      await gate.close();
      await h.close();
    },
  };
  return g;
}

/** The text of an MCP result. */
export function resultText(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('');
}
