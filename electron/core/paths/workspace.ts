/**
 * Workspace path resolution (SPEC §2, Paths). Every path a tool touches goes through
 * here: relative paths are joined to the workspace's real root, then every symlink is
 * followed to the real location. A path meant to be inside that lands outside is refused
 * and the refusal says whether `..` or a symlink took it there. An absolute path outside
 * is a deliberate reach: it is returned, marked outside, for the gate to put on a card.
 *
 * The app's data folder (every session's log, the keys, the web host's token) counts as
 * outside whatever the workspace (SPEC §11): a workspace at `~` contains it. A path
 * there, relative or not, is returned marked outside, so it takes a card like any other.
 * This is the one place that decides it: `inside` below is what the gate and every tool read.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ErrorKind } from '../error-kind.js';

export interface ResolvedPath {
  /** The path exactly as the caller gave it. */
  input: string;
  /** Absolute real location: every symlink followed; for a missing file, its deepest existing ancestor resolved and the rest appended. */
  real: string;
  /** True when `real` is the workspace root or below it, and not in the app's data folder. */
  inside: boolean;
  /** True when something exists at `real` (a dangling link's own name does not count). */
  exists: boolean;
}

export type EscapeKind = 'dotdot' | 'symlink';

/** A relative path that would land outside the workspace. Nothing was touched. */
export class PathEscapeError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'PathEscapeError';
  constructor(
    readonly input: string,
    readonly escape: EscapeKind,
    readonly real: string,
  ) {
    super(
      escape === 'dotdot'
        ? `refused: "${input}" uses ".." to walk out of the workspace`
        : `refused: "${input}" goes through a symlink that points out of the workspace (to ${real})`,
    );
  }
}

/** A path that is not a usable path at all (empty, NUL byte). */
export class PathInputError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'PathInputError';
}

export interface WorkspaceOptions {
  /** The app's data folder (Electron's userData, GATEHOUSE_HOME or --data-dir): never inside. */
  dataDir?: string;
  /**
   * The one folder inside the data folder this workspace may be: a session's own place
   * (SPEC §15, `<dataDir>/places/<id>/<name>`), as its real path. Everything else of the
   * data folder stays outside.
   */
  admittedPlace?: string;
}

export class Workspace {
  private constructor(
    /** The workspace root, resolved once with realpath. */
    readonly root: string,
    /** The data folder's real location, or null when the workspace was opened without one. */
    readonly dataDir: string | null,
    /** The workspace is a session's place inside the data folder: its own files are inside. */
    private readonly isPlace = false,
  ) {}

  static async open(dir: string, options: WorkspaceOptions = {}): Promise<Workspace> {
    const real = await fs.realpath(path.resolve(dir));
    const stat = await fs.stat(real);
    if (!stat.isDirectory()) throw new PathInputError(`workspace is not a folder: ${dir}`);
    const dataDir = options.dataDir === undefined ? null : (await realLocation(path.resolve(options.dataDir))).real;
    // Every file of such a workspace would need a card and no command could run in it.
    const isPlace = options.admittedPlace !== undefined && real === options.admittedPlace;
    if (dataDir !== null && inFolder(real, dataDir) && !isPlace) {
      throw new PathInputError(`workspace ${dir} is inside the app's data folder (${dataDir})`);
    }
    return new Workspace(real, dataDir, isPlace);
  }

  /** True when `real` is the workspace root or below it (the data folder included). */
  contains(real: string): boolean {
    return real === this.root || real.startsWith(this.root.endsWith(path.sep) ? this.root : this.root + path.sep);
  }

  /**
   * Where the data folder lies strictly below `dir` (a real folder), as the path segments
   * from `dir` down to it: what a search of `dir` must leave out. Null when it is
   * elsewhere, or when `dir` is in it (a search there was asked for by name, and carded).
   */
  dataDirBelow(dir: string): string[] | null {
    if (this.dataDir === null) return null;
    const below = segmentsBelow(this.dataDir, dir);
    return below === null || below.length === 0 ? null : below;
  }

  /** Workspace-relative form of a real path inside the workspace ("." for the root). */
  relative(real: string): string {
    return path.relative(this.root, real) || '.';
  }

  async resolve(input: string): Promise<ResolvedPath> {
    if (typeof input !== 'string' || input.length === 0) throw new PathInputError('path must be a non-empty string');
    if (input.includes('\0')) throw new PathInputError('path must not contain a NUL byte');
    if (path.isAbsolute(input)) {
      const { real, exists } = await realLocation(path.resolve(input));
      return { input, real, inside: this.isInside(real), exists };
    }
    const joined = path.resolve(this.root, input);
    if (!this.contains(joined)) throw new PathEscapeError(input, 'dotdot', joined);
    const { real, exists } = await realLocation(joined);
    // `..` is applied lexically first, so a path that still lands outside got there through a link.
    if (!this.contains(real)) throw new PathEscapeError(input, 'symlink', real);
    // A relative path into the data folder is not an escape: it is an outside read, asked on a card.
    return { input, real, inside: this.isInside(real), exists };
  }

  private isInside(real: string): boolean {
    if (!this.contains(real)) return false;
    return this.isPlace || !(this.dataDir !== null && inFolder(real, this.dataDir));
  }
}

/** True when `real` is `folder` or below it. */
export function inFolder(real: string, folder: string): boolean {
  return segmentsBelow(real, folder) !== null;
}

/**
 * The segments of `real` below `folder` ([] for the folder itself), or null when it is not
 * there. Compared loosely (case and Unicode normalization folded), since on a
 * case-insensitive volume (macOS, Windows, casefolded ext4) the data folder can be named
 * in another case or form: a look-alike folder counted as the data folder only costs a card.
 */
function segmentsBelow(real: string, folder: string): string[] | null {
  const r = segments(real);
  const f = segments(folder);
  if (f.length > r.length || f.some((part, i) => fold(part) !== fold(r[i]!))) return null;
  return r.slice(f.length);
}

function segments(p: string): string[] {
  return p.split(path.sep).filter((part) => part !== '');
}

function fold(part: string): string {
  return part.normalize('NFC').toLowerCase();
}

/**
 * Follows every symlink of an absolute path. When the path does not exist (or is a
 * dangling link), resolves the deepest existing ancestor and appends the rest, so a
 * file about to be created still gets its real location.
 */
export async function realLocation(abs: string, depth = 0): Promise<{ real: string; exists: boolean }> {
  if (depth > MAX_LINK_DEPTH) throw new PathInputError(`too many levels of symbolic links: ${abs}`);
  const whole = await realpathOrNull(abs);
  if (whole !== null) return { real: whole, exists: true };
  const rest: string[] = [];
  let cursor = abs;
  for (;;) {
    const link = await danglingLinkTarget(cursor);
    // A dangling link is followed to where it points, as the OS would on create.
    if (link !== null) return realLocation(path.join(link, ...rest), depth + 1);
    const parent = path.dirname(cursor);
    if (parent === cursor) return { real: abs, exists: false };
    rest.unshift(path.basename(cursor));
    cursor = parent;
    const ancestor = await realpathOrNull(cursor);
    if (ancestor !== null) return { real: path.join(ancestor, ...rest), exists: false };
  }
}

/** realpath, or null when something on the way is missing; a link loop is a bad path, not a crash. */
async function realpathOrNull(p: string): Promise<string | null> {
  try {
    return await fs.realpath(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException)?.code === 'ELOOP') {
      throw new PathInputError(`too many levels of symbolic links: ${p}`);
    }
    if (isMissing(err)) return null;
    throw err;
  }
}

const MAX_LINK_DEPTH = 40;

async function danglingLinkTarget(p: string): Promise<string | null> {
  try {
    const st = await fs.lstat(p);
    if (!st.isSymbolicLink()) return null;
    const target = await fs.readlink(p);
    // A relative target is relative to the folder the link really sits in: `..` in it
    // must climb from there, not from the (possibly symlinked) path we reached it by.
    return path.resolve(await fs.realpath(path.dirname(p)), target);
  } catch {
    return null;
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
