/**
 * What an undo, redo or rewind takes back is read from the log alone: each file goes
 * back to just before the first step that changed it, and must still match what the last
 * step left, or it counts as changed since.
 */
import { describe, expect, it } from 'vitest';
import type { ChangedFile } from '../../../../../shared/checkpoints.js';
import type { SessionEvent } from '../../../../../shared/events.js';
import {
  fileSteps,
  redoRestore,
  rewindRestore,
  turnRestore,
} from '../../../../../electron/core/checkpoints/restore-plan.js';

const ts = '2026-12-04T00:00:00.000Z';
const mod = (path: string): ChangedFile => ({ path, change: 'modified', bytes: 1 });

function cp(seq: number, turnId: string, before: string, after: string, paths: string[]): SessionEvent {
  return { seq, ts, type: 'checkpoint', turnId, toolCallId: `c${seq}`, before, after, changed: paths.map(mod) };
}

const log: SessionEvent[] = [
  { seq: 1, ts, type: 'user_message', messageId: 'm1', text: 'one' },
  cp(2, 't1', 's0', 's1', ['a', 'b']),
  cp(3, 't1', 's2', 's3', ['b', 'c']),
  { seq: 4, ts, type: 'user_message', messageId: 'm2', text: 'two' },
  cp(5, 't2', 's3', 's4', ['c', 'd']),
  cp(6, 't2', 's4', 's4', []),
];

describe('a turn undo', () => {
  it('takes each file back to before the first step of the turn that changed it', () => {
    expect(turnRestore(fileSteps(log), 't1')).toEqual([
      { path: 'a', target: 's0', expected: 's1', laterStep: false },
      { path: 'b', target: 's0', expected: 's3', laterStep: false },
      { path: 'c', target: 's2', expected: 's3', laterStep: true },
    ]);
  });

  it('keeps a file a later turn changed expected as the turn left it, and marks it', () => {
    const c = turnRestore(fileSteps(log), 't1').find((i) => i.path === 'c');
    expect(c).toEqual({ path: 'c', target: 's2', expected: 's3', laterStep: true });
  });

  it('takes only the files asked for', () => {
    expect(turnRestore(fileSteps(log), 't1', ['a']).map((i) => i.path)).toEqual(['a']);
  });

  it('finds nothing for a turn with no changes, and steps that changed nothing are not steps', () => {
    expect(turnRestore(fileSteps(log), 'nope')).toEqual([]);
    expect(fileSteps(log).map((s) => s.seq)).toEqual([2, 3, 5]);
  });
});

describe('a rewind of the code', () => {
  it('takes back every file changed after the message, to before its first change', () => {
    expect(rewindRestore(fileSteps(log), 4)).toEqual([
      { path: 'c', target: 's3', expected: 's4', laterStep: false },
      { path: 'd', target: 's3', expected: 's4', laterStep: false },
    ]);
  });

  it('counts an undo after the message as a step that changed files', () => {
    const undo: SessionEvent = {
      seq: 7,
      ts,
      type: 'undo',
      turnId: 't2',
      before: 's4',
      after: 's5',
      restored: [mod('d')],
      kept: [],
    };
    const items = rewindRestore(fileSteps([...log, undo]), 4);
    expect(items.find((i) => i.path === 'd')).toEqual({ path: 'd', target: 's3', expected: 's5', laterStep: false });
  });
});

describe('a redo', () => {
  it("takes the undo's files back to how the undo found them", () => {
    const undo = {
      seq: 7,
      ts,
      type: 'undo' as const,
      turnId: 't2',
      before: 's4',
      after: 's5',
      restored: [mod('c'), mod('d')],
      kept: [],
    };
    expect(redoRestore(fileSteps([...log, undo]), undo)).toEqual([
      { path: 'c', target: 's4', expected: 's5', laterStep: false },
      { path: 'd', target: 's4', expected: 's5', laterStep: false },
    ]);
  });
});
