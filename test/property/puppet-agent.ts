/**
 * The external agent, played by the history: the scripted ACP agent in puppet mode
 * connects here at its first prompt and takes its moves one by one. Sessions are told
 * apart by the tag of the message the agent was prompted with ("s0: ...").
 */
import net from 'node:net';
import readline from 'node:readline';
import type { ScriptStep } from '../support/scripted-acp-agent.js';

export type PuppetMove = ScriptStep | { finish: true };

interface Connection {
  socket: net.Socket;
  /** The session whose turn the agent is in, from its prompt's tag. */
  s: number | null;
  /** Waiting for its next move. */
  idle: boolean;
}

export class PuppetAgent {
  private readonly connections = new Set<Connection>();

  private constructor(
    readonly socketPath: string,
    private readonly server: net.Server,
  ) {
    server.on('connection', (socket) => this.take(socket));
  }

  static async listen(socketPath: string): Promise<PuppetAgent> {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
    return new PuppetAgent(socketPath, server);
  }

  /** True when session `s`'s agent is at a move, waiting for the history. */
  isWaiting(s: number): boolean {
    return [...this.connections].some((c) => c.s === s && c.idle);
  }

  /** Plays session `s`'s agent's next move; false when it was not at one. */
  emit(s: number, move: PuppetMove): boolean {
    const c = [...this.connections].find((x) => x.s === s && x.idle);
    if (!c) return false;
    c.idle = false;
    c.socket.write(`${JSON.stringify(move)}\n`);
    return true;
  }

  async close(): Promise<void> {
    for (const c of this.connections) c.socket.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private take(socket: net.Socket): void {
    const c: Connection = { socket, s: null, idle: false };
    this.connections.add(c);
    socket.on('error', () => {});
    socket.on('close', () => this.connections.delete(c));
    readline.createInterface({ input: socket }).on('line', (line) => {
      const said = JSON.parse(line) as { prompt?: string; done?: true; ended?: string };
      if (said.prompt !== undefined) {
        const tag = /^s(\d+): /.exec(said.prompt);
        c.s = tag ? Number(tag[1]) : null;
        c.idle = true;
      } else if (said.done) c.idle = true;
      else if (said.ended) c.idle = false;
    });
  }
}
