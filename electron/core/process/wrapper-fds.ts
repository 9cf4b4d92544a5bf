/**
 * The file descriptors a confined command's wrapper (bwrap) takes beyond stdin, stdout
 * and stderr, in one place for every spawner (the run tool's process group, an MCP
 * server's process): fd 3, where it reports the sandbox's PID 1 (`--info-fd 3`), and
 * fd 4, a pipe it reads the seccomp program from (`--seccomp 4`) before the command
 * starts.
 */
import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';

export interface WrapperFds {
  initPidOnFd3?: boolean;
  inputOnFd4?: Buffer;
}

/** stdio entries for fd 3 and up. */
export function wrapperStdio(fds: WrapperFds): ('pipe' | 'ignore')[] {
  if (fds.inputOnFd4) return ['pipe', 'pipe'];
  return fds.initPidOnFd3 ? ['pipe'] : [];
}

/** Hands the wrapper what it reads on fd 4, once it has started. */
export function feedWrapper(child: ChildProcess, fds: WrapperFds): void {
  if (!fds.inputOnFd4) return;
  const pipe = child.stdio[4] as Writable | null | undefined;
  // A wrapper that died before reading closes the pipe: its exit says why, not an EPIPE here.
  pipe?.on('error', () => {});
  pipe?.end(fds.inputOnFd4);
}
