/**
 * Keeps the store compact between prunes. Snapshots write loose objects (one zlib'd file
 * per changed file, tree and commit); every so often they are packed, where versions of a
 * file become deltas of each other (a 1 MiB text file edited 100 times costs about one
 * copy, not a hundred). `repack --geometric=2` packs the loose objects and rolls small
 * packs into bigger ones, so the big pack of a first snapshot is not rewritten each time;
 * the snapshot refs, one file each, are packed into packed-refs.
 *
 * It runs in the background after a snapshot (nothing waits for it), one at a time per
 * store, sharing the store lock: packing only adds packs and then drops loose copies git
 * has packed, which a snapshot in flight never needs. It never outlives the stores' owner
 * (RepackPolicy.dispose): a git left packing after the app quits would hold the store.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { GitError } from './git-run.js';
import { SNAPSHOT_REFS } from './snapshot.js';
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';
import type { StoreLocks } from './store-lock.js';

/** A look at the loose objects after this many snapshots that wrote some, or this many bytes hashed. */
const CHECK_EVERY_SNAPSHOTS = 20;
const CHECK_EVERY_BYTES = 4 * 1024 * 1024;
/** Pack when the loose objects reach either. */
const LOOSE_OBJECTS_MAX = 500;
const LOOSE_BYTES_MAX = 4 * 1024 * 1024;
/** Pack the snapshot refs when this many are loose files. */
const LOOSE_REFS_MAX = 200;

interface Pending {
  snapshots: number;
  bytes: number;
  running: Promise<void> | null;
}

/** What a repack asked for after its stores were disposed gets: the words say why. */
export const STORES_DISPOSED = 'the checkpoint stores are closed (the app is quitting)';

/**
 * The packing of the stores one WorkspaceStores opens. Disposed with them: a packing under
 * way is awaited, one queued behind it never starts, and none is started after.
 */
export class RepackPolicy {
  private readonly pending = new Map<string, Pending>();
  private readonly inFlight = new Set<Promise<void>>();
  private disposed = false;

  constructor(private readonly locks: StoreLocks) {}

  /** Counts a snapshot's writes; starts a look at the store when enough have piled up. */
  noteWrites(shadow: ShadowGit, bytes: number, onError: (err: unknown) => void): void {
    const state = this.stateOf(shadow.layout.storeDir);
    state.snapshots += 1;
    state.bytes += bytes;
    if (state.running || (state.snapshots < CHECK_EVERY_SNAPSHOTS && state.bytes < CHECK_EVERY_BYTES)) return;
    state.snapshots = 0;
    state.bytes = 0;
    state.running = this.tidyInTurn(shadow, false)
      .catch((err: unknown) => {
        if (!(err instanceof Error && err.message === STORES_DISPOSED)) onError(err);
      })
      .finally(() => {
        state.running = null;
      });
  }

  /** Packs every loose object and ref now (after any packing under way). */
  tidyNow(shadow: ShadowGit): Promise<void> {
    return this.tidyInTurn(shadow, true);
  }

  /** Settles when the store's background tidying (if any) is done. */
  async tidied(storeDir: string): Promise<void> {
    await this.pending.get(storeDir)?.running;
  }

  /** Refuses every packing from now on, and settles when the ones under way are done. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.allSettled(this.inFlight);
  }

  /** One packing at a time per store: two repacks at once could each delete packs the other reads. */
  private tidyInTurn(shadow: ShadowGit, now: boolean): Promise<void> {
    const { storeDir } = shadow.layout;
    // Asked when its turn comes, not when it is queued: one queued before dispose must not start after it.
    const run = this.locks.inTurn(`${storeDir}\0tidy`, () =>
      this.disposed
        ? Promise.reject(new Error(STORES_DISPOSED))
        : this.locks.of(storeDir).shared(() => tidy(shadow, now)),
    );
    this.inFlight.add(run);
    const done = () => this.inFlight.delete(run);
    run.then(done, done);
    return run;
  }

  private stateOf(storeDir: string): Pending {
    let state = this.pending.get(storeDir);
    if (!state) {
      state = { snapshots: 0, bytes: 0, running: null };
      this.pending.set(storeDir, state);
    }
    return state;
  }
}

/** Packs loose objects and loose refs when there are enough of them (any at all, with `now`). */
async function tidy(shadow: ShadowGit, now = false): Promise<void> {
  const loose = await looseObjects(shadow);
  const enough = now ? loose.count > 0 : loose.count >= LOOSE_OBJECTS_MAX || loose.bytes >= LOOSE_BYTES_MAX;
  if (enough) {
    await repack(shadow, ['-d', '--geometric=2']).catch((err: unknown) => {
      // A git older than 2.33 has no geometric repack: pack the loose objects alone.
      if (err instanceof GitError && /geometric/.test(err.message)) return repack(shadow, ['-d']);
      throw err;
    });
  }
  const refs = await readdir(path.join(shadow.layout.repo, SNAPSHOT_REFS)).catch(() => []);
  if (refs.length >= (now ? 1 : LOOSE_REFS_MAX)) await packRefs(shadow);
}

/** `git repack` with these options, quietly and without bitmaps (nothing here serves fetches). */
export async function repack(shadow: ShadowGit, options: readonly string[]): Promise<void> {
  await shadow.run({
    what: 'pack the checkpoint store',
    args: ['-c', 'repack.writeBitmaps=false', 'repack', '-q', ...options],
    timeoutMs: LONG_TIMEOUT_MS,
  });
}

export async function packRefs(shadow: ShadowGit): Promise<void> {
  // Only this process packs refs, and only one tidy or prune at a time: a lock here is a dead one's.
  const lock = path.join(shadow.layout.repo, 'packed-refs.lock');
  await rm(lock, { force: true });
  await shadow.run({ what: "pack the store's snapshot refs", args: ['pack-refs', '--all', '--prune'], locks: [lock] });
}

async function looseObjects(shadow: ShadowGit): Promise<{ count: number; bytes: number }> {
  const out = await shadow.text({ what: 'count the loose objects', args: ['count-objects', '-v'] });
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(out)?.[1] ?? 0);
  return { count: field('count'), bytes: field('size') * 1024 };
}
