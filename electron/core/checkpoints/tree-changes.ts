/**
 * The files that differ between two snapshots: `git diff-tree -r --raw` (renames off: a
 * move is a delete and an add, each undone on its own), with sizes from `cat-file
 * --batch-check`. A file over the size cap is in neither tree, only in a snapshot's record
 * (left-out.ts), so the records complete the picture: a file that grew past the cap is
 * "modified", not "deleted", and one created or deleted while over it is still named. So
 * is a file whose name is not UTF-8 (in no tree either): made, deleted, or changed in size
 * or modification time.
 */
import type { ChangedFile } from '../../../shared/checkpoints.js';
import type { LeftOutRecord } from './left-out.js';
import type { LeftOutReader } from './left-out-reader.js';
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';

/** More paths than this are filtered after a whole diff instead of passed as pathspecs. */
const PATHSPEC_MAX = 500;

interface RawChange {
  path: string;
  status: string;
  before: string;
  after: string;
}

export async function treeChanges(
  shadow: ShadowGit,
  records: LeftOutReader,
  from: string,
  to: string,
  paths?: readonly string[],
): Promise<ChangedFile[]> {
  const wanted = paths ? new Set(paths) : null;
  if (wanted?.size === 0) return [];
  const raw = await diffTree(shadow, from, to, paths && paths.length <= PATHSPEC_MAX ? paths : undefined);
  const sizes = await objectSizes(
    shadow,
    raw.map((c) => (c.status === 'D' ? c.before : c.after)),
  );
  const found = new Map<string, ChangedFile>();
  raw.forEach((c, i) => found.set(c.path, { path: c.path, change: changeOf(c.status), bytes: sizes[i] ?? 0 }));
  completeWithRecords(found, await records.read(from), await records.read(to));
  return [...found.values()].filter((c) => !wanted || wanted.has(c.path)).sort(byPath);
}

async function diffTree(shadow: ShadowGit, from: string, to: string, paths?: readonly string[]): Promise<RawChange[]> {
  const { stdout } = await shadow.run({
    what: 'compare two snapshots',
    args: [
      'diff-tree',
      '-r',
      '-z',
      '--raw',
      '--no-renames',
      '--no-abbrev',
      from,
      to,
      ...(paths ? ['--', ...paths] : []),
    ],
    timeoutMs: LONG_TIMEOUT_MS,
  });
  const fields = stdout.toString('utf8').split('\0');
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    // ":<mode a> <mode b> <id a> <id b> <status>", then the path
    const [, , before, after, status] = (fields[i] as string).slice(1).split(' ');
    changes.push({ path: fields[i + 1] as string, status: status ?? 'M', before: before ?? '', after: after ?? '' });
  }
  return changes;
}

function changeOf(status: string): ChangedFile['change'] {
  if (status === 'A') return 'added';
  if (status === 'D') return 'deleted';
  return 'modified'; // M, and T (a file that became a link or back)
}

/** Sizes of objects, in order; 0 for one the store does not have. */
export async function objectSizes(shadow: ShadowGit, ids: readonly string[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const { stdout } = await shadow.run({
    what: 'read file sizes from the store',
    args: ['cat-file', '--batch-check=%(objectsize)'],
    input: ids.map((id) => `${id}\n`).join(''),
    timeoutMs: LONG_TIMEOUT_MS,
  });
  return stdout
    .toString('utf8')
    .split('\n')
    .slice(0, ids.length)
    .map((line) => (/^\d+$/.test(line) ? Number(line) : 0));
}

/** Adds what only the records know: files over the cap on one side or both, and names not UTF-8. */
function completeWithRecords(found: Map<string, ChangedFile>, from: LeftOutRecord, to: LeftOutRecord): void {
  completeTooLarge(found, from, to);
  for (const [p, now] of to.unreadable) {
    const was = from.unreadable.get(p);
    if (!was) found.set(p, { path: p, change: 'added', bytes: now.bytes });
    else if (was.bytes !== now.bytes || was.mtimeMs !== now.mtimeMs)
      found.set(p, { path: p, change: 'modified', bytes: now.bytes });
  }
  for (const [p, was] of from.unreadable) {
    if (!to.unreadable.has(p)) found.set(p, { path: p, change: 'deleted', bytes: was.bytes });
  }
}

function completeTooLarge(found: Map<string, ChangedFile>, from: LeftOutRecord, to: LeftOutRecord): void {
  for (const [p, bytes] of to.tooLarge) {
    const seen = found.get(p);
    const before = from.tooLarge.get(p);
    if (seen?.change === 'deleted') found.set(p, { path: p, change: 'modified', bytes });
    else if (!seen && before === undefined) found.set(p, { path: p, change: 'added', bytes });
    else if (!seen && before !== bytes) found.set(p, { path: p, change: 'modified', bytes });
  }
  for (const [p, bytes] of from.tooLarge) {
    const seen = found.get(p);
    if (seen?.change === 'added') found.set(p, { ...seen, change: 'modified' });
    else if (!seen && !to.tooLarge.has(p)) found.set(p, { path: p, change: 'deleted', bytes });
  }
}

function byPath(a: ChangedFile, b: ChangedFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
