import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { DIFF_TRUNCATED_LINES } from '../../../../../shared/limits.js';
import { computeCardDiff } from '../../../../../electron/core/diff/bytes-card-diff.js';
import { NOTES } from '../../../../../shared/diff/unified-diff.js';
import { unifiedDiffOfBytes } from '../../../../../electron/core/diff/bytes-diff.js';
import { editedLines, seededRandom, sourceLines } from './generated-pairs.js';

const KIB_256 = 256 * 1024;
const sides = (before: string, after: string) => ({
  path: 'x',
  before: Buffer.from(before),
  after: Buffer.from(after),
});

describe('pairs that are expensive to line up', () => {
  it('diffs a 256 KiB file with every line rewritten exactly, without a note', () => {
    const random = seededRandom(7);
    const lines = sourceLines(KIB_256, random);
    const before = lines.join('');
    const after = editedLines(lines, 1, random).join('');
    const whole = unifiedDiffOfBytes(sides(before, after));
    expect(whole.simplified).toBe(false);
    expect(whole.notes).toEqual([]);
    expect(applyPatch(before, whole.lines.join(''))).toBe(after);
  });

  it('shows a 256 KiB file with its lines reversed as one replacement, and says it was simplified', () => {
    const before = sourceLines(KIB_256, seededRandom(8)).join('');
    const after = before
      .split(/(?<=\n)/)
      .reverse()
      .join('');
    const whole = unifiedDiffOfBytes(sides(before, after));
    expect(whole.simplified).toBe(true);
    expect(applyPatch(before, whole.lines.join(''))).toBe(after);
    const card = computeCardDiff(sides(before, after));
    expect(card.note).toBe(NOTES.simplified);
    expect(card.truncated).toBe(true);
    expect(card.diff.split('\n')).toHaveLength(DIFF_TRUNCATED_LINES + 1);
  });

  it('simplifies a reshuffle of a few recurring lines, keeping the common head and tail', () => {
    const random = seededRandom(9);
    const shuffle = () =>
      Array.from({ length: 60_000 }, () => ['a\n', 'b\n', '\n', '}\n'][Math.floor(random() * 4)]).join('');
    const before = `head\n${shuffle()}tail\n`;
    const after = `head\n${shuffle()}tail\n`;
    const whole = unifiedDiffOfBytes(sides(before, after));
    expect(whole.notes).toContain(NOTES.simplified);
    expect(whole.lines[2]).toBe('@@ -1,60002 +1,60002 @@\n');
    expect(whole.lines[3]).toBe(' head\n');
    expect(whole.lines.at(-1)).toBe(' tail\n');
    expect(applyPatch(before, whole.lines.join(''))).toBe(after);
  });

  it('diffs one 256 KiB line against another as one line out and one in', () => {
    const card = computeCardDiff(sides('x'.repeat(KIB_256), 'y'.repeat(KIB_256)));
    expect(card.note).toBeUndefined();
    expect(card.truncated).toBe(true);
    expect(card.diffBytes).toBe(
      2 * KIB_256 + 2 * 2 + 2 * '\\ No newline at end of file\n'.length + '--- a/x\n+++ b/x\n@@ -1 +1 @@\n'.length,
    );
    expect(card.diff.split('\n').map((l) => l.slice(0, 2))).toEqual(['--', '++', '@@', '-x', '\\ ', '+y', '\\ ', '']);
  });
});
