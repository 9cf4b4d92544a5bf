import { describe, expect, it } from 'vitest';
import { computeCardDiff } from '../../../../../electron/core/diff/bytes-card-diff.js';
import { NOTES } from '../../../../../shared/diff/unified-diff.js';

const latin1 = (text: string) => Buffer.from(text, 'latin1');
const utf8 = (text: string) => Buffer.from(text, 'utf8');

describe('sides that are not valid UTF-8', () => {
  it('shows a Latin-1 byte turned into U+FFFD as a changed line, with a note', () => {
    // The model read "caf\xe9" as "caf\ufffd" and wrote that back along with its real edit.
    const before = latin1('name = "caf\xe9"\nsize = 1\n');
    const after = utf8('name = "caf\ufffd"\nsize = 2\n');
    const d = computeCardDiff({ path: 'menu.txt', before, after });
    expect(d.diff).toBe(
      '--- a/menu.txt\n+++ b/menu.txt\n@@ -1,2 +1,2 @@\n-name = "caf\ufffd"\n-size = 1\n+name = "caf\ufffd"\n+size = 2\n',
    );
    expect(d.note).toBe(NOTES.invalidUtf8);
  });

  it('tells apart two different invalid bytes that both display as U+FFFD', () => {
    const d = computeCardDiff({
      path: 'x',
      before: Buffer.from([0x61, 0xe9, 0x0a]),
      after: Buffer.from([0x61, 0xe8, 0x0a]),
    });
    expect(d.diff).toBe('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\ufffd\n+a\ufffd\n');
    expect(d.note).toBe(NOTES.invalidUtf8);
  });

  it('keeps unchanged lines with invalid bytes as context, matched by their bytes', () => {
    const before = Buffer.concat([latin1('\xff\xfe\n'), utf8('a\nb\n')]);
    const after = Buffer.concat([latin1('\xff\xfe\n'), utf8('a\nB\n')]);
    const d = computeCardDiff({ path: 'x', before, after });
    expect(d.diff).toBe('--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n \ufffd\ufffd\n a\n-b\n+B\n');
    expect(d.note).toBe(NOTES.invalidUtf8);
  });

  it('adds the note when only the proposal is invalid, and not when both sides are valid', () => {
    const d = computeCardDiff({ path: 'x', before: utf8('a\n'), after: Buffer.from([0x61, 0xc3, 0x0a]) });
    expect(d.note).toBe(NOTES.invalidUtf8);
    expect(computeCardDiff({ path: 'x', before: utf8('é\n'), after: utf8('è\n') }).note).toBeUndefined();
  });

  it('still notices a CRLF to LF change in a file with invalid bytes', () => {
    const d = computeCardDiff({ path: 'x', before: latin1('\xe9\r\na\r\n'), after: latin1('\xe9\na\n') });
    expect(d.note).toBe(`${NOTES.crlfToLf} ${NOTES.invalidUtf8}`);
  });
});
