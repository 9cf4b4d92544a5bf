/**
 * The web host's access token: 32 random bytes (256 bits), base64url, kept in the data
 * folder (mode 0600) so a restarted host accepts the pages and bookmarks that already hold
 * it. Whoever has it can run commands on this machine, so it is compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const TOKEN_FILE = 'web-token';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The data folder's token, made on first use. A damaged token file is replaced. */
export async function loadOrCreateToken(dataDir: string): Promise<string> {
  const file = path.join(dataDir, TOKEN_FILE);
  const existing = await fs.readFile(file, 'utf8').catch(() => '');
  if (TOKEN.test(existing.trim())) return existing.trim();
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const token = newToken();
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, `${token}\n`, { mode: 0o600 });
  await fs.rename(temp, file);
  return token;
}

/** Constant-time: both sides are hashed to equal-length digests before comparing. */
export function tokenMatches(expected: string, given: string | undefined | null): boolean {
  if (typeof given !== 'string' || given.length === 0 || given.length > 1024) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}
