/**
 * Files in the workspace that are neither files, folders nor links: FIFOs, sockets and
 * devices. git skips them when it lists untracked files, but it opens a `.gitignore` or a
 * `.gitattributes` by name, and opening a FIFO waits for a writer that may never come
 * (`mkfifo .gitignore` froze every snapshot for the 15-minute timeout). So the status runs
 * under a watchdog (workspace-status.ts), and when it fires they are found here, by a
 * bounded walk that never follows a link, and named as left out.
 *
 * A FIFO `.gitignore` is then held open for writing while git reads the workspace: git's
 * open returns at once, and a FIFO's size is 0, which git takes as an empty ignore file
 * without reading it (dir.c add_patterns): no rules, which is all a FIFO holds. A
 * `.gitattributes` is read to its end, which a held FIFO never reaches, so git cannot
 * hash, compare or write a file under one: a snapshot or undo that would is refused at
 * once, in words. The root's two are looked at before every status (AT_THE_ROOT).
 */
import { constants, type Dirent, type Stats } from 'node:fs';
import { lstat, open, readdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { decodePath, inWorkspace } from './path-names.js';

export type SpecialKind = 'fifo' | 'socket' | 'device';

export interface SpecialFile {
  /** Relative to the workspace root, as path-names.ts carries names. */
  path: string;
  kind: SpecialKind;
}

/** The walk looks at no more entries than this (a huge ignored folder must not make it slow). */
const WALK_MAX_ENTRIES = 200_000;

/** The names git opens by itself in every folder it enters. */
const OPENED_BY_GIT = new Set(['.gitignore', '.gitattributes']);

export function kindOf(st: Stats | Dirent<string | Buffer>): SpecialKind | null {
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'device';
  return null;
}

/** Special files found in each workspace, by root: every session's snapshot there checks them first. */
export class KnownSpecialFiles {
  private readonly remembered = new Map<string, SpecialFile[]>();

  of(root: string): readonly SpecialFile[] {
    return this.remembered.get(root) ?? [];
  }

  /** Walks the workspace for its special files and remembers them for the next snapshots. */
  async findAndRemember(root: string): Promise<SpecialFile[]> {
    const found = await findSpecialFiles(root);
    this.remembered.set(root, found);
    return found;
  }
}

/** The words for git waiting on these: what the person must remove for snapshots to go on. */
export function waitedOn(blockers: readonly SpecialFile[]): string {
  const named = blockers.map((f) => `${f.path} (a ${f.kind === 'fifo' ? 'FIFO' : f.kind})`).join(', ');
  return `git waits on ${named}, which no snapshot can read past; remove it for snapshots to go on`;
}

/** Whether holding it open lets git go on: a FIFO `.gitignore` (see the top of this file). */
export function canHold(file: SpecialFile): boolean {
  return file.kind === 'fifo' && path.posix.basename(file.path) === '.gitignore';
}

/**
 * The special `.gitattributes` on the way to these paths: git reads a folder's attributes
 * to its end before it hashes or writes a file under it, so it would wait on these.
 */
export function attributesInTheWay(special: readonly SpecialFile[], paths: readonly string[]): SpecialFile[] {
  return special.filter((f) => {
    if (f.kind === 'socket' || path.posix.basename(f.path) !== '.gitattributes') return false;
    const folder = path.posix.dirname(f.path);
    return folder === '.' || paths.some((p) => p.startsWith(`${folder}/`));
  });
}

/** The root's own ignore and attribute files: looked at by every snapshot, two lstat calls. */
export const AT_THE_ROOT: readonly SpecialFile[] = [
  { path: '.gitattributes', kind: 'fifo' },
  { path: '.gitignore', kind: 'fifo' },
];

/** Whether git would wait on this one when it reads its folder. */
export function blocksGit(file: SpecialFile): boolean {
  return file.kind !== 'socket' && OPENED_BY_GIT.has(path.posix.basename(file.path));
}

/** Every special file under root, never through a link, never inside a `.git` or past WALK_MAX_ENTRIES entries. */
export async function findSpecialFiles(root: string): Promise<SpecialFile[]> {
  const found: SpecialFile[] = [];
  const folders: Buffer[] = [Buffer.alloc(0)];
  let seen = 0;
  while (folders.length > 0 && seen < WALK_MAX_ENTRIES) {
    const rel = folders.shift() as Buffer;
    const entries = await readdir(join(root, rel), { withFileTypes: true, encoding: 'buffer' }).catch(() => []);
    seen += entries.length;
    for (const entry of entries) {
      const name = entry.name;
      if (name.toString('latin1') === '.git') continue;
      const child = rel.length === 0 ? name : Buffer.concat([rel, Buffer.from('/'), name]);
      if (entry.isDirectory()) folders.push(child);
      const kind = kindOf(entry);
      if (kind) found.push({ path: decodePath(child), kind });
    }
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Those of `known` that are still special files (lstat, never followed). */
export async function stillThere(root: string, known: readonly SpecialFile[]): Promise<SpecialFile[]> {
  const kinds = await Promise.all(
    known.map(async (f) => {
      const st = await lstat(inWorkspace(root, f.path)).catch(() => null);
      return st ? kindOf(st) : null;
    }),
  );
  return known.flatMap((f, i) => (kinds[i] ? [{ path: f.path, kind: kinds[i] as SpecialKind }] : []));
}

/**
 * Opens each FIFO `.gitignore` for reading and writing, so git's own open of it does not
 * wait; answers the release. Never through a link (O_NOFOLLOW), never blocking
 * (O_NONBLOCK), and whatever was swapped in meanwhile that is not a FIFO is closed at once.
 */
export async function holdIgnoreFifos(root: string, files: readonly SpecialFile[]): Promise<() => Promise<void>> {
  const held: FileHandle[] = [];
  const flags = constants.O_RDWR | constants.O_NONBLOCK | constants.O_NOFOLLOW;
  for (const file of files) {
    if (!canHold(file)) continue;
    const handle = await open(inWorkspace(root, file.path), flags).catch(() => null);
    if (!handle) continue;
    if ((await handle.stat()).isFIFO()) held.push(handle);
    else await handle.close();
  }
  return async () => {
    await Promise.all(held.map((h) => h.close()));
  };
}

function join(root: string, rel: Buffer): Buffer {
  return rel.length === 0 ? Buffer.from(root) : Buffer.concat([Buffer.from(`${root}/`), rel]);
}
