/**
 * A program that could not be started at all (not found, not executable, a missing
 * working folder), in words the model can act on.
 */
import { promises as fs } from 'node:fs';
import type { ErrorKind } from '../error-kind.js';

export class CommandStartError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'CommandStartError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** Turns a spawn failure into a message the model can act on. */
export async function startError(err: NodeJS.ErrnoException, program: string, cwd: string): Promise<CommandStartError> {
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
