/**
 * The resident sandboxes of the app's helpers (resident-sandbox.ts), one per working
 * folder, each kept while its view stays the same. A view is known by its key
 * (sandbox/view-key.ts: the profile, the environment and what is on disk at its places):
 * a changed key (a setting, a new shown place, a rules file above the workspace made or
 * replaced) starts a new sandbox, and the old one stops once what runs in it has ended.
 * One that died is replaced at the next entry; one that could not start is not tried
 * again for the same key (callers start each program afresh instead). Idle ones stop, so
 * do all at dispose (the app quitting).
 */
import type { Disposable } from '../lifecycle.js';
import { viewKey } from '../sandbox/view-key.js';
import { ResidentSandbox, type ResidentStart } from './resident-sandbox.js';

export interface ResidentSandboxesOptions {
  /** How long one may go unused before it stops. */
  idleMs?: number;
  /** How many may run at once; entering another retires the least recently used. */
  most?: number;
  /** Stands in for ResidentSandbox.start (tests). */
  start?: (spec: ResidentStart) => Promise<ResidentSandbox>;
}

/** A node process inside bubblewrap costs tens of MB: kept for a burst of greps, not for the whole day. */
const IDLE_MS = 120_000;
/** A workspace and a few folders outside it searched at once. */
const MOST = 4;

interface Slot {
  key: string;
  /** null: it could not start for this key. */
  resident: Promise<ResidentSandbox | null>;
  idle: NodeJS.Timeout | undefined;
  used: number;
}

export class ResidentSandboxes implements Disposable {
  private readonly slots = new Map<string, Slot>();
  private disposed = false;
  private readonly idleMs: number;
  private readonly most: number;
  private readonly startOne: (spec: ResidentStart) => Promise<ResidentSandbox>;

  constructor(options: ResidentSandboxesOptions = {}) {
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.most = options.most ?? MOST;
    this.startOne = options.start ?? ((spec) => ResidentSandbox.start(spec));
  }

  /**
   * The running sandbox for this view, started if need be; null when none can run for it
   * (it could not start, or the app is quitting): the caller then starts its program afresh.
   */
  async enter(spec: ResidentStart): Promise<ResidentSandbox | null> {
    const key = await viewKey(spec.confine.profile, spec.cwd, spec.env);
    if (this.disposed) return null;
    let slot = this.slots.get(spec.cwd);
    if (slot && slot.key === key) {
      const resident = await slot.resident;
      if (resident === null || resident.alive) return this.touched(spec.cwd, slot, resident);
    }
    if (slot) this.retire(spec.cwd, slot);
    slot = { key, resident: this.startOne(spec).catch(() => null), idle: undefined, used: performance.now() };
    this.slots.set(spec.cwd, slot);
    this.retireBeyondMost();
    return this.touched(spec.cwd, slot, await slot.resident);
  }

  /** Stops every one and starts no more. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const slots = [...this.slots.values()];
    this.slots.clear();
    await Promise.all(
      slots.map(async (slot) => {
        clearTimeout(slot.idle);
        await (await slot.resident)?.stop();
      }),
    );
  }

  private touched(cwd: string, slot: Slot, resident: ResidentSandbox | null): ResidentSandbox | null {
    // Entered while the app was quitting: stopped with the rest, never handed out.
    if (this.disposed) {
      void resident?.stop();
      return null;
    }
    slot.used = performance.now();
    clearTimeout(slot.idle);
    slot.idle = setTimeout(() => this.retire(cwd, slot), this.idleMs);
    slot.idle.unref();
    return resident;
  }

  /** Out of the list; stopped once what runs in it has ended. */
  private retire(cwd: string, slot: Slot): void {
    clearTimeout(slot.idle);
    if (this.slots.get(cwd) === slot) this.slots.delete(cwd);
    void slot.resident.then((resident) => resident?.retire());
  }

  private retireBeyondMost(): void {
    while (this.slots.size > this.most) {
      const [cwd, slot] = [...this.slots.entries()].sort((a, b) => a[1].used - b[1].used)[0]!;
      this.retire(cwd, slot);
    }
  }
}
