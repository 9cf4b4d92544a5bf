/**
 * The Unix socket the gate's MCP face listens on. Only the app's own user may reach it
 * (the socket 0600 in a 0700 folder, the folder ours and not a link), since whoever
 * reaches it can ask for cards in the session's name. A socket file left by a crash is
 * replaced; a live one, or anything that is not a socket, is never touched.
 */
import { promises as fs } from 'node:fs';
import type { Server } from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { ErrorKind } from '../error-kind.js';

/** sun_path holds 108 bytes with its NUL on Linux: a longer path cannot be listened on. */
export const SOCKET_PATH_MAX_BYTES = 107;

/** The session's socket cannot be listened on as asked (a path too long, a link, something else there). */
export class GateSocketError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'GateSocketError';
}

/** Makes the socket's folder private and clears a stale socket; throws GateSocketError, changing nothing, when it cannot. */
export async function prepareSocketPath(socketPath: string): Promise<void> {
  if (!path.isAbsolute(socketPath)) throw new GateSocketError(`the gate's socket path must be absolute: ${socketPath}`);
  const bytes = Buffer.byteLength(socketPath);
  if (bytes > SOCKET_PATH_MAX_BYTES) {
    throw new GateSocketError(
      `the gate's socket path is too long for a Unix socket (${bytes} bytes, at most ${SOCKET_PATH_MAX_BYTES}): ${socketPath}`,
    );
  }
  await privateFolder(path.dirname(socketPath));
  await clearStaleSocket(socketPath);
}

async function privateFolder(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await fs.lstat(dir);
  if (!st.isDirectory()) throw new GateSocketError(`the gate's socket folder is not a folder: ${dir}`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
    throw new GateSocketError(`the gate's socket folder belongs to another user: ${dir}`);
  }
  // mkdir leaves an existing folder's mode as it was, and the umask can narrow a new one's.
  if ((st.mode & 0o777) !== 0o700) await fs.chmod(dir, 0o700);
}

async function clearStaleSocket(socketPath: string): Promise<void> {
  let st;
  try {
    st = await fs.lstat(socketPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (!st.isSocket()) throw new GateSocketError(`${socketPath} exists and is not a socket; it was left as it is`);
  if (await someoneListens(socketPath)) {
    throw new GateSocketError(`another gate already listens on ${socketPath}; it was left as it is`);
  }
  await fs.rm(socketPath, { force: true });
}

/** A connection is taken: a live server. Refused: a socket file whose server is gone. */
function someoneListens(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Listens on the socket, 0600, and returns its inode so closing removes only this socket. */
export async function listenOnSocket(server: Server, socketPath: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await fs.chmod(socketPath, 0o600);
  return (await fs.lstat(socketPath)).ino;
}

/** Removes the socket file if it is still the one this server made (a newer server may have replaced it). */
export async function removeSocket(socketPath: string, ino: number): Promise<void> {
  try {
    if ((await fs.lstat(socketPath)).ino === ino) await fs.rm(socketPath, { force: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
