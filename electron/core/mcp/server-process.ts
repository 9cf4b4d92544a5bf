/**
 * A stdio MCP server's process, as the SDK's Transport. The SDK's own StdioClientTransport
 * is not used because it kills only its direct child: a server started through `npx` or a
 * shell leaves its real process behind, and it cannot run the server confined. Here the
 * server runs in a process group of its own, confined by the command sandbox when asked
 * (SPEC §10), and stopping it stops the whole tree as `run` does: SIGTERM, then SIGKILL
 * after the grace. Framing is the SDK's own (ReadBuffer, serializeMessage).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { KILL_GRACE_MS } from '../../../shared/limits.js';
import { feedWrapper, wrapperStdio } from '../sandbox/wrapper-fds.js';
import type { ConfinedSpec, Sandbox, SandboxProfile } from '../sandbox/sandbox.js';
import { groupHasLiveMember } from '../tools/group-liveness.js';
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
  confine?: { sandbox: Sandbox; profile: SandboxProfile };
  /** The largest message the server may send (the SDK's own default is 10 MB). */
  maxMessageBytes?: number;
}

/** How often a stopping group is checked for members left. */
const GROUP_POLL_MS = 25;

export class ServerProcess implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly stderr = new StderrTail();
  private readonly buffer: ReadBuffer;
  private child: ChildProcess | null = null;
  private confined: ConfinedSpec | null = null;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private stopping: Promise<void> | null = null;

  constructor(private readonly spec: ServerProcessSpec) {
    this.buffer = new ReadBuffer({ maxBufferSize: spec.maxMessageBytes });
  }

  /** The direct child's pid (the sandbox's wrapper when confined), which is also its group's id. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** How it ended, in words, once it has: "exit code 3", "killed by SIGKILL". */
  get ended(): string | null {
    if (!this.exit) return null;
    return this.exit.signal ? `killed by ${this.exit.signal}` : `exit code ${this.exit.code}`;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('this server process has already started');
    const { argv, cwd, env } = await this.planned();
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd,
      env,
      detached: true, // a process group of its own, stopped whole
      // fd 3: the sandbox's wrapper reports its PID 1 there (bwrap --info-fd 3).
      stdio: ['pipe', 'pipe', 'pipe', ...(this.confined ? wrapperStdio(this.confined) : ['ignore' as const])],
      windowsHide: true,
    });
    this.child = child;
    child.stdout!.on('data', (chunk: Buffer) => this.read(chunk));
    child.stderr!.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    child.stdin!.on('error', (err) => this.onerror?.(err));
    child.on('exit', (code, signal) => {
      this.exit = { code, signal };
    });
    child.on('close', () => {
      void this.releaseSandbox();
      this.onclose?.();
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => {
        if (this.confined) feedWrapper(child, this.confined);
        resolve();
      });
      child.once('error', (err) => {
        void this.releaseSandbox();
        reject(new Error(`cannot start ${argv[0]}: ${err.message}`));
      });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.exit) throw new Error('the server process is not running');
    await new Promise<void>((resolve, reject) => {
      stdin.write(serializeMessage(message), (err) => (err ? reject(err) : resolve()));
    });
  }

  /** Stops the whole tree: stdin closed and SIGTERM, then SIGKILL after the grace. */
  close(): Promise<void> {
    this.stopping ??= this.stop();
    return this.stopping;
  }

  private async planned(): Promise<{ argv: readonly string[]; cwd: string; env: NodeJS.ProcessEnv }> {
    const { confine, argv, cwd, env, declaredEnv } = this.spec;
    if (!confine) return { argv, cwd, env: { ...env, ...declaredEnv } };
    this.confined = await confine.sandbox.confine({ argv, cwd, env, declaredEnv }, confine.profile);
    return this.confined;
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

  private async stop(): Promise<void> {
    const child = this.child;
    const pgid = child?.pid;
    if (!child || pgid === undefined) return;
    child.stdin?.end();
    if (this.confined) await this.confined.signalInside(pgid, 'SIGTERM').catch(() => 0);
    else signalGroup(pgid, 'SIGTERM');
    if (!(await this.groupGone(pgid, KILL_GRACE_MS))) signalGroup(pgid, 'SIGKILL');
    await this.groupGone(pgid, KILL_GRACE_MS);
    await this.releaseSandbox();
  }

  /** Whether the group (and, confined, the wrapper whose death ends the sandbox) is gone within `ms`. */
  private async groupGone(pgid: number, ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    for (;;) {
      if (this.exit && !(await groupHasLiveMember(pgid))) return true;
      if (Date.now() >= until) return false;
      await new Promise((r) => setTimeout(r, GROUP_POLL_MS));
    }
  }

  private async releaseSandbox(): Promise<void> {
    const confined = this.confined;
    if (!confined || !this.exit) return;
    this.confined = null;
    await confined.release().catch(() => {});
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone already
  }
}
