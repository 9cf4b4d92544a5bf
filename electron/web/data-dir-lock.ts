/**
 * One app per data folder. Two cores appending to the same session logs would interleave
 * their sequence numbers, so a second web host on a folder already in use is refused, as
 * is one on the folder of a running desktop app (Chromium's SingletonLock, a symlink to
 * "<hostname>-<pid>"). A lock whose process is gone (a crash, kill -9) is taken over.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pidAlive } from '../core/process/pid-alive.js';

const LOCK_FILE = 'web-host.lock';

export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

export interface DataDirLock {
  release(): Promise<void>;
}

export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  await refuseIfDesktopRuns(dataDir);
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return { release: () => fs.rm(file, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number((await fs.readFile(file, 'utf8').catch(() => '')).trim());
    if (holder !== process.pid && pidAlive(holder)) {
      throw new DataDirInUseError(
        `another Gatehouse web host (pid ${holder}) is using ${dataDir}; stop it first, or pass --data-dir for another folder`,
      );
    }
    await fs.rm(file, { force: true });
  }
  throw new DataDirInUseError(`could not take the lock ${file}; another Gatehouse is starting on ${dataDir}`);
}

async function refuseIfDesktopRuns(dataDir: string): Promise<void> {
  const target = await fs.readlink(path.join(dataDir, 'SingletonLock')).catch(() => null);
  const match = target ? /^(.*)-(\d+)$/.exec(target) : null;
  if (match && match[1] === os.hostname() && pidAlive(Number(match[2]))) {
    throw new DataDirInUseError(
      `the Gatehouse desktop app (pid ${match[2]}) is using ${dataDir}; quit it first, or pass --data-dir for another folder`,
    );
  }
}
