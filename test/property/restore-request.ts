/**
 * What the person asks for with an undo, redo or rewind step (SPEC §12), read off the
 * session's log the way the Changes view and the transcript offer it: a step names a turn
 * or a message by counting back, and this finds its id. What the app answered is kept
 * beside it for the undo check.
 */
import type { RestoreOutcome } from '../../shared/checkpoints.js';
import type { Reply } from '../../shared/contract.js';
import type { RewindRestore, SessionEvent } from '../../shared/events.js';
import type { RestoreStep } from './history.js';

export type RestoreRequest =
  | { kind: 'undo'; turnId: string; paths?: string[]; overwrite?: string[] }
  | { kind: 'redo'; overwrite?: string[] }
  | { kind: 'rewind'; seq: number; restore: RewindRestore; overwrite?: string[] };

/** One undo, redo or rewind the person asked for in a step, and the app's reply. */
export interface RestoreCall {
  s: number;
  request: RestoreRequest;
  reply: Reply<RestoreOutcome>;
}

/** The request a step means in a session with these events; null when there is nothing to name. */
export function restoreRequest(step: RestoreStep, events: readonly SessionEvent[]): RestoreRequest | null {
  const overwrite = step.tick ? { overwrite: namedPaths(events) } : {};
  switch (step.kind) {
    case 'undo': {
      const changing = unique(
        events.flatMap((e) => (e.type === 'checkpoint' && e.changed.length > 0 ? [e.turnId] : [])),
      );
      const turns =
        changing.length > 0 ? changing : events.flatMap((e) => (e.type === 'turn_started' ? [e.turnId] : []));
      const turnId = countBack(turns, step.turn);
      if (turnId === undefined) return null;
      const paths = unique(
        events.flatMap((e) => (e.type === 'checkpoint' && e.turnId === turnId ? e.changed.map((c) => c.path) : [])),
      ).sort();
      const only = step.only !== undefined && paths.length > 0 ? { paths: picked(paths, step.only) } : {};
      return { kind: 'undo', turnId, ...only, ...overwrite };
    }
    case 'redo':
      return { kind: 'redo', ...overwrite };
    case 'rewind': {
      const messages = events.flatMap((e) => (e.type === 'user_message' ? [e.seq] : []));
      const seq = countBack(messages, step.message);
      return seq === undefined ? null : { kind: 'rewind', seq, restore: step.restore, ...overwrite };
    }
  }
}

/** The item `back` places before the last (wrapping), or undefined from an empty list. */
function countBack<T>(items: readonly T[], back: number): T | undefined {
  return items.length === 0 ? undefined : items[items.length - 1 - (back % items.length)];
}

/** The paths whose bit is set; at least one. */
function picked(paths: readonly string[], bits: number): string[] {
  const some = paths.filter((_, i) => ((bits >> (i % 31)) & 1) === 1);
  return some.length > 0 ? some : [paths[bits % paths.length]!];
}

/** Every path a checkpoint or a restoration of the session named: what "tick every file" ticks. */
function namedPaths(events: readonly SessionEvent[]): string[] {
  return unique(
    events.flatMap((e) => {
      if (e.type === 'checkpoint') return e.changed.map((c) => c.path);
      if (e.type === 'undo' || e.type === 'redo') return e.restored.map((c) => c.path);
      if (e.type === 'rewind') return (e.code?.restored ?? []).map((c) => c.path);
      return [];
    }),
  ).sort();
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
