/**
 * The web host's access token: 32 random bytes (256 bits), base64url, made afresh at every
 * start and kept in memory only (issue 19, item 7). A token on disk outlived the host and
 * went to whoever could read the data folder; one that dies with the host is worth nothing
 * after it. Whoever has it can run commands on this machine, so it is compared in constant
 * time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Where earlier versions kept the token; removed at start so no old token lingers there. */
export const OLD_TOKEN_FILE = 'web-token';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Deletes the token file an earlier version left in the data folder, if any. */
export async function forgetStoredToken(dataDir: string): Promise<void> {
  await fs.rm(path.join(dataDir, OLD_TOKEN_FILE), { force: true });
}

/** Constant-time: both sides are hashed to equal-length digests before comparing. */
export function tokenMatches(expected: string, given: string | undefined | null): boolean {
  if (typeof given !== 'string' || given.length === 0 || given.length > 1024) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}
