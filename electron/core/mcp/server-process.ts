/**
 * A stdio MCP server's process, as the SDK's Transport. The SDK's own StdioClientTransport
 * is not used because it kills only its direct child: a server started through `npx` or a
 * shell leaves its real process behind, and it cannot run the server confined. Here the
 * server runs in a process group of its own, confined by the command sandbox when asked
 * (SPEC §10), and stopping it stops the whole tree as `run` does: SIGTERM, then SIGKILL
 * after the grace. Framing is the SDK's own (ReadBuffer, serializeMessage).
 */
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ProcessGroup, type Confine } from '../process/process-group.js';
import { StderrTail } from './stderr-tail.js';

export interface ServerProcessSpec {
  argv: readonly string[];
  cwd: string;
  /** The commands' environment; confined, the sandbox keeps only its allow-listed names. */
  env: NodeJS.ProcessEnv;
  /**
   * The config's own `env`, which the start card named (a user's server has no card): set
   * on top, as it is. Kept apart from `env` so that the sandbox never lets it change what
   * the server can see (a PATH here makes no host folder visible).
   */
  declaredEnv: Readonly<Record<string, string>>;
  /** Held to this profile by the sandbox; unconfined when absent. */
  confine?: Confine;
  /** The largest message the server may send (the SDK's own default is 10 MB). */
  maxMessageBytes?: number;
}

export class ServerProcess implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly stderr = new StderrTail();
  private readonly buffer: ReadBuffer;
  private group: ProcessGroup | null = null;
  private starting = false;

  constructor(private readonly spec: ServerProcessSpec) {
    this.buffer = new ReadBuffer({ maxBufferSize: spec.maxMessageBytes });
  }

  /** The direct child's pid (the sandbox's wrapper when confined), which is also its group's id. */
  get pid(): number | null {
    return this.group?.pid ?? null;
  }

  /** How it ended, in words, once it has: "exit code 3", "killed by SIGKILL". */
  get ended(): string | null {
    const exit = this.group?.exit;
    if (!exit) return null;
    return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
  }

  async start(): Promise<void> {
    if (this.starting) throw new Error('this server process has already started');
    this.starting = true;
    const { argv, cwd, env, declaredEnv, confine } = this.spec;
    // A CommandStartError's words ("command not found: npx") already name the program.
    const group = await ProcessGroup.start({ argv, cwd, env, declaredEnv, stdin: 'pipe', confine });
    this.group = group;
    group.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
    group.stderr?.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    group.stdin?.on('error', (err) => this.onerror?.(err));
    void group.closed.then(async () => {
      await group.release();
      this.onclose?.();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.group?.stdin;
    if (!stdin || stdin.destroyed || this.group?.exit) throw new Error('the server process is not running');
    await new Promise<void>((resolve, reject) => {
      stdin.write(serializeMessage(message), (err) => (err ? reject(err) : resolve()));
    });
  }

  /** Stops the whole tree: stdin closed and SIGTERM, then SIGKILL after the grace. */
  async close(): Promise<void> {
    const group = this.group;
    if (!group) return;
    await group.stop();
    await group.release();
  }

  private read(chunk: Buffer): void {
    this.buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (err) {
        this.onerror?.(err as Error);
        continue; // a line that is not JSON-RPC is skipped, as the SDK's own transport does
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }
}
