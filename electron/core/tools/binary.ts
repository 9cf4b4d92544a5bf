import { BINARY_SNIFF_BYTES } from '../../../shared/limits.js';
/**
 * The binary sniff (SPEC §2): a NUL byte near the start is the same test git and ripgrep
 * use, and text files practically never contain one.
 */

/** True when `head` (the file's first bytes) has a NUL within BINARY_SNIFF_BYTES. */
export function looksBinary(head: Buffer): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}
