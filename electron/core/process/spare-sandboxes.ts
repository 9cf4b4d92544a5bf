/**
 * The spare sandboxes of the app's helpers (spare-sandbox.ts): for each working folder,
 * one started ahead for the next program, in the view the last one ran in. A program
 * takes the spare when its view is still the same, and the next one starts meanwhile;
 * otherwise it starts afresh, as before. A view is known by its key (sandbox/view-key.ts:
 * the profile, the environment and what is on disk at its places): a spare made for
 * another key (a setting changed, a new shown place, a rules file above the workspace
 * made or replaced) is stopped unused. Idle spares stop, and so do all at dispose (the app
 * quitting): a spare holds its view's mounts, which keep their file systems busy.
 */
import type { Disposable } from '../lifecycle.js';
import { viewKey } from '../sandbox/view-key.js';
import { ProcessGroup } from './process-group.js';
import { SpareSandbox, type SpareStart } from './spare-sandbox.js';

export interface SpareSandboxesOptions {
  /** How long a spare may wait unused before it stops. */
  idleMs?: number;
  /** How many folders keep a spare at once; another retires the least recently used. */
  most?: number;
  /** Stands in for SpareSandbox.start (tests). */
  start?: (spec: SpareStart) => Promise<SpareSandbox>;
}

/** A burst of greps comes within seconds of each other; a spare is a bubblewrap and a shell. */
const IDLE_MS = 60_000;
/** A workspace and a few folders outside it searched at once. */
const MOST = 4;

interface Slot {
  key: string;
  /** null: it could not start (the next program starts afresh, and says why if it cannot either). */
  spare: Promise<SpareSandbox | null>;
  idle: NodeJS.Timeout | undefined;
  used: number;
}

export class SpareSandboxes implements Disposable {
  private readonly slots = new Map<string, Slot>();
  private disposed = false;
  private readonly idleMs: number;
  private readonly most: number;
  private readonly startOne: (spec: SpareStart) => Promise<SpareSandbox>;

  constructor(options: SpareSandboxesOptions = {}) {
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.most = options.most ?? MOST;
    this.startOne = options.start ?? ((spec) => SpareSandbox.start(spec));
  }

  /**
   * `argv` running in `spec`'s view: in the spare made for it when there is one, else in a
   * sandbox started now; either way the next spare starts meanwhile. Throws as
   * ProcessGroup.start does.
   */
  async run(spec: SpareStart, argv: readonly string[]): Promise<ProcessGroup> {
    const key = await viewKey(spec.confine.profile, spec.cwd, spec.env);
    const slot = this.slots.get(spec.cwd);
    if (slot) this.forget(spec.cwd, slot);
    const spare = slot ? await slot.spare : null;
    // Made for another view, or dead: stopped unused.
    if (!spare?.usable || slot?.key !== key) void spare?.stop();
    const group =
      spare?.usable && slot?.key === key
        ? spare.become(argv)
        : await ProcessGroup.start({ argv, cwd: spec.cwd, env: spec.env, stdin: 'ignore', confine: spec.confine });
    // Once this program runs: the next spare's start must not hold up this one's.
    if (!this.disposed) this.prepare(spec, key);
    return group;
  }

  /** Stops every spare, and makes no more. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const slots = [...this.slots.entries()];
    await Promise.all(slots.map(([cwd, slot]) => this.retire(cwd, slot)));
  }

  /** Starts the next spare for this folder's view. */
  private prepare(spec: SpareStart, key: string): void {
    const slot: Slot = { key, spare: this.startOne(spec).catch(() => null), idle: undefined, used: performance.now() };
    slot.idle = setTimeout(() => void this.retire(spec.cwd, slot), this.idleMs);
    slot.idle.unref();
    // Another grep of this folder may have made one meanwhile: one spare per folder.
    const before = this.slots.get(spec.cwd);
    if (before) void this.retire(spec.cwd, before);
    this.slots.set(spec.cwd, slot);
    while (this.slots.size > this.most) {
      const [cwd, oldest] = [...this.slots.entries()].sort((a, b) => a[1].used - b[1].used)[0]!;
      void this.retire(cwd, oldest);
    }
  }

  /** Out of the list: its spare is the caller's to use or stop. */
  private forget(cwd: string, slot: Slot): void {
    clearTimeout(slot.idle);
    if (this.slots.get(cwd) === slot) this.slots.delete(cwd);
  }

  /** Out of the list, its spare stopped unused. */
  private async retire(cwd: string, slot: Slot): Promise<void> {
    this.forget(cwd, slot);
    await (await slot.spare)?.stop();
  }
}
