/**
 * Keystrokes and pastes go to terminal.write in pieces the contract accepts
 * (TERMINAL_WRITE_MAX_CHARS), never cutting a surrogate pair in two: a half pair would
 * reach the shell as U+FFFD.
 */
import { TERMINAL_WRITE_MAX_CHARS } from '../../../../shared/limits';

export function inputChunks(data: string, max = TERMINAL_WRITE_MAX_CHARS): string[] {
  const chunks: string[] = [];
  let start = 0;
  while (start < data.length) {
    let end = Math.min(start + max, data.length);
    if (end < data.length && isHighSurrogate(data.charCodeAt(end - 1)) && end - 1 > start) end -= 1;
    chunks.push(data.slice(start, end));
    start = end;
  }
  return chunks;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
