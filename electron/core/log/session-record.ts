/**
 * One opened session on disk: its log, its blobs, and its meta.json, with the state
 * rebuilt by the same reducer the renderer uses. The store hands these out; the runner
 * and the gate write through them.
 */
import { sameGrant, type Grant } from '../../../shared/cards.js';
import { foldEvents, type SessionState } from '../../../shared/reducer.js';
import { BlobStore } from './blob-store.js';
import { systemClock, type Clock } from './clock.js';
import { SerialQueue } from '../files/serial-queue.js';
import { SessionLog, type Durability } from './session-log.js';
import { writeMeta, type SessionMeta } from './session-meta.js';
import type { SessionPaths } from './session-paths.js';

export interface SessionRecordOptions {
  paths: SessionPaths;
  /** meta.json as just read, already validated. */
  meta: SessionMeta;
  clock?: Clock;
  durability?: Durability;
  /** Called once the record is closed, so whoever handed it out can forget it. */
  onClosed?: () => void;
}

export type MetaChange = (meta: SessionMeta) => SessionMeta;

export class SessionRecord {
  readonly id: string;
  readonly dir: string;
  readonly log: SessionLog;
  readonly blobs: BlobStore;
  private readonly clock: Clock;
  private readonly metaQueue = new SerialQueue();
  private readonly onClosed: () => void;
  private current: SessionMeta;

  constructor(options: SessionRecordOptions) {
    this.id = options.meta.id;
    this.dir = options.paths.dir;
    this.clock = options.clock ?? systemClock;
    this.log = new SessionLog({ file: options.paths.events, clock: this.clock, durability: options.durability });
    this.blobs = new BlobStore(options.paths.blobs);
    this.current = options.meta;
    this.onClosed = options.onClosed ?? (() => {});
  }

  /** The meta as last written, after any updates queued before this call. */
  meta(): Promise<SessionMeta> {
    return this.metaQueue.run(async () => structuredClone(this.current));
  }

  /**
   * Applies `change` to a copy of the meta and writes the result atomically. Updates run
   * one at a time, so two read-modify-writes never lose each other's changes. updatedAt
   * is set here; id and createdAt cannot change.
   */
  updateMeta(change: MetaChange): Promise<SessionMeta> {
    return this.metaQueue.run(async () => {
      const before = this.current;
      const changed = change(structuredClone(before));
      if (changed.id !== before.id || changed.createdAt !== before.createdAt) {
        throw new Error(`session ${before.id}: updateMeta cannot change id or createdAt`);
      }
      const next = { ...changed, updatedAt: this.clock().toISOString() };
      await writeMeta(this.dir, next);
      this.current = next;
      return structuredClone(next);
    });
  }

  /** Records an allow_session grant in meta.json, once. */
  async addGrant(grant: Grant): Promise<SessionMeta> {
    const meta = await this.meta();
    if (meta.grants.some((g) => sameGrant(g, grant))) return meta;
    return this.updateMeta((m) =>
      m.grants.some((g) => sameGrant(g, grant)) ? m : { ...m, grants: [...m.grants, grant] },
    );
  }

  /** The whole state, folded from the log on disk. */
  async state(): Promise<SessionState> {
    return foldEvents(await this.log.readEvents());
  }

  async close(): Promise<void> {
    await this.log.close();
    await this.metaQueue.run(async () => undefined);
    this.onClosed();
  }
}
