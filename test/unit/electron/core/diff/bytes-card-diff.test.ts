import { describe, expect, it } from 'vitest';
import { DIFF_TRUNCATED_LINES, DIFF_WHOLE_MAX_BYTES } from '../../../../../shared/limits.js';
import { computeCardDiff } from '../../../../../electron/core/diff/bytes-card-diff.js';
import { NOTES } from '../../../../../shared/diff/unified-diff.js';

const b = (text: string) => Buffer.from(text, 'utf8');
const diffOf = (before: string | null, after: string, path = 'src/x.txt') =>
  computeCardDiff({ path, before: before === null ? null : b(before), after: b(after) });
const lineCount = (text: string) => text.split('\n').length - 1;

/** A new file whose creation diff is exactly `bytes` long: 1000 added lines, the last one padded. */
function creationWithDiffBytes(bytes: number): string {
  const lines = Array.from({ length: 1000 }, (_, i) => `line ${String(i).padStart(4, '0')} ${'a'.repeat(50)}\n`);
  const size = diffOf(null, lines.join('')).diffBytes;
  lines[999] = 'x'.repeat(bytes - size) + (lines[999] as string);
  return lines.join('');
}

describe('computeCardDiff', () => {
  it('shows a new file against /dev/null with every line added', () => {
    const d = diffOf(null, 'one\ntwo\n');
    expect(d.diff).toBe('--- /dev/null\n+++ b/src/x.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n');
    expect(d).toMatchObject({ truncated: false, diffBytes: d.diff.length, proposalBytes: 8, beforeBytes: null });
    expect(d.note).toBeUndefined();
  });

  it('reports identical content as an empty diff with a note', () => {
    expect(diffOf('same\n', 'same\n')).toEqual({
      diff: '',
      truncated: false,
      diffBytes: 0,
      proposalBytes: 5,
      beforeBytes: 5,
      note: NOTES.identical,
    });
  });

  it('says so when the new file is empty instead of showing bare headers', () => {
    expect(diffOf(null, '')).toMatchObject({ diff: '', diffBytes: 0, note: NOTES.emptyCreate });
  });

  it('shows a file emptied to zero bytes as every line removed', () => {
    expect(diffOf('a\nb\n', '').diff).toBe('--- a/src/x.txt\n+++ b/src/x.txt\n@@ -1,2 +0,0 @@\n-a\n-b\n');
  });

  it('marks a last line without a newline on each side it appears', () => {
    expect(diffOf('a\nb', 'a\nc').diff).toBe(
      '--- a/src/x.txt\n+++ b/src/x.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n',
    );
    expect(diffOf('a\nb', 'a\nb\n').diff).toBe(
      '--- a/src/x.txt\n+++ b/src/x.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n',
    );
  });

  it('keeps CRLF line endings as they are on disk', () => {
    const d = diffOf('a\r\nb\r\n', 'a\r\nB\r\n');
    expect(d.diff).toBe('--- a/src/x.txt\n+++ b/src/x.txt\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n');
    expect(d.note).toBeUndefined();
  });

  it('says in words when the line endings change, since the lines look the same', () => {
    expect(diffOf('a\r\nb\r\n', 'a\nb\n').note).toBe(NOTES.crlfToLf);
    expect(diffOf('a\nb\n', 'a\r\nb\r\n').note).toBe(NOTES.lfToCrlf);
  });

  it('shows no text diff for binary content, and says why', () => {
    const d = computeCardDiff({
      path: 'img.png',
      before: Buffer.from([0x89, 0x50, 0, 1]),
      after: Buffer.from([0x89, 0x50, 0, 2]),
    });
    expect(d).toMatchObject({ diff: '', diffBytes: 0, proposalBytes: 4, beforeBytes: 4, note: NOTES.binary });
  });

  it('names an absolute path as git does, and quotes a name that holds a newline', () => {
    expect(diffOf('a\n', 'b\n', '/home/me/p/x.ts').diff).toMatch(
      /^--- a\/home\/me\/p\/x\.ts\n\+\+\+ b\/home\/me\/p\/x\.ts\n/,
    );
    expect(diffOf('a\n', 'b\n', 'odd\nname').diff).toMatch(/^--- "a\/odd\\nname"\n\+\+\+ "b\/odd\\nname"\n/);
  });

  it('joins changes up to 6 unchanged lines apart into one hunk and splits them at 7', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `${i}\n`);
    const changed = (n: number, at: number[]) => lines(n).map((l, i) => (at.includes(i) ? `-${l}` : l));
    const hunks = (d: string) => d.split('\n').filter((l) => l.startsWith('@@'));
    expect(hunks(diffOf(lines(20).join(''), changed(20, [5, 12]).join('')).diff)).toEqual(['@@ -3,14 +3,14 @@']);
    expect(hunks(diffOf(lines(20).join(''), changed(20, [5, 13]).join('')).diff)).toEqual([
      '@@ -3,7 +3,7 @@',
      '@@ -11,7 +11,7 @@',
    ]);
  });

  it('labels a hunk with the nearest declaration above it, as git does', () => {
    const before = 'function f() {\n  a;\n  b;\n  c;\n  d;\n  e;\n}\n';
    expect(diffOf(before, before.replace('e;', 'E;')).diff).toContain('@@ -3,5 +3,5 @@ function f() {\n');
  });

  it(`keeps a diff of exactly ${DIFF_WHOLE_MAX_BYTES} bytes whole`, () => {
    const d = diffOf(null, creationWithDiffBytes(DIFF_WHOLE_MAX_BYTES));
    expect(d.diffBytes).toBe(DIFF_WHOLE_MAX_BYTES);
    expect(d.truncated).toBe(false);
    expect(Buffer.byteLength(d.diff)).toBe(DIFF_WHOLE_MAX_BYTES);
    expect(lineCount(d.diff)).toBe(1003);
  });

  it(`cuts a diff one byte over ${DIFF_WHOLE_MAX_BYTES} to its first ${DIFF_TRUNCATED_LINES} lines`, () => {
    const content = creationWithDiffBytes(DIFF_WHOLE_MAX_BYTES + 1);
    const d = diffOf(null, content);
    expect(d.diffBytes).toBe(DIFF_WHOLE_MAX_BYTES + 1);
    expect(d.truncated).toBe(true);
    expect(lineCount(d.diff)).toBe(DIFF_TRUNCATED_LINES);
    const whole = `--- /dev/null\n+++ b/src/x.txt\n@@ -0,0 +1,1000 @@\n${content.replace(/^/gm, '+').slice(0, -1)}`;
    expect(Buffer.byteLength(whole)).toBe(DIFF_WHOLE_MAX_BYTES + 1);
    expect(whole.startsWith(d.diff)).toBe(true);
  });

  it('measures the diff in UTF-8 bytes, not characters', () => {
    const content = 'é'.repeat(99) + '\n';
    const d = diffOf(null, content.repeat(340));
    expect(d.diff.length).toBeLessThan(DIFF_WHOLE_MAX_BYTES);
    expect(d.diffBytes).toBeGreaterThan(DIFF_WHOLE_MAX_BYTES);
    expect(d.truncated).toBe(true);
  });

  it('cuts a 1 MiB proposal to 400 lines and reports the sizes of the proposal and of the whole diff', () => {
    const line = `${'z'.repeat(1023)}\n`;
    const after = b(line.repeat(1024));
    const d = computeCardDiff({ path: 'big.txt', before: b('old\n'), after });
    expect(d.truncated).toBe(true);
    expect(lineCount(d.diff)).toBe(DIFF_TRUNCATED_LINES);
    expect(d.proposalBytes).toBe(1024 * 1024);
    expect(d.beforeBytes).toBe(4);
    const header = '--- a/big.txt\n+++ b/big.txt\n@@ -1 +1,1024 @@\n';
    expect(d.diff.startsWith(`${header}-old\n+${line}`)).toBe(true);
    expect(d.diffBytes).toBe(header.length + '-old\n'.length + 1024 * 1024 + 1024);
  });
});
