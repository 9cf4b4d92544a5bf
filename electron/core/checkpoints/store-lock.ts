/**
 * Who may use a store at once, within one core (its WorkspaceStores; the app runs one core
 * per data folder, as a single instance). Snapshots, diffs and restores of any number of
 * sessions share it; a prune has it alone, because `git prune` deletes the loose objects
 * no ref reaches yet, which a snapshot in flight has just written. Each
 * session's index is used by one command sequence at a time, so a stale lock file found
 * at the start of one can only be a dead process's.
 */
import path from 'node:path';
import { SerialQueue } from '../files/serial-queue.js';

export class ReadWriteLock {
  private readers = 0;
  private writer = false;
  private readonly waiting: { exclusive: boolean; start: () => void }[] = [];

  async shared<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire(false);
    try {
      return await work();
    } finally {
      this.release(false);
    }
  }

  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire(true);
    try {
      return await work();
    } finally {
      this.release(true);
    }
  }

  private acquire(exclusive: boolean): Promise<void> {
    // Queued behind anyone waiting, so a prune is not starved by a stream of snapshots.
    if (this.waiting.length === 0 && this.free(exclusive)) {
      this.take(exclusive);
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.waiting.push({
        exclusive,
        start: () => {
          this.take(exclusive);
          resolve();
        },
      }),
    );
  }

  private free(exclusive: boolean): boolean {
    return exclusive ? !this.writer && this.readers === 0 : !this.writer;
  }

  private take(exclusive: boolean): void {
    if (exclusive) this.writer = true;
    else this.readers++;
  }

  private release(exclusive: boolean): void {
    if (exclusive) this.writer = false;
    else this.readers--;
    while (this.waiting.length > 0 && this.free((this.waiting[0] as { exclusive: boolean }).exclusive)) {
      (this.waiting.shift() as { start: () => void }).start();
    }
  }
}

/**
 * The locks and turns of the stores one WorkspaceStores opens: every opener of a store
 * through it shares them, and nothing outside it does (a second core has its own).
 */
export class StoreLocks {
  private readonly locks = new Map<string, ReadWriteLock>();
  private readonly turns = new Map<string, SerialQueue>();

  /** The one lock of the store in this folder, for every opener through these locks. */
  of(storeDir: string): ReadWriteLock {
    const key = path.resolve(storeDir);
    let lock = this.locks.get(key);
    if (!lock) {
      lock = new ReadWriteLock();
      this.locks.set(key, lock);
    }
    return lock;
  }

  /** Runs work after every earlier work with the same key has settled. */
  inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
    let queue = this.turns.get(key);
    if (!queue) {
      queue = new SerialQueue();
      this.turns.set(key, queue);
    }
    const run = queue.run(work);
    // A key's queue goes once idle: keys are sessions' worktrees, which come and go.
    const forget = () => {
      if (queue.idle && this.turns.get(key) === queue) this.turns.delete(key);
    };
    run.then(forget, forget);
    return run;
  }
}
