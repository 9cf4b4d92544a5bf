/**
 * A sandbox kept running, that programs enter instead of each starting its own: one
 * process group (this room's door, process-group.ts), held to a view's profile by the
 * same `Sandbox.confine` as every command, whose process is a tiny server
 * (resident-server-source.ts) that starts each program inside on request. Starting
 * bubblewrap, setting up its mounts and tearing them down cost a grep about 8 ms, as much
 * as a third of the grep itself; entered, a program costs what a plain start does.
 *
 * What a program inside can reach is the view and nothing more: the server adds only its
 * own executable (read-only), and runs with an environment of its own (no NODE_OPTIONS of
 * the person's reaches it); each program gets exactly the environment the sandbox gives a
 * command started afresh in this view (asked of the sandbox itself, once).
 *
 * A program is killed (SIGKILL, inside) when its caller asks; if the server does not say
 * it ended within the grace, or the server dies, the program's run ends with words saying
 * so, never hanging. Stopping the sandbox stops the whole group.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { KILL_GRACE_MS } from '../../../shared/limits.js';
import type { Confine, SandboxProfile } from '../sandbox/sandbox.js';
import { ProcessGroup } from './process-group.js';
import { FrameReader, type Frame } from './resident-frames.js';
import { FRAME, RESIDENT_SERVER_SOURCE } from './resident-server-source.js';

export interface ResidentStart {
  /** The view programs run in. */
  confine: Confine;
  /** Where the server runs (programs say their own working folder). */
  cwd: string;
  /** The environment a command would be given (the sandbox keeps its allow-listed part): what each program inside gets. */
  env: NodeJS.ProcessEnv;
}

/** A program started inside: its streams, how to kill it, and how it ended. */
export interface ResidentRun {
  stdout: Readable;
  stderr: Readable;
  kill(): void;
  /** After both streams ended: the program's exit code or signal; code 2 with words on stderr if the sandbox went first. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Electron runs as plain Node only when told; its executable reads these beside it as it starts. */
const ELECTRON_FILES = ['icudtl.dat', 'v8_context_snapshot.bin', 'snapshot_blob.bin', 'libffmpeg.so'];

/** How long the server may take to start (node, inside bubblewrap) before the sandbox counts as unusable. */
const READY_TIMEOUT_MS = 10_000;

interface Live {
  stdout: PassThrough;
  stderr: PassThrough;
  end: (exit: { code: number | null; signal: NodeJS.Signals | null }, words?: string) => void;
}

export class ResidentSandbox {
  private readonly runs = new Map<number, Live>();
  private nextId = 1;
  private dead: string | null = null;
  private stopping: Promise<void> | null = null;
  private retiring = false;

  private constructor(
    private readonly group: ProcessGroup,
    private readonly programEnv: NodeJS.ProcessEnv,
  ) {
    void group.exited.then((exit) => {
      this.died(`its sandbox ended (${exit.signal ?? `exit ${String(exit.code)}`})`);
      // What it left (a process inside, its private /tmp) goes with it.
      void this.stop();
    });
    group.stdin?.on('error', () => {});
  }

  /**
   * Starts the server in the view and waits until it listens. Throws when it cannot
   * start there (the app's node not runnable in the view, bubblewrap refusing): callers
   * then start each program afresh, as before.
   */
  static async start(spec: ResidentStart): Promise<ResidentSandbox> {
    const { sandbox, profile } = spec.confine;
    const programEnv = await envInView(spec);
    const group = await ProcessGroup.start({
      argv: [process.execPath, '-e', RESIDENT_SERVER_SOURCE],
      cwd: spec.cwd,
      // PATH only, for the same view (its folders under /tmp show as they do for a command).
      env: spec.env.PATH === undefined ? {} : { PATH: spec.env.PATH },
      ...(process.versions.electron ? { declaredEnv: { ELECTRON_RUN_AS_NODE: '1' } } : {}),
      stdin: 'pipe',
      confine: { sandbox, profile: withServerProgram(profile) },
    });
    const resident = new ResidentSandbox(group, programEnv);
    try {
      await resident.listen();
    } catch (err) {
      await resident.stop();
      throw err;
    }
    return resident;
  }

  /** Whether it can still take programs: not dead, and not retired. */
  get alive(): boolean {
    return this.dead === null && !this.retiring;
  }

  /** Programs started and not yet ended. */
  get running(): number {
    return this.runs.size;
  }

  /** The host pid of the sandbox's wrapper (its group's id): for tests counting processes. */
  get pid(): number {
    return this.group.pid;
  }

  /** Starts `argv` inside, in `cwd`, with the view's environment. */
  run(argv: readonly string[], cwd: string): ResidentRun {
    const id = this.nextId++;
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let settle: (exit: { code: number | null; signal: NodeJS.Signals | null }) => void = () => {};
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => (settle = resolve));
    let watchdog: NodeJS.Timeout | undefined;
    const live: Live = {
      stdout,
      stderr,
      end: (exit, words) => {
        if (!this.runs.delete(id)) return;
        clearTimeout(watchdog);
        if (this.retiring && this.runs.size === 0) void this.stop();
        if (words) stderr.write(`rg: ${words}\n`);
        // Resolved once the caller has had every byte: the streams' ends come after their data.
        void Promise.all([ended(stdout), ended(stderr)]).then(() => settle(exit));
        stdout.end();
        stderr.end();
      },
    };
    this.runs.set(id, live);
    // Told after the caller has its streams in hand (it listens once this returns).
    const dead = this.dead;
    if (dead !== null) setImmediate(() => live.end({ code: 2, signal: null }, dead));
    // bubblewrap sets PWD to the folder it starts a command in (--chdir): so is it here.
    else this.send({ id, argv, cwd, env: { ...this.programEnv, PWD: cwd } });
    return {
      stdout,
      stderr,
      kill: () => {
        if (!this.runs.has(id) || watchdog) return;
        this.send({ kill: id });
        // A server that does not answer is stopped whole, which ends this run with words.
        watchdog = setTimeout(() => void this.stop(), KILL_GRACE_MS);
      },
      closed,
    };
  }

  /** Takes no more programs, and stops once those running have ended (a view replaced, or idle). */
  retire(): void {
    this.retiring = true;
    if (this.runs.size === 0) void this.stop();
  }

  /** Stops the server and everything inside (the whole group), and removes what the sandbox set up; once. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.died('its sandbox was stopped');
      this.group.stdin?.end();
      await this.group.stop();
      await this.group.release();
    })();
    return this.stopping;
  }

  private listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the resident sandbox did not start in time')), READY_TIMEOUT_MS);
      const stderrHead: Buffer[] = [];
      this.group.stderr?.on('data', (chunk: Buffer) => {
        if (stderrHead.length < 4) stderrHead.push(chunk);
      });
      void this.group.exited.then(() => {
        clearTimeout(timer);
        const said = Buffer.concat(stderrHead).toString('utf8').trim().split('\n', 1)[0];
        reject(new Error(`the resident sandbox could not start${said ? `: ${said}` : ''}`));
      });
      const reader = new FrameReader((frame) => {
        if (frame.kind === FRAME.ready) {
          clearTimeout(timer);
          resolve();
        } else this.onFrame(frame);
      });
      this.group.stdout?.on('data', (chunk: Buffer) => reader.feed(chunk));
    });
  }

  private onFrame({ kind, id, payload }: Frame): void {
    const live = this.runs.get(id);
    if (!live) return;
    if (kind === FRAME.stdout) live.stdout.write(payload);
    else if (kind === FRAME.stderr) live.stderr.write(payload);
    else if (kind === FRAME.exit) live.end(parseExit(payload));
    else if (kind === FRAME.failed) live.end({ code: 2, signal: null }, `cannot start: ${payload.toString('utf8')}`);
  }

  /** Ends every run in flight with words, and takes no more. */
  private died(why: string): void {
    this.dead ??= `stopped before it finished: ${why}`;
    for (const live of [...this.runs.values()]) live.end({ code: 2, signal: null }, this.dead);
  }

  private send(message: object): void {
    this.group.stdin?.write(`${JSON.stringify(message)}\n`);
  }
}

/**
 * The environment the sandbox gives a command started afresh in this view with `env`,
 * asked of the sandbox itself so that a program entered gets exactly that, whatever it
 * keeps or sets (its allow-list, HOME, TMPDIR). What it set up for the asking is released.
 */
async function envInView(spec: ResidentStart): Promise<NodeJS.ProcessEnv> {
  const { sandbox, profile } = spec.confine;
  const confined = await sandbox.confine({ argv: [process.execPath], cwd: spec.cwd, env: spec.env }, profile);
  await confined.release();
  return confined.env;
}

/** The view with the server's own program shown read-only (its executable, and what Electron reads beside it). */
function withServerProgram(profile: SandboxProfile): SandboxProfile {
  const exe = realOr(process.execPath);
  const beside = process.versions.electron ? ELECTRON_FILES.map((f) => path.join(path.dirname(exe), f)) : [];
  const files = [exe, ...beside.filter((f) => realOr(f, '') !== '')];
  return { ...profile, shown: [...new Set([...profile.shown, ...files])] };
}

function realOr(p: string, fallback = p): string {
  try {
    return realpathSync(p);
  } catch {
    return fallback;
  }
}

function parseExit(payload: Buffer): { code: number | null; signal: NodeJS.Signals | null } {
  try {
    const { code, signal } = JSON.parse(payload.toString('utf8')) as { code: unknown; signal: unknown };
    return {
      code: typeof code === 'number' ? code : null,
      signal: typeof signal === 'string' ? (signal as NodeJS.Signals) : null,
    };
  } catch {
    return { code: 2, signal: null };
  }
}

function ended(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    if (stream.readableEnded) return resolve();
    stream.once('end', resolve).once('close', resolve);
    // A stream no one reads would never end: drained, so the run still says how it ended.
    if (stream.listenerCount('data') === 0 && !stream.readableFlowing) stream.resume();
  });
}
