/**
 * The checkpoints of one session (SPEC §12), its one door into the room: the gate's
 * bracket around every step that can change the workspace, the Changes of a call or a
 * turn, and undo, redo and a rewind's code. The log is the only record: what a step
 * changed is its `checkpoint` event, and what to take back is read from those events
 * (restore-plan.ts). The store only keeps and compares trees.
 *
 * A take-back is a write like any other: a file that no longer matches what the app last
 * left there was changed since (by the person, or by a later turn) and is left alone
 * unless the person ticks it.
 */
import type {
  ChangedFile,
  ChangesView,
  FileChangeView,
  KeptFile,
  Restoration,
  RestoreOutcome,
  Skipped,
  UndoAvailability,
} from '../../../shared/checkpoints.js';
import type { EventPayload, RewindRestore, SessionEvent } from '../../../shared/events.js';
import { CHANGES_DIFF_MAX_FILES } from '../../../shared/limits.js';
import type { SessionState } from '../../../shared/reducer.js';
import { SerialQueue } from '../files/serial-queue.js';
import type { ToolCall } from '../gate/permission-gate.js';
import type { Plan, ToolResult } from '../tools/tool-def.js';
import type { CheckpointStore, Snapshot } from './checkpoint-store.js';
import { hasEscapedBytes } from './path-names.js';
import { attributesInTheWay, waitedOn } from './special-files.js';
import { fileSteps, redoRestore, rewindRestore, turnRestore, type RestoreItem } from './restore-plan.js';
import type { ErrorKind } from '../error-kind.js';

/** The workspace's store, or why this machine has none (git is missing). */
export type StoreOpener = () => Promise<CheckpointStore | { unavailable: string }>;

/** How a session reaches its workspace's store, and tells its owner a checkpoint was taken. */
export interface CheckpointAccess {
  open: StoreOpener;
  checkpointed?: () => void;
}

export interface SessionCheckpointsDeps extends CheckpointAccess {
  events: readonly SessionEvent[];
  state: () => SessionState;
  append: (payload: EventPayload) => Promise<SessionEvent>;
}

/** Thrown with words for the person: nothing was changed. */
export class CheckpointError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'CheckpointError';
}

const OPEN_FAILED = 'the checkpoint store cannot be opened';

const PRUNED =
  'its snapshot was dropped to keep the checkpoint store under its limit (Settings → Checkpoints), so it cannot be taken back';

export class SessionCheckpoints {
  private readonly operations = new SerialQueue();
  private lastSkipped: string | null = null;
  private saidUnopened = false;

  constructor(private readonly deps: SessionCheckpointsDeps) {
    const last = deps.events.findLast((e) => e.type === 'checkpoint' && e.skipped !== undefined);
    if (last?.type === 'checkpoint') this.lastSkipped = JSON.stringify(last.skipped);
  }

  /**
   * The gate's bracket: a step that can change the workspace runs between two snapshots,
   * and a `checkpoint` event says what it changed. A failed snapshot never stops the step;
   * the log says that this step cannot be taken back.
   */
  bracket = async (call: ToolCall, plan: Plan, run: () => Promise<ToolResult>): Promise<ToolResult> => {
    if (!changesWorkspace(plan)) return run();
    const store = await this.reach();
    if (!('snapshot' in store)) return this.runUnrecorded(call, store.unavailable, run);
    // The step runs outside the lock, so a Changes view opened meanwhile is not held up by a long command.
    const before = await this.serial(() => this.trySnapshot(store, call, 'before'));
    const result = await run();
    if (before) {
      await this.serial(async () => {
        const after = await this.trySnapshot(store, call, 'after');
        if (after) await this.record(store, call, before, after);
      });
    }
    return result;
  };

  /** The files a call or a turn changed, as diffs, and whether an undo can take them back. */
  async changes(query: { turnId?: string; toolCallId?: string }): Promise<ChangesView> {
    const turnId = query.turnId ?? (query.toolCallId ? undefined : this.lastChangedTurn());
    const store = await this.reach();
    if (!('snapshot' in store)) return { ...query, files: [], undo: { ok: false, why: store.unavailable } };
    return this.serial(async () =>
      query.toolCallId !== undefined
        ? this.callChanges(store, query.toolCallId, turnId)
        : this.turnChanges(store, turnId),
    );
  }

  /** Takes back a turn's changes, or only `paths` of them. */
  async undo(turnId: string, paths?: readonly string[], overwrite: readonly string[] = []): Promise<RestoreOutcome> {
    const items = turnRestore(fileSteps(this.deps.events), turnId, paths);
    if (items.length === 0) {
      throw new CheckpointError(
        paths ? `turn ${turnId} did not change ${paths.join(', ')}` : `turn ${turnId} changed no files`,
      );
    }
    return this.takeBack(items, overwrite, (r) => ({
      type: 'undo',
      turnId,
      ...(paths ? { paths: [...paths] } : {}),
      ...r,
    }));
  }

  /** Brings back what the latest undo not yet redone took back. */
  async redo(overwrite: readonly string[] = []): Promise<RestoreOutcome> {
    const seq = this.deps.state().undoStack.at(-1);
    const undo = this.deps.events.find((e) => e.seq === seq);
    if (undo?.type !== 'undo') throw new CheckpointError('there is no undo to redo');
    const items = redoRestore(fileSteps(this.deps.events), undo);
    return this.takeBack(items, overwrite, (r) => ({ type: 'redo', undoSeq: undo.seq, ...r }));
  }

  /** A rewind to the message at messageSeq: its code, its conversation, or both. */
  async rewind(messageSeq: number, restore: RewindRestore, overwrite: readonly string[] = []): Promise<RestoreOutcome> {
    const message = this.deps.events.find((e) => e.seq === messageSeq);
    if (message?.type !== 'user_message') throw new CheckpointError(`event ${messageSeq} is not a message you sent`);
    if (this.deps.state().rewound.some((r) => messageSeq >= r.fromSeq && messageSeq <= r.toSeq)) {
      throw new CheckpointError('that message was rewound already');
    }
    if (restore === 'conversation') {
      const event = await this.deps.append({ type: 'rewind', messageSeq, restore });
      return { seq: event.seq, restored: [], kept: [] };
    }
    const items = rewindRestore(fileSteps(this.deps.events), messageSeq);
    if (items.length === 0 && restore === 'both') {
      const event = await this.deps.append({ type: 'rewind', messageSeq, restore });
      return { seq: event.seq, restored: [], kept: [] };
    }
    if (items.length === 0) throw new CheckpointError('nothing changed in the workspace since that message');
    // "Both" rewinds the conversation even when no file needs to (or may) move: the kept ones are said.
    const evenIfNothing = restore === 'both';
    return this.takeBack(items, overwrite, (code) => ({ type: 'rewind', messageSeq, restore, code }), evenIfNothing);
  }

  /**
   * A step with no store runs all the same. Where git is missing Settings and every undo
   * say so; a store that fails to open is said once in the transcript.
   */
  private async runUnrecorded(call: ToolCall, why: string, run: () => Promise<ToolResult>): Promise<ToolResult> {
    if (why.startsWith(OPEN_FAILED) && !this.saidUnopened) {
      this.saidUnopened = true;
      await this.deps.append({
        type: 'error',
        turnId: call.turnId,
        message: `${why}; undo cannot take this session's steps back`,
      });
    }
    return run();
  }

  /** The store, or why there is none: a store that cannot be opened says why rather than failing the step. */
  private async reach(): Promise<CheckpointStore | { unavailable: string }> {
    try {
      return await this.deps.open();
    } catch (err) {
      return { unavailable: `${OPEN_FAILED}: ${(err as Error).message}` };
    }
  }

  /** Restores the items (those changed since only when ticked), snapshotted on both sides, and logs it. */
  private async takeBack(
    items: RestoreItem[],
    overwrite: readonly string[],
    payload: (r: Restoration) => EventPayload,
    evenIfNothing = false,
  ): Promise<RestoreOutcome> {
    const store = await this.reach();
    if (!('snapshot' in store)) throw new CheckpointError(`undo is off: ${store.unavailable}`);
    const restoring = () => this.restoreNow(store, items, overwrite, payload, evenIfNothing);
    return this.serial(restoring).catch((err: unknown) => {
      // A store failure (the workspace moved, git refusing a path) is the person's answer, in words.
      if (err instanceof CheckpointError) throw err;
      throw new CheckpointError(`the files could not be taken back: ${(err as Error).message}`);
    });
  }

  private async restoreNow(
    store: CheckpointStore,
    items: RestoreItem[],
    overwrite: readonly string[],
    payload: (r: Restoration) => EventPayload,
    evenIfNothing: boolean,
  ): Promise<RestoreOutcome> {
    await this.requireSnapshots(store, items);
    const now = await store.snapshot();
    const { restore, kept } = await this.sortItems(store, items, now.id, overwrite);
    if (restore.length === 0 && !evenIfNothing) throw new CheckpointError(nothingRestored(kept));
    if (restore.length === 0) {
      const event = await this.deps.append(payload({ before: now.id, after: now.id, restored: [], kept }));
      return { seq: event.seq, restored: [], kept };
    }
    refuseAttributesInTheWay(now, restore);
    for (const [target, group] of groupBy(restore, (i) => i.target)) {
      const leftAlone = await store.restore(
        target,
        group.map((i) => i.path),
      );
      kept.push(...leftAlone.map((path) => ({ path, why: 'skipped_by_snapshot' as const })));
    }
    const after = await store.snapshot();
    const restored = await store.changes(
      now.id,
      after.id,
      restore.map((i) => i.path),
    );
    const event = await this.deps.append(payload({ before: now.id, after: after.id, restored, kept }));
    return { seq: event.seq, restored, kept };
  }

  /**
   * Which items to restore and which to keep: a file that no longer matches what the app
   * left is kept unless ticked, and one already back at its target needs nothing.
   */
  private async sortItems(
    store: CheckpointStore,
    items: RestoreItem[],
    now: string,
    overwrite: readonly string[],
  ): Promise<{ restore: RestoreItem[]; kept: KeptFile[] }> {
    const drifted = await differing(store, items, (i) => i.expected, now);
    const settled = await differing(store, items, (i) => i.target, now);
    const restore: RestoreItem[] = [];
    const kept: KeptFile[] = [];
    for (const item of items) {
      if (!settled.has(item.path)) continue;
      // A name that is not UTF-8 is in no snapshot (path-names.ts): said, never "restored".
      if (hasEscapedBytes(item.path)) kept.push({ path: item.path, why: 'skipped_by_snapshot' });
      else if (!drifted.has(item.path) || overwrite.includes(item.path)) restore.push(item);
      else kept.push({ path: item.path, why: item.laterStep ? 'changed_by_later_turn' : 'changed_since' });
    }
    return { restore, kept };
  }

  private async requireSnapshots(store: CheckpointStore, items: readonly RestoreItem[]): Promise<void> {
    for (const id of new Set(items.flatMap((i) => [i.target, i.expected]))) {
      if (!(await store.has(id))) throw new CheckpointError(`this change cannot be taken back: ${PRUNED}`);
    }
  }

  /**
   * The files that match neither what the turn left nor what it found: changed since by
   * someone else. A file an undo put back matches what the turn found, and is not.
   */
  private async changedSince(store: CheckpointStore, items: readonly RestoreItem[]): Promise<Set<string>> {
    const now = (await store.snapshot()).id;
    const fromExpected = await differing(store, items, (i) => i.expected, now);
    const fromTarget = await differing(store, items, (i) => i.target, now);
    return new Set([...fromExpected].filter((p) => fromTarget.has(p)));
  }

  private async callChanges(store: CheckpointStore, toolCallId: string, turnId?: string): Promise<ChangesView> {
    const cps = this.deps.events.filter(
      (e) => e.type === 'checkpoint' && e.toolCallId === toolCallId && (turnId === undefined || e.turnId === turnId),
    );
    if (cps.length === 0) throw new CheckpointError(`call ${toolCallId} took no checkpoint`);
    const files: FileChangeView[] = [];
    for (const cp of cps) {
      if (cp.type !== 'checkpoint') continue;
      for (const change of cp.changed)
        files.push(await this.fileView(store, change, cp.before, cp.after, files.length));
    }
    const undo = await this.availability(
      store,
      cps.flatMap((e) => (e.type === 'checkpoint' ? [e.before] : [])),
    );
    return { toolCallId, ...(turnId ? { turnId } : {}), files, undo };
  }

  private async turnChanges(store: CheckpointStore, turnId: string | undefined): Promise<ChangesView> {
    if (turnId === undefined) return { files: [], undo: { ok: false, why: 'no turn has changed files yet' } };
    const items = turnRestore(fileSteps(this.deps.events), turnId);
    const undo = await this.availability(
      store,
      items.map((i) => i.target),
    );
    const drifted = undo.ok ? await this.changedSince(store, items) : new Set<string>();
    const files: FileChangeView[] = [];
    for (const item of items) {
      const [change] = undo.ok ? await store.changes(item.target, item.expected, [item.path]) : [];
      if (!change) continue;
      const view = await this.fileView(store, change, item.target, item.expected, files.length);
      if (drifted.has(item.path)) view.changedSince = item.laterStep ? 'changed_by_later_turn' : 'changed_since';
      files.push(view);
    }
    const undoneBy = this.deps.state().undone[turnId];
    return { turnId, files, undo, ...(undoneBy !== undefined ? { undoneBy } : {}) };
  }

  private async fileView(
    store: CheckpointStore,
    change: ChangedFile,
    from: string,
    to: string,
    index: number,
  ): Promise<FileChangeView> {
    if (index >= CHANGES_DIFF_MAX_FILES) return { ...change, diff: null, diffTruncated: true };
    const { diff, truncated } = await store.diff(from, to, change.path);
    return { ...change, diff, diffTruncated: truncated };
  }

  private async availability(store: CheckpointStore, snapshots: readonly string[]): Promise<UndoAvailability> {
    for (const id of new Set(snapshots)) if (!(await store.has(id))) return { ok: false, why: PRUNED };
    return { ok: true };
  }

  private lastChangedTurn(): string | undefined {
    const last = this.deps.events.findLast((e) => e.type === 'checkpoint' && e.changed.length > 0);
    return last?.type === 'checkpoint' ? last.turnId : undefined;
  }

  private async trySnapshot(store: CheckpointStore, call: ToolCall, when: string): Promise<Snapshot | null> {
    try {
      return await store.snapshot();
    } catch (err) {
      await this.deps.append({
        type: 'error',
        turnId: call.turnId,
        message: `the workspace could not be snapshotted ${when} this call, so undo cannot take it back: ${(err as Error).message}`,
      });
      return null;
    }
  }

  private async record(store: CheckpointStore, call: ToolCall, before: Snapshot, after: Snapshot): Promise<void> {
    const changed = await store.changes(before.id, after.id);
    await this.deps.append({
      type: 'checkpoint',
      turnId: call.turnId,
      toolCallId: call.toolCallId,
      before: before.id,
      after: after.id,
      changed,
      ...this.skippedIfNew(after.skipped),
    });
    this.deps.checkpointed?.();
  }

  /** What the snapshot left out, when it differs from what this session last said. */
  private skippedIfNew(skipped: Skipped): { skipped?: Skipped } {
    const key = JSON.stringify(skipped);
    if (key === this.lastSkipped || (this.lastSkipped === null && skipped.paths.length === 0)) return {};
    this.lastSkipped = key;
    return { skipped };
  }

  /** One checkpoint operation at a time per session: a bracket and an undo never interleave. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    return this.operations.run(work);
  }
}

/** An allowed write inside the workspace, a command or an MCP call can change the workspace. */
function changesWorkspace(plan: Plan): boolean {
  if (plan.kind === 'write') return plan.target.inside;
  return plan.kind === 'command' || plan.kind === 'mcp';
}

/** git writes a file only after reading its folders' attributes: a FIFO there would hold the restore forever. */
function refuseAttributesInTheWay(now: Snapshot, items: readonly RestoreItem[]): void {
  const special = now.skipped.paths.flatMap((p) =>
    p.why === 'special_file' && p.kind ? [{ path: p.path, kind: p.kind }] : [],
  );
  const inTheWay = attributesInTheWay(
    special,
    items.map((i) => i.path),
  );
  if (inTheWay.length > 0) throw new CheckpointError(`the files could not be taken back: ${waitedOn(inTheWay)}`);
}

/** The paths whose file now differs from the snapshot `from(item)` holds. */
async function differing(
  store: CheckpointStore,
  items: readonly RestoreItem[],
  from: (item: RestoreItem) => string,
  now: string,
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const [snapshot, group] of groupBy(items, from)) {
    const changed = await store.changes(
      snapshot,
      now,
      group.map((i) => i.path),
    );
    for (const c of changed) found.add(c.path);
  }
  return found;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function nothingRestored(kept: readonly KeptFile[]): string {
  if (kept.length === 0) return 'nothing to take back: the files are already as they were';
  const names = (why: (w: KeptFile['why']) => boolean) =>
    kept
      .filter((k) => why(k.why))
      .map((k) => k.path)
      .join(', ');
  const changed = names((w) => w !== 'skipped_by_snapshot');
  const unheld = names((w) => w === 'skipped_by_snapshot');
  return [
    changed && `nothing was restored: ${changed} changed since; tick a file to overwrite it`,
    unheld && `${changed ? '' : 'nothing was restored: '}${unheld} cannot be taken back: no snapshot holds it`,
  ]
    .filter(Boolean)
    .join('; ');
}
