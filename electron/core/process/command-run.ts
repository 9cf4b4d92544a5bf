/**
 * One command run to its end (SPEC §2, run; §9, confined): started in its process group
 * (process-group.ts), inside the sandbox or not, with no shell, empty stdin, and stdout and
 * stderr captured apart under a fixed memory bound. On timeout or abort the whole group is
 * stopped; when the command ends by itself, whatever it left running in its group is
 * stopped the same way, so no grandchild outlives the run.
 */
import { constants as osConstants } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { KILL_GRACE_MS, RUN_STREAM_MAX_BYTES } from '../../../shared/limits.js';
import { OutputCap, type CapturedText } from '../text/output-cap.js';
import { ProcessGroup, StartCancelled, type Confine, type GroupExit } from './process-group.js';
import { CommandStartError } from './start-error.js';

export interface ProcessSpec {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Variables a card named, on top of `env` (see CommandSpec); never widen what a sandbox shows. */
  declaredEnv?: Readonly<Record<string, string>>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Live output, decoded so that a chunk never ends inside a character. */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: string) => void;
  /** Bytes kept of each stream; RUN_STREAM_MAX_BYTES unless a caller needs a smaller cap. */
  streamMaxBytes?: number;
  /** Told the direct child's pid (which is also the group's id) once it has started. */
  onSpawn?: (pid: number) => void;
}

export interface ProcessOutcome {
  /** The direct child's exit code, or null when a signal ended it. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  /** From the start until the group was gone and both streams were read. */
  durationMs: number;
  stdout: CapturedText;
  stderr: CapturedText;
}

/** What a run ended with, and, confined with network, what the proxy refused in one line. */
export type RunOutcome = ProcessOutcome & { networkRefusal?: string };

type StopReason = 'timeout' | 'cancel';

/** Runs `spec` to its end, held by `confine` when given. Throws CommandStartError when it cannot start. */
export async function runToEnd(spec: ProcessSpec, confine?: Confine): Promise<RunOutcome> {
  const startedAt = performance.now();
  const caps = streamCaps(spec);
  // Aborted already: starts nothing, confined or not.
  const cancelled = () => outcome({ code: null, signal: null }, 'cancel', caps, startedAt);
  if (spec.signal?.aborted) return cancelled();
  const group = await ProcessGroup.start({ ...spec, stdin: 'ignore', confine }).catch((err: unknown) => {
    if (err instanceof StartCancelled) return null;
    throw err;
  });
  if (!group) return cancelled();
  try {
    spec.onSpawn?.(group.pid);
    capture(group.stdout, caps.stdout, 'stdout', spec.onOutput);
    capture(group.stderr, caps.stderr, 'stderr', spec.onOutput);
    const [exit, stopped] = await exitWithin(group, spec);
    await group.settle();
    await drain(group);
    const ended = outcome(exit, stopped(), caps, startedAt);
    if (!confine) return ended;
    const refusal = group.networkRefusal();
    return { ...wrapperOutcome(ended, spec.argv[0] ?? ''), ...(refusal ? { networkRefusal: refusal } : {}) };
  } finally {
    // The result waits for what the run put in the workspace (an empty .git standing in) to go,
    // so the next step sees the workspace as the command left it; the private /tmp goes after.
    await group.release();
  }
}

function streamCaps(spec: ProcessSpec): { stdout: OutputCap; stderr: OutputCap } {
  const max = spec.streamMaxBytes ?? RUN_STREAM_MAX_BYTES;
  return { stdout: new OutputCap(max), stderr: new OutputCap(max) };
}

function capture(
  stream: Readable | null,
  cap: OutputCap,
  name: 'stdout' | 'stderr',
  onOutput: ProcessSpec['onOutput'],
): void {
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

/** Waits for the direct child's exit, stopping the group on timeout or abort meanwhile; says which stopped it. */
async function exitWithin(group: ProcessGroup, spec: ProcessSpec): Promise<[GroupExit, () => StopReason | null]> {
  let reason: StopReason | null = null;
  const stop = (why: StopReason) => {
    reason ??= why;
    void group.stop();
  };
  const timer = setTimeout(() => stop('timeout'), spec.timeoutMs);
  const onAbort = () => stop('cancel');
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  // An abort while the spawn was under way fired before the listener existed.
  if (spec.signal?.aborted) stop('cancel');
  const exit = await group.exited;
  clearTimeout(timer);
  spec.signal?.removeEventListener('abort', onAbort);
  return [exit, () => reason];
}

/**
 * Waits for both streams to close. A process that left the group (setsid) can hold them
 * open past everything we can signal; after the grace they are closed from our side.
 */
async function drain(group: ProcessGroup): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), KILL_GRACE_MS)));
  const first = await Promise.race([group.closed, late]);
  clearTimeout(timer);
  if (first !== 'late') return;
  group.stdout?.destroy();
  group.stderr?.destroy();
  await group.closed;
}

function outcome(
  exit: GroupExit,
  stop: StopReason | null,
  caps: { stdout: OutputCap; stderr: OutputCap },
  startedAt: number,
): ProcessOutcome {
  return {
    exitCode: exit.code,
    signal: exit.signal,
    timedOut: stop === 'timeout',
    cancelled: stop === 'cancel',
    durationMs: performance.now() - startedAt,
    stdout: caps.stdout.result(),
    stderr: caps.stderr.result(),
  };
}

function emit(onOutput: ProcessSpec['onOutput'], stream: 'stdout' | 'stderr', text: string): void {
  if (text.length > 0) onOutput?.(stream, text);
}

/**
 * bwrap reports its command's end as an exit status: 128+n when signal n ended it, as
 * shells do (a command that itself exits 128+n reads the same). A command bwrap could
 * not start at all (not found, not executable, the sandbox refused to set up) is a start
 * error, as for an unconfined run.
 */
function wrapperOutcome(outcome: ProcessOutcome, program: string): ProcessOutcome {
  const { exitCode } = outcome;
  const stderr = outcome.stderr.text;
  if (exitCode === 1 && outcome.stdout.totalBytes === 0 && /^bwrap: [^\n]*\n?$/.test(stderr)) {
    if (/^bwrap: execvp [^\n]*: No such file or directory/.test(stderr)) {
      throw new CommandStartError(`command not found: ${program}`, 'ENOENT');
    }
    if (/^bwrap: execvp [^\n]*: Permission denied/.test(stderr)) {
      throw new CommandStartError(`permission denied: ${program} is not executable`, 'EACCES');
    }
    throw new CommandStartError(`the sandbox could not start ${program}: ${stderr.trim()}`, 'ESANDBOX');
  }
  if (outcome.signal === null && exitCode !== null && exitCode > 128) {
    const name = signalName(exitCode - 128);
    if (name) return { ...outcome, exitCode: null, signal: name };
  }
  return outcome;
}

function signalName(n: number): NodeJS.Signals | null {
  const entry = Object.entries(osConstants.signals).find(([, value]) => value === n);
  return entry ? (entry[0] as NodeJS.Signals) : null;
}
