/**
 * File names as git gives them (bytes) and as the app carries them (strings). A name that
 * is valid UTF-8 is its text. One that is not would lose bytes to U+FFFD in a plain decode
 * (two names could meet in one string, and the string would lead back to no file), so each
 * byte that is not part of valid UTF-8 becomes a lone surrogate U+DC80..U+DCFF instead
 * (Python's "surrogateescape"): no valid UTF-8 decodes to one, so the string says, without
 * doubt, that the name was not UTF-8, and encodePath gives the bytes back exactly.
 */

const ESCAPED_BYTE = /[\uDC80-\uDCFF]/u;
const ESCAPE_BASE = 0xdc00;

/** The name in these bytes, with each byte outside valid UTF-8 kept as a lone surrogate. */
export function decodePath(bytes: Buffer): string {
  const plain = bytes.toString('utf8');
  if (!plain.includes('\uFFFD') || isUtf8(bytes)) return plain;
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length > 0) {
      out += bytes.toString('utf8', i, i + length);
      i += length;
    } else {
      out += String.fromCharCode(ESCAPE_BASE + (bytes[i] as number));
      i += 1;
    }
  }
  return out;
}

/** The bytes of a name decodePath made. */
export function encodePath(name: string): Buffer {
  if (!hasEscapedBytes(name)) return Buffer.from(name, 'utf8');
  const parts: Buffer[] = [];
  let run = '';
  for (const ch of name) {
    if (ESCAPED_BYTE.test(ch)) {
      parts.push(Buffer.from(run, 'utf8'), Buffer.of(ch.charCodeAt(0) - ESCAPE_BASE));
      run = '';
    } else run += ch;
  }
  parts.push(Buffer.from(run, 'utf8'));
  return Buffer.concat(parts);
}

/** The full path of a workspace name, as the bytes on disk. */
export function inWorkspace(root: string, name: string): Buffer {
  return Buffer.concat([Buffer.from(`${root}/`), encodePath(name)]);
}

/** Whether the name was not valid UTF-8 on disk (it holds an escaped byte). */
export function hasEscapedBytes(name: string): boolean {
  // With the u flag a surrogate pair is one code point, so only a lone surrogate matches.
  return ESCAPED_BYTE.test(name);
}

function isUtf8(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length;) {
    const length = sequenceLength(bytes, i);
    if (length === 0) return false;
    i += length;
  }
  return true;
}

/** The length of the valid UTF-8 sequence starting at i (RFC 3629: no overlong forms, no surrogates), or 0. */
function sequenceLength(bytes: Buffer, i: number): number {
  const b0 = bytes[i] as number;
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => {
    const b = bytes[i + k];
    return b !== undefined && b >= lo && b <= hi;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if (b0 === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b0 >= 0xe1 && b0 <= 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b0 === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xf1 && b0 <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}
