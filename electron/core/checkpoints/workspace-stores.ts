/**
 * The app's door into the checkpoints room (SPEC §12): one store per workspace in the
 * data folder, opened on first use by any session on it (each session its own index),
 * kept under the limit from Settings, and listed with their sizes. Without git on the
 * machine there is no store, and every opener says why. What its stores share (locks,
 * packing, memories) is its own (stores-state.ts), let go of with it: disposed with the
 * core, it lets no background packing or prune outlive it, and opens nothing after.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CheckpointStore, GitAvailability } from './checkpoint-store.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { GitFinder } from './find-git.js';
import { STORES_DISPOSED } from './repack-policy.js';
import { openCheckpointStore, storeDirFor } from './shadow-repo.js';
import type { CheckpointAccess } from './session-checkpoints.js';
import { StoresState } from './stores-state.js';

/** How many checkpoints a store takes between two looks at its size. */
const PRUNE_EVERY = 20;

/** The file in a store's folder that names its workspace, for Settings' list. */
const WORKSPACE_FILE = 'workspace';

export interface WorkspaceStoresDeps {
  dataDir: string;
  /** The limit per workspace, in bytes, read afresh at each look. */
  limitBytes: () => number;
  /** Where git is, or why it is not; by default the system git on PATH. */
  git?: () => Promise<GitAvailability>;
  onUnexpected?: (err: unknown) => void;
  /** The sandbox a restore's writes and deletions run in (a NoSandbox where none can run). */
  sandbox: Sandbox;
}

export class WorkspaceStores {
  private readonly opened = new Map<string, Promise<CheckpointStore>>();
  private readonly taken = new Map<string, number>();
  private readonly gitFinder = new GitFinder();
  /** Background prunes under way: dispose waits for them. */
  private readonly pruning = new Set<Promise<void>>();
  private disposed = false;
  /** What its stores share; reached by tests that set up what an earlier snapshot would have found. */
  readonly state = new StoresState();

  constructor(private readonly deps: WorkspaceStoresDeps) {}

  /** Whether checkpoints can run on this machine. */
  availability(): Promise<GitAvailability> {
    return this.deps.git ? this.deps.git() : this.gitFinder.find();
  }

  /** Opens no store from now on; settles when the background packing and prunes under way are done. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.allSettled([...this.pruning, this.state.dispose()]);
  }

  /** How a session of this workspace reaches its store; its index is its own. */
  access(sessionId: string, workspaceRoot: string): CheckpointAccess {
    const storeDir = storeDirFor(this.deps.dataDir, workspaceRoot);
    const open = async () => {
      if (this.disposed) throw new Error(STORES_DISPOSED);
      const git = await this.availability();
      if (!git.ok) return { unavailable: `${git.reason}; ${git.fix}` };
      const key = `${workspaceRoot}\0${sessionId}`;
      let store = this.opened.get(key);
      if (!store) {
        store = this.open(storeDir, sessionId, workspaceRoot, git.git);
        this.opened.set(key, store);
        store.catch(() => this.opened.delete(key));
      }
      return store;
    };
    const checkpointed = () => {
      if (this.disposed) return;
      open()
        .then((s) => 'size' in s && this.tick(storeDir, s))
        .catch((err: unknown) => this.deps.onUnexpected?.(err));
    };
    return { open, checkpointed };
  }

  /** Every workspace's store and its size, largest first. */
  async sizes(): Promise<{ workspace: string; bytes: number }[]> {
    const root = path.join(this.deps.dataDir, 'checkpoints');
    const names = await readdir(root).catch(() => [] as string[]);
    const found = await Promise.all(names.map((name) => this.sizeOf(path.join(root, name))));
    return found.flatMap((f) => (f ? [f] : [])).sort((a, b) => b.bytes - a.bytes);
  }

  private async open(
    storeDir: string,
    sessionId: string,
    workspaceRoot: string,
    git: string,
  ): Promise<CheckpointStore> {
    await mkdir(storeDir, { recursive: true });
    await writeFile(path.join(storeDir, WORKSPACE_FILE), workspaceRoot);
    return openCheckpointStore({
      storeDir,
      workspaceRoot,
      indexName: sessionId,
      git,
      sandbox: this.deps.sandbox,
      state: this.state,
    });
  }

  /** Every PRUNE_EVERY checkpoints, the store drops its oldest snapshots if it is over the limit. */
  private tick(storeDir: string, store: CheckpointStore): void {
    const n = (this.taken.get(storeDir) ?? 0) + 1;
    this.taken.set(storeDir, n);
    if (n % PRUNE_EVERY !== 1 || this.disposed) return;
    const run = this.keepUnderLimit(store).catch((err: unknown) => this.deps.onUnexpected?.(err));
    this.pruning.add(run);
    void run.finally(() => this.pruning.delete(run));
  }

  private async keepUnderLimit(store: CheckpointStore): Promise<void> {
    const limit = this.deps.limitBytes();
    if ((await store.size()) > limit) await store.prune(limit);
  }

  private async sizeOf(dir: string): Promise<{ workspace: string; bytes: number } | null> {
    const workspace = await readFile(path.join(dir, WORKSPACE_FILE), 'utf8').catch(() => null);
    if (workspace === null) return null;
    const git = await this.availability();
    if (!git.ok) return null;
    const store = await openCheckpointStore({
      storeDir: dir,
      workspaceRoot: workspace,
      indexName: 'settings',
      git: git.git,
      state: this.state,
    });
    return { workspace, bytes: await store.size() };
  }
}
