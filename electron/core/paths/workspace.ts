/**
 * Workspace path resolution (SPEC §2, Paths). Every path a tool touches goes through
 * here: relative paths are joined to the workspace's real root, then every symlink is
 * followed to the real location. A path meant to be inside that lands outside is refused
 * and the refusal says whether `..` or a symlink took it there. An absolute path outside
 * is a deliberate reach: it is returned, marked outside, for the gate to put on a card.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface ResolvedPath {
  /** The path exactly as the caller gave it. */
  input: string;
  /** Absolute real location: every symlink followed; for a missing file, its deepest existing ancestor resolved and the rest appended. */
  real: string;
  /** True when `real` is the workspace root or below it. */
  inside: boolean;
  /** True when something exists at `real` (a dangling link's own name does not count). */
  exists: boolean;
}

export type EscapeKind = 'dotdot' | 'symlink';

/** A relative path that would land outside the workspace. Nothing was touched. */
export class PathEscapeError extends Error {
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
  override readonly name = 'PathInputError';
}

export class Workspace {
  private constructor(
    /** The workspace root, resolved once with realpath. */
    readonly root: string,
  ) {}

  static async open(dir: string): Promise<Workspace> {
    const real = await fs.realpath(path.resolve(dir));
    const stat = await fs.stat(real);
    if (!stat.isDirectory()) throw new PathInputError(`workspace is not a folder: ${dir}`);
    return new Workspace(real);
  }

  contains(real: string): boolean {
    return real === this.root || real.startsWith(this.root.endsWith(path.sep) ? this.root : this.root + path.sep);
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
      return { input, real, inside: this.contains(real), exists };
    }
    const joined = path.resolve(this.root, input);
    if (!this.contains(joined)) throw new PathEscapeError(input, 'dotdot', joined);
    const { real, exists } = await realLocation(joined);
    // `..` is applied lexically first, so a path that still lands outside got there through a link.
    if (!this.contains(real)) throw new PathEscapeError(input, 'symlink', real);
    return { input, real, inside: true, exists };
  }
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
