/**
 * One running agent process and the ACP connection over its stdio (acp-design.md §4): it
 * is launched, initialized within a time limit, authenticated where the agent needs it,
 * and handed to the driver with its session. The client side's handlers are the
 * driver's; this file only connects and shuts down.
 */
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { ErrorKind } from '../error-kind.js';
import type { AgentProcess } from './agent-process.js';

export interface LinkOptions {
  initializeTimeoutMs: number;
  authMethod?: string;
  /** false: no file callbacks are offered (a staged agent writes in its own place by itself). */
  clientFiles?: boolean;
}

/** What Gatehouse tells every agent it can do: its files (through the gate), never a terminal of its own. */
export const CLIENT_CAPABILITIES: acp.ClientCapabilities = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: false,
};

/** What a staged agent is told (SPEC §15): nothing of the client's; it writes and runs in its place itself. */
export const STAGED_CLIENT_CAPABILITIES: acp.ClientCapabilities = {
  fs: { readTextFile: false, writeTextFile: false },
  terminal: false,
};

/** The agent process stopped: how, and the last of its stderr. Its own failure, said in its words, not a fault of the app's. */
export class AgentStopped extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'AgentStopped';
}

export class AcpLink {
  /** Set once the process has exited: the next turn launches a new one. */
  dead = false;
  sessionId = '';
  /** Its session was taken up with session/load: it remembers the turns before. */
  loaded = false;

  private constructor(
    readonly process: AgentProcess,
    readonly connection: acp.ClientConnection,
    readonly init: acp.InitializeResponse,
  ) {
    void process.exited.then(() => {
      this.dead = true;
      connection.close();
    });
  }

  /**
   * Connects to a launched process and initializes it. An agent that does not answer
   * within the limit is stopped: a process that never speaks ACP must not hold the turn.
   */
  static async open(process: AgentProcess, app: acp.ClientApp, opts: LinkOptions): Promise<AcpLink> {
    const stream = acp.ndJsonStream(
      Writable.toWeb(process.stdin as Writable),
      Readable.toWeb(process.stdout as Readable) as ReadableStream<Uint8Array>,
    );
    const connection = app.connect(stream);
    try {
      const init = await withinLimit(
        connection.agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: opts.clientFiles === false ? STAGED_CLIENT_CAPABILITIES : CLIENT_CAPABILITIES,
          clientInfo: { name: 'gatehouse', version: '1' },
        }),
        opts.initializeTimeoutMs,
        `the agent did not answer initialize within ${Math.round(opts.initializeTimeoutMs / 1000)} s`,
        process,
      );
      const link = new AcpLink(process, connection, init);
      await link.authenticate(opts.authMethod);
      return link;
    } catch (err) {
      connection.close();
      // Its stdout closing is often heard before its exit: a crash is said with its exit and stderr, not as "connection closed".
      const exit = err instanceof AgentStopped ? null : await exitedSoon(process);
      await process.stop();
      throw exit ? stoppedError(exit, process.stderrTail()) : err;
    }
  }

  /** Whether the agent can take up its earlier session after a restart (ACP loadSession). */
  get canLoad(): boolean {
    return this.init.agentCapabilities?.loadSession === true;
  }

  /** Logs in with the configured method where the agent lists it; an agent listing none needs none. */
  private async authenticate(method: string | undefined): Promise<void> {
    const methods = this.init.authMethods ?? [];
    if (!method || !methods.some((m) => m.id === method)) return;
    await this.connection.agent.request(acp.methods.agent.authenticate, { methodId: method });
  }

  /** Why a request failed: the process's end and stderr when it has stopped (or stops within a moment), else the error. */
  async failure(err: unknown): Promise<Error> {
    const exit = await Promise.race([this.process.exited, sleep(2000).then(() => null)]);
    if (!exit) return err instanceof Error ? err : new Error(String(err));
    return stoppedError(exit, this.process.stderrTail());
  }

  async stop(): Promise<void> {
    // Dead from now on, not from when the exit is reported: the next turn must not reuse it meanwhile.
    this.dead = true;
    this.connection.close();
    await this.process.stop();
  }
}

export function stoppedError(exit: { code: number | null; signal: string | null }, tail: string): AgentStopped {
  const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
  return new AgentStopped(`the agent stopped (${how})${tail ? `: ${tail}` : ''}`);
}

/** The request's answer, or an error in words after the limit (or once the process has exited). */
async function withinLimit<T>(request: Promise<T>, ms: number, words: string, process: AgentProcess): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(words)), ms);
  });
  const exited = process.exited.then((exit) => Promise.reject(stoppedError(exit, process.stderrTail())));
  try {
    return await Promise.race([request, late, exited]);
  } finally {
    clearTimeout(timer);
  }
}

/** How the process ended, if it ends within a moment; null while it runs on. */
function exitedSoon(process: AgentProcess): Promise<{ code: number | null; signal: string | null } | null> {
  return Promise.race([process.exited, sleep(1000).then(() => null)]);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
