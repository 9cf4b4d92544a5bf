import { describe, expect, it } from 'vitest';
import { computeCardDiff } from '../../../../../electron/core/diff/bytes-card-diff.js';
import { NOTES } from '../../../../../shared/diff/unified-diff.js';

const b = (text: string) => Buffer.from(text, 'utf8');
const diffOf = (before: string | null, after: string, path = 'src/x.py') =>
  computeCardDiff({ path, before: before === null ? null : b(before), after: b(after) });

/** Any "\r" that does not end a CRLF line: where diff2html would start a new line. */
const LONE_CR = /\r(?!\n)/;

/** The lines a viewer sees: diff2html's own split (diff-parser.js, 3.4.56). */
const viewerLines = (diff: string) => diff.replace(/\r\n?/g, '\n').split('\n').slice(0, -1);
const ourLines = (diff: string) => diff.split('\n').slice(0, -1);

describe('characters a viewer would turn into a line break', () => {
  it('shows a lone CR in an added line as ␍, so it cannot forge a context line', () => {
    const d = diffOf('import sys\n', 'import sys\nprint("b")\rimport os; os.system("rm -rf ~")\n');
    expect(d.diff).toBe(
      '--- a/src/x.py\n+++ b/src/x.py\n@@ -1 +1,2 @@\n import sys\n+print("b")␍import os; os.system("rm -rf ~")\n',
    );
    expect(d.diff).not.toMatch(LONE_CR);
    expect(viewerLines(d.diff)).toEqual(ourLines(d.diff));
    expect(d.note).toBe(NOTES.loneCr);
  });

  it('cannot forge the headers of a second file with lone CRs', () => {
    const forged = 'x\r--- a/README\r+++ b/README\r@@ -1 +1 @@\r-old\r+new\n';
    const d = diffOf('keep\n', `keep\n${forged}`);
    expect(d.diff).not.toMatch(LONE_CR);
    expect(viewerLines(d.diff)).toEqual(ourLines(d.diff));
    expect(viewerLines(d.diff).filter((l) => l.startsWith('--- ') || l.startsWith('+++ '))).toHaveLength(2);
    expect(d.diff).toContain('+x␍--- a/README␍+++ b/README␍@@ -1 +1 @@␍-old␍+new\n');
  });

  it('shows a lone CR in a hunk label, so the label cannot render as an inserted line', () => {
    const before = `def f():\r+ fake = "approved"\n${'  pass\n'.repeat(6)}`;
    const d = diffOf(before, before.replace(/pass\n$/, 'return 1\n'));
    const header = ourLines(d.diff).find((l) => l.startsWith('@@'));
    expect(header).toBe('@@ -4,4 +4,4 @@ def f():␍+ fake = "approved"');
    expect(d.diff).not.toMatch(LONE_CR);
    expect(viewerLines(d.diff)).toEqual(ourLines(d.diff));
    expect(d.note).toBe(NOTES.loneCr);
  });

  it('shows a removed or unchanged line holding a lone CR the same way', () => {
    const d = diffOf('a\rb\nc\n', 'a\rb\nC\n');
    expect(d.diff).toBe('--- a/src/x.py\n+++ b/src/x.py\n@@ -1,2 +1,2 @@\n a␍b\n-c\n+C\n');
  });

  it('keeps the CR of a CRLF ending and marks only the lone one before it', () => {
    const d = diffOf('a\r\n', 'a\r\r\n');
    expect(d.diff).toBe('--- a/src/x.py\n+++ b/src/x.py\n@@ -1 +1 @@\n-a\r\n+a␍\r\n');
    expect(viewerLines(d.diff)).toEqual(ourLines(d.diff).map((l) => l.replace(/\r$/, '')));
  });

  it('shows a CR ending the last line, without a newline after it, as ␍', () => {
    const d = diffOf('a\n', 'a\nb\r');
    expect(d.diff).toBe('--- a/src/x.py\n+++ b/src/x.py\n@@ -1 +1,2 @@\n a\n+b␍\n\\ No newline at end of file\n');
    expect(d.note).toBe(NOTES.loneCr);
  });

  it('shows VT, FF, NEL, LS and PS as symbols, with their own note', () => {
    const d = diffOf('', 'a\vb\fc\u0085d\u2028e\u2029f\n');
    expect(d.diff).toContain('+a␋b␌c⟨U+0085⟩d⟨U+2028⟩e⟨U+2029⟩f\n');
    expect(d.diff).not.toMatch(/[\v\f\u0085\u2028\u2029]/);
    expect(d.note).toBe(NOTES.otherBreaks);
  });

  it('gives both notes when both kinds occur, and none for a plain CRLF file', () => {
    expect(diffOf('', 'a\rb\fc\n').note).toBe(`${NOTES.loneCr} ${NOTES.otherBreaks}`);
    expect(diffOf('a\r\nb\r\n', 'a\r\nB\r\n').note).toBeUndefined();
  });

  it('quotes a path holding a Unicode line separator, as git quotes other bytes', () => {
    expect(diffOf('a\n', 'b\n', 'odd\u2028name').diff).toMatch(
      /^--- "a\/odd\\342\\200\\250name"\n\+\+\+ "b\/odd\\342\\200\\250name"\n/,
    );
  });
});
