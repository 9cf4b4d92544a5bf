/**
 * The write digest (SPEC §3): what the gate stores when a write card goes up, and what a
 * write compares just before it replaces the file.
 */
import { createHash } from 'node:crypto';

/** The digest of a file that does not exist. */
export const ABSENT_DIGEST = 'absent';

/** SHA-256 hex of the bytes, or "absent" for no file. */
export function digestOf(bytes: Buffer | null): string {
  return bytes === null ? ABSENT_DIGEST : createHash('sha256').update(bytes).digest('hex');
}
