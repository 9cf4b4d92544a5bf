/**
 * A confined command gets a private /tmp, which covers the host's. A program that lives
 * under the host's /tmp (an app or a checkout run from there, a PATH entry of its
 * node_modules/.bin) would then be missing inside. These are the host folders under /tmp
 * the command needs to start, shown read-only through the private /tmp: its program's
 * folder and its PATH's. Nothing else of the host's /tmp is shown.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isWithin } from './within.js';

export function hostTmpPaths(argv0: string, pathVar: string | undefined, hidden: readonly string[]): string[] {
  const candidates = [
    ...(path.isAbsolute(argv0) ? [path.dirname(realOrNull(argv0) ?? argv0)] : []),
    ...(pathVar ?? '').split(path.delimiter).filter((p) => path.isAbsolute(p)),
  ];
  const shown = new Set<string>();
  for (const candidate of candidates) {
    const real = realOrNull(candidate);
    if (!real || real === '/tmp' || !isWithin(real, '/tmp') || !isFolder(real)) continue;
    // A hidden place stays hidden, whatever PATH says.
    if (hidden.some((h) => isWithin(real, h) || isWithin(h, real))) continue;
    shown.add(real);
  }
  return [...shown];
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
