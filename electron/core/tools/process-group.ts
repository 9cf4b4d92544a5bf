/**
 * Runs one argv in a process group of its own (SPEC §2, run): no shell, empty stdin,
 * stdout and stderr captured apart under a fixed memory bound. On timeout or abort the
 * whole group gets SIGTERM, then SIGKILL after the grace. When the command ends by
 * itself, whatever it left running in its group is stopped the same way, so no
 * grandchild outlives the run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { feedWrapper, wrapperStdio } from '../sandbox/wrapper-fds.js';
import { KILL_GRACE_MS, RUN_STREAM_MAX_BYTES } from '../../../shared/limits.js';
import { pidAlive } from '../process/pid-alive.js';
import { groupHasLiveMember } from './group-liveness.js';
import { OutputCap, type CapturedText } from './output-cap.js';
import type { ExecContext } from './types.js';

export interface ProcessSpec {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Variables a card named, on top of `env` (see CommandSpec); never widen what a sandbox shows. */
  declaredEnv?: Readonly<Record<string, string>>;
  timeoutMs: number;
  signal?: AbortSignal;
  onOutput?: ExecContext['onOutput'];
  /** Bytes kept of each stream; RUN_STREAM_MAX_BYTES unless a caller needs a smaller cap. */
  streamMaxBytes?: number;
  /**
   * Set when the direct child is a sandbox wrapper whose death ends everything inside at
   * once: the graceful SIGTERM is sent through this to what runs inside; SIGKILL after
   * the grace still goes to the whole group (the wrapper with it).
   */
  signalInside?: (wrapperPid: number, signal: NodeJS.Signals) => Promise<number>;
  /**
   * The wrapper writes `{"child-pid": N, …}` on its fd 3 (bwrap --info-fd 3): N is the
   * sandbox's PID 1, and once it is dead nothing inside is left, so the group's liveness
   * is that one pid rather than a walk of /proc (where nothing reaps orphans, the dead
   * PID 1 lingers as a zombie in the group and every check would walk).
   */
  initPidOnFd3?: boolean;
  /** Bytes the wrapper reads on its fd 4 (the sandbox's seccomp program). */
  inputOnFd4?: Buffer;
  /** Told the direct child's pid (which is also the group's id) once it has started. */
  onSpawn?: (pid: number) => void;
}

export interface ProcessOutcome {
  /** The direct child's exit code, or null when a signal ended it. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  /** From spawn until the group was gone and both streams were read. */
  durationMs: number;
  stdout: CapturedText;
  stderr: CapturedText;
}

/** The program could not be started at all (not found, not executable, bad cwd). */
export class CommandStartError extends Error {
  override readonly name = 'CommandStartError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export function runInProcessGroup(spec: ProcessSpec): Promise<ProcessOutcome> {
  return new GroupRun(spec).run();
}

/** How often a group being stopped is checked for members left. */
const GROUP_POLL_MS = 50;
/** How long a sandbox's PID 1 may take to die after its wrapper exited, before it is stopped like a group. */
const INIT_EXIT_WAIT_MS = 200;

type StopReason = 'timeout' | 'cancel';

class GroupRun {
  private readonly stdout: OutputCap;
  private readonly stderr: OutputCap;
  private readonly startedAt = performance.now();
  private stopReason: StopReason | null = null;
  private teardown: Promise<void> | null = null;
  /** The sandbox's PID 1 (see initPidOnFd3), once the wrapper has said it. */
  private initPid: number | null = null;

  constructor(private readonly spec: ProcessSpec) {
    this.stdout = new OutputCap(spec.streamMaxBytes ?? RUN_STREAM_MAX_BYTES);
    this.stderr = new OutputCap(spec.streamMaxBytes ?? RUN_STREAM_MAX_BYTES);
  }

  async run(): Promise<ProcessOutcome> {
    if (this.spec.signal?.aborted) return this.outcome(null, null, 'cancel');
    const child = await this.spawnChild();
    const pgid = child.pid as number;
    this.spec.onSpawn?.(pgid);
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    this.capture(child);
    const [exitCode, signal] = await this.exitWithin(child, pgid);
    await this.clearGroup(pgid);
    await drain(child, closed);
    return this.outcome(exitCode, signal, this.stopReason);
  }

  private spawnChild(): Promise<ChildProcess> {
    const [program = '', ...args] = this.spec.argv;
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(program, args, {
          cwd: this.spec.cwd,
          env: this.spec.env,
          stdio: ['ignore', 'pipe', 'pipe', ...wrapperStdio(this.spec)],
          detached: true, // setsid(): the child leads a new group, so -pid reaches every descendant
          shell: false,
        });
      } catch (err) {
        reject(new CommandStartError(`cannot start ${program}: ${(err as Error).message}`, undefined));
        return;
      }
      let started = false;
      // Kept for the child's whole life: an 'error' event with no listener would crash the app.
      child.on('error', (err) => {
        if (!started) void startError(err, program, this.spec.cwd).then(reject);
      });
      child.once('spawn', () => {
        started = true;
        feedWrapper(child, this.spec);
        resolve(child);
      });
    });
  }

  private capture(child: ChildProcess): void {
    this.pipe(child.stdout, this.stdout, 'stdout');
    this.pipe(child.stderr, this.stderr, 'stderr');
    if (this.spec.initPidOnFd3) this.readInitPid(child.stdio[3] as NodeJS.ReadableStream | null);
  }

  private readInitPid(stream: NodeJS.ReadableStream | null): void {
    let text = '';
    stream?.on('error', () => {});
    stream?.on('data', (chunk: Buffer) => {
      if (text.length < 64 * 1024) text += chunk.toString('utf8');
      const pid = /"child-pid"\s*:\s*(\d+)/.exec(text)?.[1];
      if (pid !== undefined) this.initPid ??= Number(pid);
    });
  }

  /** Whether anything of the group can still run: the sandbox's PID 1 when known, else a walk of /proc. */
  private async groupAlive(pgid: number): Promise<boolean> {
    if (this.initPid !== null) return pidAlive(this.initPid);
    return groupHasLiveMember(pgid);
  }

  private pipe(stream: NodeJS.ReadableStream | null, cap: OutputCap, name: 'stdout' | 'stderr'): void {
    const onOutput = this.spec.onOutput;
    // A decoder per stream so a live chunk never ends inside a character.
    const decoder = onOutput ? new StringDecoder('utf8') : null;
    // A read error ends the stream (its 'close' still comes); what was read so far stands.
    stream?.on('error', () => {});
    stream?.on('data', (chunk: Buffer) => {
      cap.push(chunk);
      if (decoder) emit(onOutput, name, decoder.write(chunk));
    });
    stream?.once('end', () => {
      if (decoder) emit(onOutput, name, decoder.end());
    });
  }

  /** Waits for the direct child's exit, stopping the group on timeout or abort meanwhile. */
  private exitWithin(child: ChildProcess, pgid: number): Promise<[number | null, NodeJS.Signals | null]> {
    const stop = (reason: StopReason) => {
      this.stopReason ??= reason;
      this.teardown ??= this.stopGroup(pgid);
    };
    const timer = setTimeout(() => stop('timeout'), this.spec.timeoutMs);
    const onAbort = () => stop('cancel');
    this.spec.signal?.addEventListener('abort', onAbort, { once: true });
    // An abort while the spawn was under way fired before the listener existed.
    if (this.spec.signal?.aborted) stop('cancel');
    return new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        this.spec.signal?.removeEventListener('abort', onAbort);
        resolve([code, signal]);
      });
    });
  }

  /** After the direct child's exit: finishes a stop under way, or stops whatever it left behind. */
  private async clearGroup(pgid: number): Promise<void> {
    if (this.teardown) return this.teardown;
    const init = this.initPid;
    if (init !== null) {
      // The wrapper's exit kills the sandbox's PID 1, which takes everything inside with it: give that a moment.
      for (let poll = 1, waited = 0; waited < INIT_EXIT_WAIT_MS && pidAlive(init); waited += poll) {
        await sleep(poll);
        poll = Math.min(poll * 2, GROUP_POLL_MS);
      }
    }
    if (await this.groupAlive(pgid)) await this.stopGroup(pgid);
  }

  /** SIGTERM to the group; SIGKILL after the grace unless every member is gone by then. */
  private async stopGroup(pgid: number): Promise<void> {
    const inside = this.spec.signalInside;
    // Inside a sandbox still starting up there may be nothing to signal yet: try again each poll until something was.
    let termed = inside ? (await inside(pgid, 'SIGTERM')) > 0 : (signalGroup(pgid, 'SIGTERM'), true);
    const deadline = performance.now() + KILL_GRACE_MS;
    // Short polls first: most groups are gone within milliseconds (a sandbox's PID 1 dies just after its command).
    for (let poll = 1; performance.now() < deadline; poll = Math.min(GROUP_POLL_MS, poll * 2)) {
      await sleep(Math.min(poll, deadline - performance.now()));
      if (!termed && inside) termed = (await inside(pgid, 'SIGTERM')) > 0;
      // Once the group is empty its id may be reused, so it must not be signalled again.
      if (!(await this.groupAlive(pgid))) return;
    }
    signalGroup(pgid, 'SIGKILL');
  }

  private outcome(exitCode: number | null, signal: NodeJS.Signals | null, stop: StopReason | null): ProcessOutcome {
    return {
      exitCode,
      signal,
      timedOut: stop === 'timeout',
      cancelled: stop === 'cancel',
      durationMs: performance.now() - this.startedAt,
      stdout: this.stdout.result(),
      stderr: this.stderr.result(),
    };
  }
}

/**
 * Waits for both streams to close. A process that left the group (setsid) can hold them
 * open past everything we can signal; after the grace they are closed from our side.
 */
async function drain(child: ChildProcess, closed: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), KILL_GRACE_MS)));
  const first = await Promise.race([closed, late]);
  clearTimeout(timer);
  if (first !== 'late') return;
  child.stdout?.destroy();
  child.stderr?.destroy();
  await closed;
}

function emit(onOutput: ExecContext['onOutput'], stream: 'stdout' | 'stderr', text: string): void {
  if (text.length > 0) onOutput?.(stream, text);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone. EPERM: no member is ours to signal (a setuid
    // program); nothing more can be done from here, and the run must still end.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** Turns a spawn failure into a message the model can act on. */
async function startError(err: NodeJS.ErrnoException, program: string, cwd: string): Promise<CommandStartError> {
  const code = err.code;
  // libuv reports a missing working folder as ENOENT too; tell the two apart.
  if (code === 'ENOENT' && !(await isFolder(cwd))) {
    return new CommandStartError(`working folder does not exist: ${cwd}`, code);
  }
  if (code === 'ENOENT') return new CommandStartError(`command not found: ${program}`, code);
  if (code === 'EACCES') return new CommandStartError(`permission denied: ${program} is not executable`, code);
  return new CommandStartError(`cannot start ${program}: ${err.message}`, code);
}

async function isFolder(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isDirectory();
  } catch {
    return false;
  }
}
