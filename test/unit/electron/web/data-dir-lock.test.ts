/**
 * One app per data folder: a second web host, or one beside a running desktop app, is
 * refused with a clear error; a lock left by a process that is gone is taken over.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../../../electron/web/data-dir-lock.js';
import { makeZombie } from '../core/process/zombie.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-lock-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

describe('lockDataDir', () => {
  it('refuses a second holder while the first lives, and frees the folder on release', async () => {
    const first = await lockDataDir(dir);
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      await fs.writeFile(path.join(dir, 'web-host.lock'), `${holder.pid}\n`);
      await expect(lockDataDir(dir)).rejects.toThrow(`another Gatehouse web host (pid ${holder.pid}) is using ${dir}`);
    } finally {
      holder.kill('SIGKILL');
    }
    await first.release();
    await expect(fs.access(path.join(dir, 'web-host.lock'))).rejects.toThrow();
    const again = await lockDataDir(dir);
    await again.release();
  });

  it('takes over a lock whose process is gone (a crash)', async () => {
    await fs.writeFile(path.join(dir, 'web-host.lock'), `${await deadPid()}\n`);
    const lock = await lockDataDir(dir);
    expect((await fs.readFile(path.join(dir, 'web-host.lock'), 'utf8')).trim()).toBe(String(process.pid));
    await lock.release();
  });

  // A host killed with SIGKILL where nothing reaps orphans (a container with no init) lingers as a zombie.
  it.runIf(process.platform === 'linux')('takes over a lock whose process is a zombie', async () => {
    const zombie = await makeZombie();
    try {
      await fs.writeFile(path.join(dir, 'web-host.lock'), `${zombie.pid}\n`);
      const lock = await lockDataDir(dir);
      expect((await fs.readFile(path.join(dir, 'web-host.lock'), 'utf8')).trim()).toBe(String(process.pid));
      await lock.release();
    } finally {
      await zombie.release();
    }
  });

  it('refuses a folder a running desktop app holds (its SingletonLock), not one it left behind', async () => {
    await fs.symlink(`${os.hostname()}-${process.pid}`, path.join(dir, 'SingletonLock'));
    await expect(lockDataDir(dir)).rejects.toThrow('the Gatehouse desktop app');
    await fs.rm(path.join(dir, 'SingletonLock'));
    await fs.symlink(`${os.hostname()}-${await deadPid()}`, path.join(dir, 'SingletonLock'));
    const lock = await lockDataDir(dir);
    await lock.release();
  });
});
