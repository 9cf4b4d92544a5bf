/** The words of an undo, a redo and a rewind in the transcript, and of what they restored. */
import { describe, expect, it } from 'vitest';
import { checkpointWords, type CheckpointItem } from '../../../../../renderer/src/components/changes/CheckpointDivider';
import { messageQuote, restoredWords } from '../../../../../renderer/src/components/changes/restore-words';
import { CALC, OLD, OUT } from './checkpoint-fixtures';

const base = { seq: 9, ts: '2026-12-03T04:00:00.000Z', before: 'a', after: 'b' };

describe('what an undo, redo or rewind did, in words', () => {
  it('names what was restored, the first three, then how many more', () => {
    const five = ['a.py', 'b.py', 'c.py', 'd.py', 'e.py'].map((path) => ({ ...CALC, path }));
    expect(restoredWords(five, [])).toBe('restored 5 files (a.py, b.py, c.py and 2 more)');
    expect(restoredWords([], [])).toBe('restored no files');
  });

  it('names what was left alone, grouped by why', () => {
    expect(
      restoredWords(
        [CALC],
        [
          { path: 'x.py', why: 'changed_since' },
          { path: 'y.py', why: 'changed_by_later_turn' },
          { path: 'z.bin', why: 'skipped_by_snapshot' },
        ],
      ),
    ).toBe(
      'restored 1 file (calc.py); left 1 you changed since: x.py; left 1 a later turn changed: y.py; left 1 the snapshot did not hold: z.bin',
    );
  });

  it('says an undo of a turn, a revert of some files, and a redo', () => {
    const undo: CheckpointItem = {
      kind: 'undo',
      seq: 9,
      event: { ...base, type: 'undo', turnId: 't1', restored: [CALC, OUT, OLD], kept: [] },
    };
    expect(checkpointWords(undo)).toBe('Undid a turn: restored 3 files (calc.py, out/report.txt, old.txt)');
    const revert: CheckpointItem = { ...undo, event: { ...undo.event, paths: ['calc.py'], restored: [CALC] } };
    expect(checkpointWords(revert)).toBe('Reverted 1 file of a turn: restored 1 file (calc.py)');
    const redo: CheckpointItem = {
      kind: 'redo',
      seq: 10,
      event: { ...base, type: 'redo', undoSeq: 9, restored: [CALC], kept: [] },
    };
    expect(checkpointWords(redo)).toBe('Redid the undo: restored 1 file (calc.py)');
  });

  it('says what a rewind took back and to which message', () => {
    const rewind = (restore: 'code' | 'conversation' | 'both'): CheckpointItem => ({
      kind: 'rewind',
      seq: 11,
      event: {
        ...base,
        type: 'rewind',
        messageSeq: 1,
        restore,
        ...(restore === 'conversation' ? {} : { code: { before: 'a', after: 'b', restored: [CALC], kept: [] } }),
      },
    });
    expect(checkpointWords(rewind('both'), 'fix it')).toBe(
      'Rewound the conversation and the code to “fix it”: restored 1 file (calc.py)',
    );
    expect(checkpointWords(rewind('conversation'))).toBe('Rewound the conversation to an earlier message');
  });

  it('quotes a long message on one line, cut', () => {
    expect(messageQuote('fix\n  the   tests')).toBe('“fix the tests”');
    expect(messageQuote('x'.repeat(80), 10)).toBe('“xxxxxxxxxx…”');
  });
});
