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
  return programFoldersUnder('/tmp', argv0, pathVar, hidden);
}

/**
 * The same for a folder the profile hides as a whole because it holds the person's files
 * (/var/tmp, /mnt, /media, /srv: profile.ts): a program that lives there (a checkout under
 * /var/tmp, its node_modules/.bin on PATH) still starts, and nothing else there shows.
 * `hidden` is every hidden place; the ones holding nothing of `root` are what stays hidden.
 */
export function programFoldersInHidden(
  root: string,
  argv0: string,
  pathVar: string | undefined,
  hidden: readonly string[],
): string[] {
  return programFoldersUnder(
    root,
    argv0,
    pathVar,
    hidden.filter((h) => h !== root),
  );
}

/** The program's folder and the PATH folders strictly inside `root`, that lie in no hidden place and hold none. */
function programFoldersUnder(
  root: string,
  argv0: string,
  pathVar: string | undefined,
  hidden: readonly string[],
): string[] {
  const candidates = [
    ...(path.isAbsolute(argv0) ? [path.dirname(realOrNull(argv0) ?? argv0)] : []),
    ...(pathVar ?? '').split(path.delimiter).filter((p) => path.isAbsolute(p)),
  ];
  const shown = new Set<string>();
  for (const candidate of candidates) {
    const real = realOrNull(candidate);
    if (!real || real === root || !isWithin(real, root) || !isFolder(real)) continue;
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
