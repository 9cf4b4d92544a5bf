/**
 * events.jsonl: the append-only record of one session, one JSON event a line.
 *
 * Durability. An append is acknowledged (its promise resolves) only after its line has
 * been written *and* fdatasync'd, with syncs group-committed across concurrent appends.
 * A returned write() alone already survives a killed process (the bytes sit in the OS
 * page cache); the fsync is for power loss and OS crashes. We pay it because the log is a
 * write-ahead record of permission decisions: an answered card is logged before the file
 * write or command it allows runs, and without the fsync a power cut could keep the
 * effect on disk and lose the decision that allowed it. The cost is about one fsync per
 * awaited append (well under a millisecond on an SSD), against a turn's model round trips
 * of seconds; token deltas are never logged. 'none' exists for benchmarks and callers
 * that knowingly trade that away.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import { writeFileAtomic } from '../files/atomic-file.js';
import { systemClock, type Clock } from './clock.js';
import { parseEventLines } from './event-lines.js';
import { PRIVATE_FILE_MODE } from '../files/private-files.js';
import { GroupSync } from './group-sync.js';
import { SerialQueue } from '../files/serial-queue.js';

export type Durability = 'fsync' | 'none';

export type AppendListener = (event: SessionEvent) => void;

export interface SessionLogOptions {
  /** Path of events.jsonl; its folder must exist. */
  file: string;
  clock?: Clock;
  /** Default 'fsync' (see the file comment). */
  durability?: Durability;
  /** Where an exception thrown by an onAppend listener goes; the append itself still succeeds. */
  onListenerError?: (err: unknown) => void;
}

/** A torn tail found on opening, and where its bytes were kept. */
export interface TornTail {
  keptAt: string;
  bytes: number;
}

/** What the log knows once the file has been read and its tail repaired. */
interface OpenLog {
  handle: FileHandle;
  /** Bytes of good lines in the file; a failed write is truncated back to this. */
  size: number;
}

export class SessionLog {
  readonly file: string;
  private readonly clock: Clock;
  private readonly durability: Durability;
  private readonly onListenerError: (err: unknown) => void;
  private readonly queue = new SerialQueue();
  private readonly listeners = new Set<AppendListener>();
  private readonly syncs = new GroupSync(() => this.syncHandle());
  private readonly torn: TornTail[] = [];
  private open: OpenLog | null = null;
  private lastSeq = 0;
  private closed = false;
  /** Set when a failed write could not be undone; every later append fails with it. */
  private broken: Error | null = null;

  constructor(options: SessionLogOptions) {
    this.file = options.file;
    this.clock = options.clock ?? systemClock;
    this.durability = options.durability ?? 'fsync';
    this.onListenerError = options.onListenerError ?? ((err) => console.error('session log listener failed:', err));
  }

  /** Assigns the next seq and the time, writes the line, and resolves once it is durable. */
  async append(payload: EventPayload): Promise<SessionEvent> {
    const { event, durable } = await this.queue.run(() => this.write(payload));
    await durable;
    return event;
  }

  /** Every event with seq > sinceSeq, in order. Repairs a torn tail first (see event-lines.ts). */
  readEvents(sinceSeq = 0): Promise<SessionEvent[]> {
    return this.queue.run(async () => {
      const events = await this.load();
      return sinceSeq > 0 ? events.filter((e) => e.seq > sinceSeq) : events;
    });
  }

  /**
   * Calls `listener` with each event once its line is written (before its fsync, which
   * only matters for power loss), in seq order. Returns the unsubscribe.
   */
  onAppend(listener: AppendListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Torn tails this instance found and set aside. */
  tornTails(): readonly TornTail[] {
    return this.torn;
  }

  /** Waits for pending appends and syncs, then releases the file. Later appends fail. */
  close(): Promise<void> {
    return this.queue.run(async () => {
      this.closed = true;
      if (!this.open) return;
      await this.syncs.request();
      await this.open.handle.close();
      this.open = null;
    });
  }

  private async write(payload: EventPayload): Promise<{ event: SessionEvent; durable: Promise<void> }> {
    const log = await this.ready();
    const event = { seq: this.lastSeq + 1, ts: this.clock().toISOString(), ...payload } as SessionEvent;
    const bytes = Buffer.from(`${JSON.stringify(event)}\n`);
    await this.writeWhole(log, bytes);
    this.lastSeq = event.seq;
    this.notify(event);
    // Requested inside the queue, so close() (queued behind) always waits for this sync.
    const durable = this.durability === 'fsync' ? this.syncs.request() : Promise.resolve();
    return { event, durable };
  }

  private async ready(): Promise<OpenLog> {
    if (this.closed) throw new Error(`${this.file}: the log is closed`);
    if (this.broken) throw this.broken;
    if (!this.open) await this.load();
    if (!this.open) throw new Error(`${this.file}: the log is closed`);
    return this.open;
  }

  /** Reads the whole file, sets a torn tail aside, and opens the file for appending. */
  private async load(): Promise<SessionEvent[]> {
    const data = await fs.readFile(this.file).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return Buffer.alloc(0);
      throw err;
    });
    const parsed = parseEventLines(data, this.file);
    if (parsed.torn) await this.setAside(parsed.torn, parsed.goodBytes);
    this.lastSeq = parsed.events.at(-1)?.seq ?? 0;
    if (this.open) this.open.size = parsed.goodBytes;
    else if (!this.closed)
      this.open = { handle: await fs.open(this.file, 'a', PRIVATE_FILE_MODE), size: parsed.goodBytes };
    return parsed.events;
  }

  /** Copies the torn bytes to a file of their own (durably) before cutting them off. */
  private async setAside(torn: Buffer, goodBytes: number): Promise<void> {
    const stamp = this.clock().toISOString().replace(/[-:.]/g, '');
    const keptAt = `${this.file}.torn-${stamp}-${randomBytes(3).toString('hex')}`;
    await writeFileAtomic(keptAt, torn);
    const handle = await fs.open(this.file, 'r+');
    try {
      await handle.truncate(goodBytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    this.torn.push({ keptAt, bytes: torn.length });
  }

  private async writeWhole(log: OpenLog, bytes: Buffer): Promise<void> {
    try {
      let done = 0;
      while (done < bytes.length) {
        const { bytesWritten } = await log.handle.write(bytes, done, bytes.length - done);
        done += bytesWritten;
      }
      log.size += bytes.length;
    } catch (err) {
      await this.rollback(log, err);
      throw err;
    }
  }

  /** Cuts a partial line off (ENOSPC, EIO) so the next append does not land after garbage. */
  private async rollback(log: OpenLog, cause: unknown): Promise<void> {
    try {
      await log.handle.truncate(log.size);
    } catch {
      this.broken = new Error(`${this.file}: a failed append could not be undone; refusing further appends`, {
        cause,
      });
    }
  }

  private notify(event: SessionEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  private async syncHandle(): Promise<void> {
    // The kernel reports a failed fsync once; a later "successful" one proves nothing.
    if (this.broken) throw this.broken;
    try {
      await this.open?.handle.datasync();
    } catch (err) {
      // After a failed fsync the kernel may have dropped the dirty pages and will not
      // report it again, so later appends could not be trusted to be durable either.
      this.broken = new Error(`${this.file}: fdatasync failed; refusing further appends`, { cause: err });
      throw err;
    }
  }
}
