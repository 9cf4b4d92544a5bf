/**
 * The window's own rebuild of a write card's diff from the person's text (SPEC §13): what it
 * says about the text, and that it gives up (null) rather than spend more than its budget
 * while the person types. That it is the core's diff to the byte is checked against the gate
 * itself, in test/unit/electron/core/gate/gate-edits-window.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { quickEditPreview } from '../../../../shared/diff/edit-preview.js';
import { NOTES } from '../../../../shared/diff/unified-diff.js';
import { WRITE_MAX_BYTES } from '../../../../shared/limits.js';
import { seededRandom } from '../../electron/core/diff/generated-pairs.js';

const BASE = { path: '/w/notes.txt', before: 'one\ntwo\nthree\n' };
const PROPOSAL = 'one\n2\nthree\n';

describe('quickEditPreview', () => {
  it("diffs the file on disk against the person's text, headers naming the base's path", () => {
    const preview = quickEditPreview(BASE, PROPOSAL, 'one\ntwo!\nthree\n');
    const diff = '--- a/w/notes.txt\n+++ b/w/notes.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+two!\n three\n';
    expect(preview).toEqual({
      diff,
      diffTruncated: false,
      diffBytes: diff.length,
      editedBytes: 15,
      sameAsProposal: false,
    });
  });

  it('says when the text is the proposal again, and counts its size in UTF-8 bytes', () => {
    expect(quickEditPreview(BASE, PROPOSAL, PROPOSAL)).toMatchObject({ sameAsProposal: true, editedBytes: 12 });
    expect(quickEditPreview(BASE, PROPOSAL, 'é\n')?.editedBytes).toBe(3);
  });

  it('diffs against a file that does not exist yet as a creation', () => {
    const preview = quickEditPreview({ path: '/w/new.txt', before: null }, 'x\n', 'y\n');
    expect(preview?.diff).toBe('--- /dev/null\n+++ b/w/new.txt\n@@ -0,0 +1 @@\n+y\n');
  });

  it('names what blocks the text: a NUL (at its byte offset), or more bytes than a write may have', () => {
    expect(quickEditPreview(BASE, PROPOSAL, 'é\0\n')?.problem).toBe(
      'your version contains a NUL character (at byte 2); only text is written',
    );
    const big = `${'é'.repeat(WRITE_MAX_BYTES / 2)}\n`;
    expect(big.length).toBeLessThan(WRITE_MAX_BYTES);
    expect(quickEditPreview(BASE, PROPOSAL, big)?.problem).toMatch(/is 262145 bytes; files are written only up to/);
    expect(quickEditPreview(BASE, PROPOSAL, 'fine\n')?.problem).toBeUndefined();
    // At byte 0 too: the first byte is not "no NUL".
    expect(quickEditPreview(BASE, PROPOSAL, '\0fine\n')?.problem).toBe(
      'your version contains a NUL character (at byte 0); only text is written',
    );
  });

  it('carries the notes a reader needs, as the card does', () => {
    const crlf = { path: '/w/a.txt', before: 'a\r\nb\r\n' };
    expect(quickEditPreview(crlf, 'a\r\nb\r\n', 'a\nb\n')?.diffNote).toBe(NOTES.crlfToLf);
    expect(quickEditPreview(BASE, PROPOSAL, BASE.before)).toMatchObject({ diff: '', diffNote: NOTES.identical });
  });

  it('gives up, for the core to build it, when the diff is more work than a keystroke may take', () => {
    // Two shuffles of three recurring lines: lining them up exactly takes far more than the quick budget.
    const random = seededRandom(3);
    const shuffled = () => Array.from({ length: 3000 }, () => ['a\n', 'b\n', '\n'][Math.floor(random() * 3)]).join('');
    const scrambled = { path: '/w/s.txt', before: shuffled() };
    expect(quickEditPreview(scrambled, 'x\n', shuffled())).toBeNull();
    // The same sides with a one-line change are quick.
    expect(quickEditPreview(scrambled, 'x\n', `${scrambled.before}tail\n`)?.diff).toContain('+tail\n');
  });
});
