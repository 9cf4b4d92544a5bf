/**
 * The checkpoint store (checkpoint-store.ts) on the system git: a shadow repository in the
 * data folder, driven by plumbing only, that never opens the person's `.git` for writing
 * (git skips any `.git` in the walk; the store's own git dir and indexes live in the data
 * folder). The pieces, one file each:
 *
 * - store-layout.ts: the folders, the repository's creation, one worktree per session
 * - shadow-git-env.ts, shadow-git.ts, git-run.ts: git kept apart from the person's setup
 * - workspace-status.ts, staging.ts, snapshot.ts: a snapshot
 * - left-out.ts, left-out-reader.ts: what a snapshot left out, kept in its commit
 * - tree-changes.ts, file-diff.ts: comparing snapshots
 * - restore-files.ts, store-input.ts: restoring, and refusing hostile ids and paths
 * - store-lock.ts, repack-policy.ts, store-prune.ts, store-size.ts: sharing and housekeeping
 * - stores-state.ts: what every opener through one WorkspaceStores shares (locks, packing, memories)
 */
import { existsSync } from 'node:fs';
import { mkdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ChangedFile } from '../../../shared/checkpoints.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { CheckpointStore, Snapshot } from './checkpoint-store.js';
import { fileDiff, type FileDiff } from './file-diff.js';
import { GitError } from './git-run.js';
import { LeftOutReader, missingSnapshot } from './left-out-reader.js';
import { restoreFiles } from './restore-files.js';
import { ShadowGit } from './shadow-git.js';
import { takeSnapshot } from './snapshot.js';
import { ensureRepo, ensureWorktree, StoreLayout, worktreeName } from './store-layout.js';
import { checkSnapshotId, checkWorkspacePath } from './store-input.js';
import type { ReadWriteLock } from './store-lock.js';
import { pruneStore } from './store-prune.js';
import { storeBytes } from './store-size.js';
import type { StoresState } from './stores-state.js';
import { readBlob } from './read-blob.js';
import { treeChanges } from './tree-changes.js';

export { storeDirFor } from './store-layout.js';

export interface OpenCheckpointStoreOptions {
  /** The store's folder in the data folder (storeDirFor). */
  storeDir: string;
  workspaceRoot: string;
  /** Whose index this opener uses (a session id): two sessions on one workspace never share an index. */
  indexName: string;
  /** The git binary (findGit). */
  git: string;
  /** What this opener shares with every other opener of the same owner (a WorkspaceStores). */
  state: StoresState;
  /** Where a failure of the background packing goes; it never reaches a caller otherwise. */
  onBackgroundError?: (err: unknown) => void;
  /**
   * The sandbox a restore's writes and deletions run in (restore-room.ts); absent, they
   * run as the app: tests of the store alone, and the size listing, which never restores.
   */
  sandbox?: Sandbox;
}

export async function openCheckpointStore(options: OpenCheckpointStoreOptions): Promise<ShadowCheckpointStore> {
  // A workspace that is gone still has a store to size and prune (Settings lists them all).
  const root = await realpath(options.workspaceRoot).catch(() => path.resolve(options.workspaceRoot));
  const layout = new StoreLayout(path.resolve(options.storeDir));
  await mkdir(layout.storeDir, { recursive: true });
  await ensureRepo(layout, options.git);
  return new ShadowCheckpointStore(
    new ShadowGit(options.git, layout, root),
    worktreeName(options.indexName),
    options.state,
    options.onBackgroundError ?? ((err) => console.error('checkpoint store: packing failed:', err)),
    options.sandbox,
  );
}

export class ShadowCheckpointStore implements CheckpointStore {
  private readonly lock: ReadWriteLock;
  private readonly records: LeftOutReader;
  private readonly worktreeDir: string;

  constructor(
    private readonly shadow: ShadowGit,
    private readonly worktree: string,
    private readonly state: StoresState,
    private readonly onBackgroundError: (err: unknown) => void,
    private readonly sandbox?: Sandbox,
  ) {
    this.lock = state.locks.of(shadow.layout.storeDir);
    this.records = new LeftOutReader(shadow);
    this.worktreeDir = shadow.layout.worktree(worktree);
  }

  async snapshot(): Promise<Snapshot> {
    await this.requireWorkspace();
    return this.lock.shared(() => this.state.locks.inTurn(this.worktreeDir, () => this.snapshotNow()));
  }

  async changes(from: string, to: string, paths?: readonly string[]): Promise<ChangedFile[]> {
    checkSnapshotId(from);
    checkSnapshotId(to);
    paths?.forEach(checkWorkspacePath);
    return this.lock.shared(() =>
      this.explainMissing([from, to], () => treeChanges(this.shadow, this.records, from, to, paths)),
    );
  }

  async diff(from: string, to: string, p: string): Promise<FileDiff> {
    checkSnapshotId(from);
    checkSnapshotId(to);
    checkWorkspacePath(p);
    return this.lock.shared(() =>
      this.explainMissing([from, to], () => fileDiff(this.shadow, this.records, from, to, p)),
    );
  }

  async restore(snapshot: string, paths: readonly string[]): Promise<string[]> {
    checkSnapshotId(snapshot);
    paths.forEach(checkWorkspacePath);
    await this.requireWorkspace();
    return this.lock.shared(() =>
      this.state.locks.inTurn(this.worktreeDir, () =>
        this.explainMissing([snapshot], () => restoreFiles(this.shadow, this.records, snapshot, paths, this.sandbox)),
      ),
    );
  }

  async read(snapshot: string, p: string): Promise<Buffer | null> {
    checkSnapshotId(snapshot);
    checkWorkspacePath(p);
    return this.lock.shared(() => this.explainMissing([snapshot], () => readBlob(this.shadow, snapshot, p)));
  }

  async has(snapshot: string): Promise<boolean> {
    if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(snapshot)) return false;
    return this.lock.shared(() => this.present(snapshot));
  }

  async size(): Promise<number> {
    await this.idle();
    return storeBytes(this.shadow.layout.storeDir);
  }

  async prune(limitBytes: number): Promise<{ removed: number; bytes: number }> {
    await this.idle();
    return this.lock.exclusive(() => pruneStore(this.shadow, this.worktreeDir, limitBytes));
  }

  /** Packs every loose object and ref now, as the background packing does when enough pile up. */
  async compact(): Promise<void> {
    await this.state.repacks.tidyNow(this.shadow);
  }

  /** Settles when the store's background packing, if any, is done (tests, and before a prune). */
  idle(): Promise<void> {
    return this.state.repacks.tidied(this.shadow.layout.storeDir);
  }

  private async requireWorkspace(): Promise<void> {
    const root = this.shadow.workspaceRoot;
    const st = await stat(root).catch(() => null);
    if (!st?.isDirectory()) throw new Error(`the workspace ${root} is not there (moved or deleted?)`);
  }

  private async present(snapshot: string): Promise<boolean> {
    const { code } = await this.shadow.run({
      what: 'look for a snapshot',
      args: ['cat-file', '-e', `${snapshot}^{commit}`],
      okCodes: [1, 128],
    });
    return code === 0;
  }

  /** A git failure about a snapshot the store no longer has becomes an error that says so. */
  private async explainMissing<T>(ids: readonly string[], work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof GitError)) throw err;
      for (const id of ids) if (!(await this.present(id))) throw missingSnapshot(id);
      throw err;
    }
  }

  private async snapshotNow(): Promise<Snapshot> {
    if (!existsSync(path.join(this.worktreeDir, 'HEAD'))) {
      // First use, or a prune dropped this session's idle worktree: start its index afresh.
      await ensureWorktree(this.shadow.layout, this.worktree);
      this.state.lastSnapshots.delete(this.worktreeDir);
    }
    const before = this.state.lastSnapshots.get(this.worktreeDir);
    const outcome = await takeSnapshot(this.shadow, this.worktreeDir, before, this.state.specialFiles);
    this.state.lastSnapshots.set(this.worktreeDir, outcome.last);
    if (outcome.last !== before) {
      this.records.remember(outcome.snapshot.id, outcome.last.message);
      this.state.repacks.noteWrites(this.shadow, outcome.bytes, this.onBackgroundError);
    }
    return outcome.snapshot;
  }
}
