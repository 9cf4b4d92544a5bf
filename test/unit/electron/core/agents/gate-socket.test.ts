/**
 * The gate's socket file: only the app's user reaches it, it goes away with the server,
 * a socket left by a crash is replaced, and anything else at its path is left alone.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGateMcpServer, type GateMcpServer } from '../../../../../electron/core/agents/gate-mcp-server.js';
import type { DriverSeam } from '../../../../../electron/core/sessions/session-driver.js';

/** The socket's checks never reach the seam: no call is made in these tests. */
const seam = {} as DriverSeam;
const turn = { current: () => null };

let root: string;
let gate: GateMcpServer | undefined;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gate-socket-')));
});
afterEach(async () => {
  await gate?.close();
  gate = undefined;
  await fs.rm(root, { recursive: true, force: true });
});

const mode = async (p: string) => (await fs.lstat(p)).mode & 0o777;

/** A socket file whose server died without removing it, as after kill -9. */
async function staleSocket(socketPath: string): Promise<void> {
  const child = spawn(process.execPath, [
    '-e',
    `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`,
  ]);
  await new Promise((resolve) => child.once('exit', resolve));
  expect((await fs.lstat(socketPath)).isSocket()).toBe(true);
}

describe("the gate's socket", () => {
  it('is 0600 in a 0700 folder, even a folder that was there wider', async () => {
    const dir = path.join(root, 'run');
    await fs.mkdir(dir, { mode: 0o755 });
    await fs.chmod(dir, 0o755);
    const socketPath = path.join(dir, 's.sock');
    gate = await startGateMcpServer({ socketPath, seam, turn });
    expect(await mode(socketPath)).toBe(0o600);
    expect(await mode(dir)).toBe(0o700);
  });

  it('is removed when the server closes', async () => {
    const socketPath = path.join(root, 'run', 's.sock');
    gate = await startGateMcpServer({ socketPath, seam, turn });
    await gate.close();
    await expect(fs.lstat(socketPath)).rejects.toThrow(/ENOENT/);
  });

  it('replaces a socket left by a crashed server', async () => {
    const socketPath = path.join(root, 's.sock');
    await staleSocket(socketPath);
    gate = await startGateMcpServer({ socketPath, seam, turn });
    await new Promise<void>((resolve, reject) => net.connect(socketPath, resolve).once('error', reject).unref());
  });

  it('refuses, leaving it alone, a socket another server still listens on', async () => {
    const socketPath = path.join(root, 's.sock');
    const other = net.createServer();
    await new Promise<void>((resolve) => other.listen(socketPath, resolve));
    try {
      await expect(startGateMcpServer({ socketPath, seam, turn })).rejects.toThrow(
        `another gate already listens on ${socketPath}; it was left as it is`,
      );
      expect(other.listening).toBe(true);
      expect((await fs.lstat(socketPath)).isSocket()).toBe(true);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('refuses, leaving it byte for byte, a file that is not a socket', async () => {
    const socketPath = path.join(root, 's.sock');
    await fs.writeFile(socketPath, 'not a socket');
    await expect(startGateMcpServer({ socketPath, seam, turn })).rejects.toThrow(
      `${socketPath} exists and is not a socket; it was left as it is`,
    );
    expect(await fs.readFile(socketPath, 'utf8')).toBe('not a socket');
  });

  it('refuses a path too long for a Unix socket, saying how long', async () => {
    const socketPath = path.join(root, 'x'.repeat(120), 's.sock');
    await expect(startGateMcpServer({ socketPath, seam, turn })).rejects.toThrow(
      /the gate's socket path is too long for a Unix socket \(\d+ bytes, at most 107\)/,
    );
    await expect(fs.lstat(path.dirname(socketPath))).rejects.toThrow(/ENOENT/);
  });

  it('refuses a folder that is a link', async () => {
    const real = path.join(root, 'real');
    await fs.mkdir(real);
    await fs.symlink(real, path.join(root, 'link'));
    await expect(startGateMcpServer({ socketPath: path.join(root, 'link', 's.sock'), seam, turn })).rejects.toThrow(
      /the gate's socket folder is not a folder/,
    );
    expect(await fs.readdir(real)).toEqual([]);
  });
});
