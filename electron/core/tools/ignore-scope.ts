/**
 * Which ignore files grep honours. Inside a git repository, ripgrep's own rule is git's:
 * .gitignore files count from the search folder up to the repository root, and none
 * above it. In a folder that is not a repository, ripgrep would ignore .gitignore
 * entirely, or (with --no-require-git) apply every .gitignore up to "/", so a stray one
 * above the workspace could hide it. There, only the ignore files inside the scope count.
 * (ripgrep reads a handed-over ignore file relative to its working folder, so an anchored
 * pattern like "/build" in a folder between the scope root and the searched folder is
 * taken relative to the scope root: a small approximation, in a rare layout.)
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore'];

/**
 * ripgrep flags for a search of `searchDir` (a folder, real path) within `scopeRoot`
 * (the workspace root, or for a search outside it the searched folder itself). ripgrep
 * must run with `scopeRoot` as its working folder: --ignore-file patterns are relative to it.
 */
export async function ignoreFlags(scopeRoot: string, searchDir: string): Promise<string[]> {
  if (await insideGitRepository(scopeRoot)) return [];
  const flags = ['--no-require-git', '--no-ignore-parent'];
  // With parents off, the ignore files between the scope root and the searched folder
  // are handed over explicitly (the searched folder's own are read by ripgrep).
  for (const dir of foldersAbove(scopeRoot, searchDir)) {
    for (const name of IGNORE_FILES) {
      const file = path.join(dir, name);
      if (await isFile(file)) flags.push('--ignore-file', file);
    }
  }
  return flags;
}

async function insideGitRepository(dir: string): Promise<boolean> {
  for (let cursor = dir; ; cursor = path.dirname(cursor)) {
    if (await exists(path.join(cursor, '.git'))) return true;
    if (path.dirname(cursor) === cursor) return false;
  }
}

/** scopeRoot and each folder below it down to searchDir's parent, shallowest first. */
function foldersAbove(scopeRoot: string, searchDir: string): string[] {
  const rel = path.relative(scopeRoot, searchDir);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return [];
  const parts = rel.split(path.sep);
  return parts.map((_, i) => path.join(scopeRoot, ...parts.slice(0, i)));
}

async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}

async function isFile(p: string): Promise<boolean> {
  return fs.stat(p).then(
    (st) => st.isFile(),
    () => false,
  );
}
