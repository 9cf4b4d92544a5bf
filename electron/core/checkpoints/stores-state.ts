/**
 * What the stores opened by one WorkspaceStores share, and nothing else does: DESIGN.md
 * wants no module-level mutable state, and two cores in one process (tests, a second
 * window's core) must not wait on each other's locks or trust each other's memories.
 * Disposed with its WorkspaceStores, so no background packing outlives the core.
 */
import { RepackPolicy } from './repack-policy.js';
import type { LastSnapshot } from './snapshot.js';
import { KnownSpecialFiles } from './special-files.js';
import { StoreLocks } from './store-lock.js';

export class StoresState {
  /** Each store's read-write lock, and each session index's turn. */
  readonly locks = new StoreLocks();
  /** Each store's background packing. */
  readonly repacks = new RepackPolicy(this.locks);
  /** Each session's last snapshot, by worktree dir: shared by every opener of that session's index. */
  readonly lastSnapshots = new Map<string, LastSnapshot>();
  /** The special files found in each workspace, by root. */
  readonly specialFiles = new KnownSpecialFiles();

  dispose(): Promise<void> {
    return this.repacks.dispose();
  }
}
