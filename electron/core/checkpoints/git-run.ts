/**
 * One git command of the checkpoint store: spawned through the app's git door
 * (git/workspace-git.ts) with the isolated environment on top, fed its
 * stdin, its output collected up to a cap, killed at its timeout. A failure becomes a
 * GitError that says in words what failed, with the tail of git's stderr. A command killed
 * at its timeout cannot remove its own lock files, so the ones it may hold are removed here.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { spawnPipedWorkspaceGit } from '../git/workspace-git.js';
import type { ErrorKind } from '../error-kind.js';

/** Enough for a status or a tree listing of a very large workspace. */
const DEFAULT_MAX_OUTPUT = 256 * 1024 * 1024;
const STDERR_TAIL_BYTES = 2 * 1024;

export interface GitCall {
  /** What the command does, in words, for the error: "list the workspace's changes". */
  what: string;
  git: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
  input?: string | Buffer;
  /** Exit codes that are answers, not failures (e.g. 1 from `cat-file -e`). */
  okCodes?: readonly number[];
  maxOutput?: number;
  /** Lock files this command may take, removed if it had to be killed. */
  locks?: readonly string[];
}

export interface GitResult {
  code: number;
  stdout: Buffer;
}

export class GitError extends Error {
  /** git failing on the app's own store is the app's fault, not the request's. */
  readonly errorKind: ErrorKind = 'internal';
  override readonly name = 'GitError';
}

export function runGit(call: GitCall): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    // Through the app's one git door, the shadow environment on top; its own process group,
    // so a timeout also stops what git started (repack's pack-objects).
    const child = spawnPipedWorkspaceGit({
      git: call.git,
      args: call.args,
      cwd: call.cwd,
      env: call.env,
      detached: process.platform !== 'win32',
    });
    const stop = () => killGroup(child);
    const timer = setTimeout(stop, call.timeoutMs);
    const out = collect(child.stdout, call.maxOutput ?? DEFAULT_MAX_OUTPUT, stop);
    const err = collectTail(child.stderr, STDERR_TAIL_BYTES);
    child.stdin.on('error', () => undefined); // git may exit before reading all its input: its exit code tells
    child.stdin.end(call.input ?? '');
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new GitError(`could not ${call.what}: git did not start (${e.message})`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stderr = err.text();
      if (signal !== null) {
        for (const lock of call.locks ?? []) rmSync(lock, { force: true });
        const why = out.overflowed
          ? 'its output passed the cap'
          : `it was stopped by ${signal} (timeout ${call.timeoutMs / 1000} s)`;
        reject(new GitError(`could not ${call.what}: ${why}${stderr ? `; git said: ${stderr}` : ''}`));
        return;
      }
      if (code === 0 || call.okCodes?.includes(code ?? -1)) {
        resolve({ code: code ?? 0, stdout: out.buffer() });
        return;
      }
      const command = ['git', ...call.args.filter(isCommand).slice(0, 1)].join(' ');
      reject(new GitError(`could not ${call.what}: ${command} exited with ${code}${stderr ? `: ${stderr}` : ''}`));
    });
  });
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    child.kill('SIGKILL'); // the group is gone already
  }
}

/** The subcommand among the arguments (the first that is neither an option nor a `-c` value). */
function isCommand(arg: string, i: number, args: readonly string[]): boolean {
  return !arg.startsWith('-') && args[i - 1] !== '-c';
}

function collect(stream: NodeJS.ReadableStream, cap: number, onOverflow: () => void) {
  const chunks: Buffer[] = [];
  let size = 0;
  let overflowed = false;
  stream.on('data', (chunk: Buffer) => {
    if (overflowed) return;
    size += chunk.length;
    if (size > cap) {
      overflowed = true;
      onOverflow();
      return;
    }
    chunks.push(chunk);
  });
  return {
    get overflowed() {
      return overflowed;
    },
    buffer: () => Buffer.concat(chunks),
  };
}

/** The last `keep` bytes of a stream (git says what went wrong at the end). */
function collectTail(stream: NodeJS.ReadableStream, keep: number) {
  let held = Buffer.alloc(0);
  let cut = false;
  stream.on('data', (chunk: Buffer) => {
    held = Buffer.concat([held, chunk]);
    if (held.length > keep * 2) {
      held = held.subarray(held.length - keep);
      cut = true;
    }
  });
  return {
    text: () => {
      const text = held
        .subarray(Math.max(0, held.length - keep))
        .toString('utf8')
        .trim();
      return cut || held.length > keep ? `…${text}` : text;
    },
  };
}
