/**
 * What an undo, redo or rewind takes back, read from the log alone (SPEC §12): for each
 * file, the snapshot it goes back to (`target`) and the snapshot it should still match
 * (`expected`, what the app itself last left there). A file that no longer matches
 * `expected` was changed since, by the person or by a later turn, and is left alone
 * unless the person ticks it.
 *
 * Each file has its own points: a turn's undo takes a file back to just before the
 * turn's first step that changed it, so an edit the person made to it earlier in the
 * turn stays.
 */
import type { SessionEvent } from '../../../shared/events.js';

/** One step of the app's that changed files: a checkpoint, an undo, a redo or a rewind's code. */
export interface FileStep {
  seq: number;
  /** The turn of a checkpoint; undefined for the person's undo, redo and rewind. */
  turnId?: string;
  before: string;
  after: string;
  paths: string[];
}

export interface RestoreItem {
  path: string;
  target: string;
  expected: string;
  /** A step after the ones taken back changed this file too. */
  laterStep: boolean;
}

type UndoEvent = Extract<SessionEvent, { type: 'undo' }>;

/** Every step of the app's that changed files, in log order. */
export function fileSteps(events: readonly SessionEvent[]): FileStep[] {
  const steps: FileStep[] = [];
  for (const e of events) {
    const step = fileStep(e);
    if (step && step.paths.length > 0) steps.push(step);
  }
  return steps;
}

function fileStep(e: SessionEvent): FileStep | null {
  const { seq } = e;
  switch (e.type) {
    case 'checkpoint':
      return { seq, turnId: e.turnId, before: e.before, after: e.after, paths: e.changed.map((c) => c.path) };
    case 'undo':
    case 'redo':
      return { seq, before: e.before, after: e.after, paths: e.restored.map((c) => c.path) };
    case 'rewind':
      return e.code
        ? { seq, before: e.code.before, after: e.code.after, paths: e.code.restored.map((c) => c.path) }
        : null;
    default:
      return null;
  }
}

/** Undo of a turn (or of `only` these files of it): each file back to before the turn's first step that changed it. */
export function turnRestore(steps: readonly FileStep[], turnId: string, only?: readonly string[]): RestoreItem[] {
  const own = steps.filter((s) => s.turnId === turnId);
  const last = own.at(-1)?.seq ?? 0;
  const items = spanItems(
    own,
    steps.filter((s) => s.seq > last),
  );
  return only ? items.filter((i) => only.includes(i.path)) : items;
}

/** Rewind of the code to before the message at messageSeq: every file any later step changed. */
export function rewindRestore(steps: readonly FileStep[], messageSeq: number): RestoreItem[] {
  return spanItems(
    steps.filter((s) => s.seq > messageSeq),
    [],
  );
}

/** Redo of an undo: its files back to how the undo found them. */
export function redoRestore(steps: readonly FileStep[], undo: UndoEvent): RestoreItem[] {
  const later = steps.filter((s) => s.seq > undo.seq);
  return undo.restored.map(({ path }) => ({
    path,
    target: undo.before,
    expected: undo.after,
    laterStep: later.some((s) => s.paths.includes(path)),
  }));
}

/** Per file: the `before` of the first step in the span that changed it, the `after` of the last. */
function spanItems(span: readonly FileStep[], later: readonly FileStep[]): RestoreItem[] {
  const items = new Map<string, RestoreItem>();
  for (const step of span) {
    for (const path of step.paths) {
      const known = items.get(path);
      if (known) known.expected = step.after;
      else items.set(path, { path, target: step.before, expected: step.after, laterStep: false });
    }
  }
  for (const step of later) {
    for (const path of step.paths) {
      // The file stays expected as the span left it: a later step's change counts as changed since.
      const item = items.get(path);
      if (item) item.laterStep = true;
    }
  }
  return [...items.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
