/**
 * The one process room's door (DESIGN: one process room): a program started in a process
 * group of its own, confined by the sandbox when asked, and stopped as a whole. The run
 * tool (and the Stop hooks, which run through it) and MCP servers start and stop every
 * process here; what differs is built on top: a command's caps and timeout
 * (command-run.ts), a server's JSON-RPC framing (mcp/server-process.ts).
 *
 * Stopping is the same for all: SIGTERM (to what runs inside the sandbox, never to its
 * wrapper, whose death would end everything at once), then SIGKILL to the whole group
 * after the grace, unless every member is gone by then.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { Readable, Writable } from 'node:stream';
import { KILL_GRACE_MS } from '../../../shared/limits.js';
import type { Refusal } from '../sandbox/network/refusal.js';
import type { Confine, ConfinedSpec } from '../sandbox/sandbox.js';
import { groupHasLiveMember } from './group-liveness.js';
import { pidAlive } from './pid-alive.js';
import { CommandStartError, startError } from './start-error.js';
import { feedWrapper, wrapperStdio } from './wrapper-fds.js';
import type { ErrorKind } from '../error-kind.js';

/** Held to this profile by this sandbox (the sandbox room's own type: it plans, this room runs). */
export type { Confine } from '../sandbox/sandbox.js';

export interface GroupStart {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Variables a card named, set on top of `env` as they are. Kept apart so that the
   * sandbox never lets them change what the process can see (a PATH here shows no host folder).
   */
  declaredEnv?: Readonly<Record<string, string>>;
  /** A command's standard input is empty; a server's is how it is spoken to. */
  stdin: 'ignore' | 'pipe';
  /** Unconfined when absent. */
  confine?: Confine;
  /** Aborted while the sandbox was being prepared: nothing is started (StartCancelled). */
  signal?: AbortSignal;
}

/** The start was aborted before anything ran. */
export class StartCancelled extends Error {
  /** The person stopped the command before it started: said in words, never a fault. */
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'StartCancelled';
}

/** How the direct child ended: its exit code, or the signal that ended it. */
export interface GroupExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How often a group being stopped is checked for members left (short polls first: most are gone within milliseconds). */
const GROUP_POLL_MS = 50;
/** How long a sandbox's PID 1 may take to die after its wrapper exited, before what is left is stopped. */
const INIT_EXIT_WAIT_MS = 200;

export class ProcessGroup {
  /** The direct child's exit. */
  readonly exited: Promise<GroupExit>;
  /** All of the direct child's standard streams have closed. */
  readonly closed: Promise<void>;
  private exitSeen: GroupExit | null = null;
  /** The sandbox's PID 1, once the wrapper has said it on fd 3: once it is dead nothing inside is left. */
  private initPid: number | null = null;
  private stopping: Promise<void> | null = null;
  private released: Promise<void> | null = null;

  /**
   * Starts `spec`: confined first when asked, then spawned as the leader of a new group.
   * Throws CommandStartError when the program cannot start, StartCancelled when aborted
   * first; what the sandbox set up for it is released then.
   */
  static async start(spec: GroupStart): Promise<ProcessGroup> {
    const confined = spec.confine ? await spec.confine.sandbox.confine(spec, spec.confine.profile) : null;
    const plan = confined ?? { argv: spec.argv, cwd: spec.cwd, env: { ...spec.env, ...spec.declaredEnv } };
    try {
      if (spec.signal?.aborted) throw new StartCancelled('aborted before it started');
      return new ProcessGroup(await spawnLeader(plan, spec.stdin, confined), confined);
    } catch (err) {
      await confined?.release().catch(() => {});
      throw err;
    }
  }

  private constructor(
    private readonly child: ChildProcess,
    private readonly confined: ConfinedSpec | null,
  ) {
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve((this.exitSeen = { code, signal }))),
    );
    this.closed = new Promise((resolve) => child.once('close', () => resolve()));
    if (confined) this.readInitPid(child.stdio[3] as Readable | null);
  }

  /** The direct child's pid (the sandbox's wrapper when confined), which is also the group's id. */
  get pid(): number {
    return this.child.pid as number;
  }

  get stdin(): Writable | null {
    return this.child.stdin;
  }

  get stdout(): Readable | null {
    return this.child.stdout;
  }

  get stderr(): Readable | null {
    return this.child.stderr;
  }

  /** How the direct child ended, once it has. */
  get exit(): GroupExit | null {
    return this.exitSeen;
  }

  /** Confined with network: the one line for the model about what the proxy refused, or null. */
  networkRefusal(): string | null {
    return this.confined?.networkRefusal?.() ?? null;
  }

  /** Confined with network: each refusal of its proxy so far, in order. */
  networkRefusals(): readonly Refusal[] {
    return this.confined?.networkRefusals?.() ?? [];
  }

  /** Whether anything of the group can still run: the sandbox's PID 1 when known, else a walk of /proc. */
  async alive(): Promise<boolean> {
    if (this.initPid !== null) return pidAlive(this.initPid);
    return groupHasLiveMember(this.pid);
  }

  /** Stops the whole group (standard input closed, SIGTERM, SIGKILL after the grace); once, however often asked. */
  stop(): Promise<void> {
    this.stopping ??= this.stopNow();
    return this.stopping;
  }

  /**
   * After the direct child's exit: finishes a stop under way, or stops whatever it left
   * behind, so that no grandchild outlives it.
   */
  async settle(): Promise<void> {
    if (this.stopping) return this.stopping;
    const init = this.initPid;
    if (init !== null) {
      // The wrapper's exit kills the sandbox's PID 1, which takes everything inside with it: give that a moment.
      for (let poll = 1, waited = 0; waited < INIT_EXIT_WAIT_MS && pidAlive(init); waited += poll) {
        await sleep(poll);
        poll = Math.min(poll * 2, GROUP_POLL_MS);
      }
    }
    if (await this.alive()) await this.stop();
  }

  /** Removes what the sandbox set up for this process (its private /tmp, an empty .git standing in); once. */
  release(): Promise<void> {
    this.released ??= this.confined ? this.confined.release().catch(() => {}) : Promise.resolve();
    return this.released;
  }

  private async stopNow(): Promise<void> {
    this.child.stdin?.end();
    // Inside a sandbox still starting up there may be nothing to signal yet: try again each poll until something was.
    let termed = await this.term();
    const deadline = performance.now() + KILL_GRACE_MS;
    for (let poll = 1; performance.now() < deadline; poll = Math.min(GROUP_POLL_MS, poll * 2)) {
      await sleep(Math.min(poll, deadline - performance.now()));
      if (!termed) termed = await this.term();
      // Once the group is empty its id may be reused, so it must not be signalled again.
      if (!(await this.alive())) return;
    }
    signalGroup(this.pid, 'SIGKILL');
    // SIGKILL cannot be caught, so this is short; what the sandbox set up is released only after.
    for (const until = performance.now() + KILL_GRACE_MS; performance.now() < until && (await this.alive());) {
      await sleep(GROUP_POLL_MS / 2);
    }
  }

  /** SIGTERM to what runs inside the sandbox, or to the group; whether anything was signalled. */
  private async term(): Promise<boolean> {
    if (!this.confined) {
      signalGroup(this.pid, 'SIGTERM');
      return true;
    }
    return (await this.confined.signalInside(this.pid, 'SIGTERM').catch(() => 0)) > 0;
  }

  /**
   * The wrapper writes `{"child-pid": N, …}` on its fd 3 (bwrap --info-fd 3). Where nothing
   * reaps orphans the dead PID 1 lingers as a zombie in the group, and a walk of /proc
   * would find the group alive at every check; the one pid answers at once.
   */
  private readInitPid(stream: Readable | null): void {
    let text = '';
    stream?.on('error', () => {});
    stream?.on('data', (chunk: Buffer) => {
      if (text.length < 64 * 1024) text += chunk.toString('utf8');
      const pid = /"child-pid"\s*:\s*(\d+)/.exec(text)?.[1];
      if (pid !== undefined) this.initPid ??= Number(pid);
    });
  }
}

interface SpawnPlan {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

function spawnLeader(plan: SpawnPlan, stdin: 'ignore' | 'pipe', confined: ConfinedSpec | null): Promise<ChildProcess> {
  const [program = '', ...args] = plan.argv;
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(program, args, {
        cwd: plan.cwd,
        env: plan.env,
        stdio: [stdin, 'pipe', 'pipe', ...(confined ? wrapperStdio(confined) : [])],
        detached: true, // setsid(): the child leads a new group, so -pid reaches every descendant
        shell: false,
        windowsHide: true,
      });
    } catch (err) {
      reject(new CommandStartError(`cannot start ${program}: ${(err as Error).message}`, undefined));
      return;
    }
    let started = false;
    // Kept for the child's whole life: an 'error' event with no listener would crash the app.
    child.on('error', (err) => {
      if (!started) void startError(err, program, plan.cwd).then(reject);
    });
    child.once('spawn', () => {
      started = true;
      if (confined) feedWrapper(child, confined);
      resolve(child);
    });
  });
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone. EPERM: no member is ours to signal (a setuid
    // program); nothing more can be done from here, and the caller must still go on.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
