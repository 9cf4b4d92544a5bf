/**
 * UTF-8 character boundaries in raw bytes, so a byte window can be trimmed to whole
 * characters without decoding it.
 */

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** How many bytes the character starting with `lead` takes, or 1 for a byte that cannot start one. */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf7) return 4;
  if (lead >= 0xe0) return lead <= 0xef ? 3 : 1;
  if (lead >= 0xc0) return 2;
  return 1;
}

/**
 * The longest prefix of `bytes` that does not end inside a character. Only a complete-able
 * sequence cut by the window's end is dropped; invalid bytes are left for the decoder.
 */
export function wholeCharLength(bytes: Buffer): number {
  const end = bytes.length;
  // A UTF-8 character is at most 4 bytes, so its lead byte is within the last 4.
  for (let i = end - 1; i >= 0 && i >= end - 4; i--) {
    const byte = bytes[i] as number;
    if (isContinuation(byte)) continue;
    return i + sequenceLength(byte) > end ? i : end;
  }
  return end;
}

/** How many continuation bytes open `bytes` (at most 3): a window that starts inside a character skips them. */
export function leadingContinuationBytes(bytes: Buffer): number {
  let n = 0;
  while (n < 3 && n < bytes.length && isContinuation(bytes[n] as number)) n++;
  return n;
}
