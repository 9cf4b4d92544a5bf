/**
 * Completion for the "open a folder" field: the folders (never files) whose name starts
 * with the last segment typed. It reads one directory listing and never throws on a
 * folder it cannot read; a path that is not there yet simply has no completions.
 */
import { promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import type { ErrorKind } from '../error-kind.js';

/** At most this many completions come back (sorted, so the first ones are stable). */
export const FOLDER_COMPLETIONS_MAX = 100;
/** A huge folder is scanned only this far, so one keystroke never stats a million entries. */
const ENTRIES_SCANNED_MAX = 20_000;

export class FolderCompletionError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'FolderCompletionError';
}

export async function completeFolders(prefix: string, home: string): Promise<string[]> {
  const typed = expandHome(prefix, home);
  if (!path.isAbsolute(typed)) {
    throw new FolderCompletionError(`type an absolute path (starting with / or ~): ${prefix}`);
  }
  const cut = typed.lastIndexOf(path.sep) + 1;
  const dir = typed.slice(0, cut - 1) || path.sep;
  const segment = typed.slice(cut);
  const showHidden = segment.startsWith('.');
  const names: string[] = [];
  for (const entry of await listing(dir)) {
    if (!entry.name.startsWith(segment) || (entry.name.startsWith('.') && !showHidden)) continue;
    if (await isFolder(dir, entry)) names.push(entry.name);
  }
  names.sort();
  return names.slice(0, FOLDER_COMPLETIONS_MAX).map((name) => path.join(dir, name));
}

function expandHome(prefix: string, home: string): string {
  if (prefix === '~') return home + path.sep;
  if (prefix.startsWith(`~${path.sep}`)) return home + prefix.slice(1);
  return prefix;
}

async function listing(dir: string): Promise<Dirent[]> {
  let handle;
  try {
    handle = await fs.opendir(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Still typing towards a folder that does not exist (or is a file): nothing to offer.
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    if (code === 'EACCES' || code === 'EPERM') throw new FolderCompletionError(`cannot read ${dir}: permission denied`);
    throw new FolderCompletionError(`cannot read ${dir}: ${(err as Error).message}`);
  }
  const entries: Dirent[] = [];
  try {
    for await (const entry of handle) {
      entries.push(entry);
      if (entries.length >= ENTRIES_SCANNED_MAX) break;
    }
  } catch {
    // A listing that fails part way still offers what it read.
    await handle.close().catch(() => {});
  }
  return entries;
}

async function isFolder(dir: string, entry: Dirent): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  // A link to a folder counts as a folder; a dangling or looping link is simply skipped.
  return fs.stat(path.join(dir, entry.name)).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
