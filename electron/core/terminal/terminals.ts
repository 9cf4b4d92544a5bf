/**
 * The terminal panel's shells (SPEC §7): one per session, in its workspace, run by the
 * user and so outside the gate. The environment is the one commands get (no provider keys,
 * no saved key under any name). Output reaches the renderer as coalesced pushes.
 */
import { stat } from 'node:fs/promises';
import type { Push } from '../../../shared/contract.js';
import { KILL_GRACE_MS } from '../../../shared/limits.js';
import { OutputCoalescer } from './output-coalescer.js';
import { nodePtySpawn, type PtyProcess, type SpawnPty } from './pty-spawn.js';
import { sessionMembers, signalSession } from './pty-session.js';
import { TerminalError } from './terminal-error.js';
import { userShell } from './user-shell.js';

export interface TerminalsDeps {
  /** The session's workspace folder; rejects for an unknown session. */
  workspaceOf(sessionId: string): Promise<string>;
  /** The environment without secrets (commandEnv), asked afresh for every shell. */
  env(): NodeJS.ProcessEnv;
  emit(push: Push): void;
  newId(): string;
  spawn?: SpawnPty;
}

interface LiveTerminal {
  id: string;
  sessionId: string;
  pty: PtyProcess;
  output: OutputCoalescer;
  exited: Promise<void>;
  hasExited: boolean;
}

const INITIAL_SIZE = { cols: 80, rows: 24 };
const POLL_MS = 20;

export class Terminals {
  private readonly byId = new Map<string, LiveTerminal>();
  /** Per session, the one shell (or its spawn in progress, so two quick opens share it). */
  private readonly bySession = new Map<string, Promise<LiveTerminal>>();
  private closed = false;

  constructor(private readonly deps: TerminalsDeps) {}

  async open(sessionId: string): Promise<{ terminalId: string }> {
    if (this.closed) throw new TerminalError('the app is closing; no new terminal can start');
    let live = this.bySession.get(sessionId);
    if (!live) {
      live = this.spawn(sessionId);
      this.bySession.set(sessionId, live);
      live.catch(() => this.bySession.delete(sessionId));
    }
    return { terminalId: (await live).id };
  }

  write(terminalId: string, data: string): void {
    this.get(terminalId).pty.write(data);
  }

  resize(terminalId: string, cols: number, rows: number): void {
    this.get(terminalId).pty.resize(cols, rows);
  }

  /** Kills the shell and whatever it started; resolves once the shell is gone. */
  async close(terminalId: string): Promise<void> {
    await this.stop(this.get(terminalId));
  }

  /** On quit: every shell is killed. */
  async dispose(): Promise<void> {
    this.closed = true;
    const all = await Promise.allSettled([...this.bySession.values()]);
    await Promise.all(all.map((r) => (r.status === 'fulfilled' ? this.stop(r.value) : undefined)));
  }

  private get(terminalId: string): LiveTerminal {
    const live = this.byId.get(terminalId);
    if (!live) throw new TerminalError(`no open terminal with id ${terminalId}`);
    return live;
  }

  private async spawn(sessionId: string): Promise<LiveTerminal> {
    const cwd = await this.deps.workspaceOf(sessionId);
    const isDir = await stat(cwd).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isDir) throw new TerminalError(`the workspace folder ${cwd} is missing, so no terminal can start there`);
    const env = this.deps.env();
    const spawn = this.deps.spawn ?? nodePtySpawn;
    let pty: PtyProcess;
    try {
      pty = spawn(userShell(env), [], { name: 'xterm-256color', ...INITIAL_SIZE, cwd, env: shellEnv(env) });
    } catch (err) {
      throw new TerminalError(`the shell could not start: ${(err as Error).message}`);
    }
    const id = this.deps.newId();
    const output = new OutputCoalescer((data) =>
      this.deps.emit({ name: 'terminal.output', payload: { terminalId: id, data } }),
    );
    const reading = pty.onData((data) => output.add(data));
    let live: LiveTerminal | null = null;
    const exited = new Promise<void>((resolve) => {
      pty.onExit(({ exitCode, signal }) => {
        if (live) live.hasExited = true;
        reading.dispose();
        output.flush();
        this.byId.delete(id);
        this.bySession.delete(sessionId);
        this.deps.emit({ name: 'terminal.exit', payload: { terminalId: id, exitCode, signal: signal || null } });
        resolve();
      });
    });
    live = { id, sessionId, pty, output, exited, hasExited: false };
    this.byId.set(id, live);
    return live;
  }

  private async stop(live: LiveTerminal): Promise<void> {
    const leader = live.pty.pid;
    const gone = () => live.hasExited && sessionMembers(leader).length === 0;
    signalSession(leader, 'SIGHUP');
    // node-pty's own kill: on Windows the only way to end the ConPTY process tree.
    if (process.platform === 'win32') live.pty.kill();
    // A shell or program that ignores SIGHUP gets SIGKILL after the same grace as a command.
    if (!(await until(gone, KILL_GRACE_MS))) signalSession(leader, 'SIGKILL');
    await live.exited;
    if (!(await until(gone, KILL_GRACE_MS))) signalSession(leader, 'SIGKILL');
  }
}

/** The shell's environment: the secret-free one, as strings, in a terminal that speaks xterm. */
function shellEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) result[name] = value;
  result.TERM = 'xterm-256color';
  return result;
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}
