/**
 * Card diffs without holding the caller's event loop. A small pair that lines up cheaply
 * is diffed in place (a millisecond or two, and no thread to start); anything else goes to
 * one long-lived worker thread, started on first need and restarted if it dies. Starting
 * a thread cost 100–300 ms here, several times the diff itself, so it is kept, not spawned
 * per call; it is unref'd while idle so it never keeps the process alive.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { CardDiff } from '../../../shared/diff/card-diff.js';
import { QUICK_DIFF_BUDGET } from '../../../shared/diff/line-diff.js';
import { cardOf, computeCardDiff } from './bytes-card-diff.js';
import type { DiffReply, DiffRequest } from './diff-messages.js';
import { unifiedDiffOfBytes, type DiffSides } from './bytes-diff.js';

/** Pairs up to this many bytes (both sides together) are diffed in place if the exact diff fits QUICK_DIFF_BUDGET; else the worker does it. */
export const INLINE_MAX_BYTES = 64 * 1024;

export interface CardDifferOptions {
  /**
   * The worker entry. By default diff-worker.js beside this module: a bundle must emit
   * that entry next to the chunk holding this code. From .ts sources (vitest, tsx) the
   * worker loads them through tsx.
   */
  workerUrl?: URL;
}

interface Pending {
  sides: DiffSides;
  resolve: (diff: CardDiff) => void;
  reject: (error: Error) => void;
}

export class CardDiffer {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #closed = false;

  constructor(private readonly options: CardDifferOptions = {}) {}

  /** The card diff of `sides`. Bound, so it can be handed around as a plain function. */
  readonly diff = (sides: DiffSides): Promise<CardDiff> => {
    if (this.#closed) return Promise.reject(new Error('CardDiffer is closed'));
    if (byteSize(sides) <= INLINE_MAX_BYTES) {
      const quick = unifiedDiffOfBytes(sides, QUICK_DIFF_BUDGET);
      if (!quick.simplified) return Promise.resolve(cardOf(quick, sides));
    }
    return this.#inWorker(sides);
  };

  /** Stops the worker. Diffs still waiting are rejected. */
  async dispose(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    this.#settleAll((p) => p.reject(new Error('CardDiffer closed before the diff was done')));
    await worker?.terminate();
  }

  #inWorker(sides: DiffSides): Promise<CardDiff> {
    let worker: Worker;
    try {
      worker = this.#ensureWorker();
    } catch {
      // Same reasoning as #onWorkerLost: a card always gets its diff.
      return Promise.resolve(computeCardDiff(sides));
    }
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      this.#pending.set(id, { sides, resolve, reject });
      worker.ref();
      const { before, after, transfer } = copiedBytes(sides);
      worker.postMessage({ id, path: sides.path, before, after } satisfies DiffRequest, transfer);
    });
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.options.workerUrl ?? new URL('./diff-worker.js', import.meta.url), workerOptions());
    worker.on('message', (reply: DiffReply) => this.#onReply(reply));
    worker.on('error', () => this.#onWorkerLost(worker));
    worker.on('exit', () => this.#onWorkerLost(worker));
    this.#worker = worker;
    return worker;
  }

  #onReply(reply: DiffReply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker?.unref();
    if ('diff' in reply) pending.resolve(reply.diff);
    else pending.reject(new Error(`card diff failed: ${reply.error}`));
  }

  /**
   * A worker that fails to load (a bundle without its entry) or dies must not leave a
   * card without its diff: what it held is diffed here, bounded, and the next call starts
   * a fresh worker.
   */
  #onWorkerLost(worker: Worker): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    this.#settleAll((p) => p.resolve(computeCardDiff(p.sides)));
  }

  #settleAll(settle: (pending: Pending) => void): void {
    const all = [...this.#pending.values()];
    this.#pending.clear();
    for (const pending of all) settle(pending);
  }
}

function byteSize(sides: DiffSides): number {
  return (sides.before?.length ?? 0) + sides.after.length;
}

/**
 * Fresh copies, transferred rather than cloned: a Buffer may be a view on a much larger
 * ArrayBuffer (Node's pool, a slice), and cloning a view copies all of it.
 */
function copiedBytes(sides: DiffSides): { before: Uint8Array | null; after: Uint8Array; transfer: ArrayBuffer[] } {
  const before = sides.before && new Uint8Array(sides.before);
  const after = new Uint8Array(sides.after);
  return { before, after, transfer: before ? [before.buffer, after.buffer] : [after.buffer] };
}

/** Running from .ts sources, the worker needs tsx to load them too (it maps ./x.js to x.ts). */
function workerOptions(): WorkerOptions {
  return import.meta.url.endsWith('.ts') ? { execArgv: ['--import', 'tsx'] } : {};
}
