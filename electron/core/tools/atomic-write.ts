/**
 * Replacing a file so that a reader (or a crash) sees the old bytes or the new ones,
 * never a mix: write a temporary file in the same folder, then rename it over the
 * target. rename(2) is atomic only within one file system, hence the same folder.
 */
import { randomBytes } from 'node:crypto';
import { promises as nodeFs, type Stats } from 'node:fs';
import path from 'node:path';
import { sameFile } from '../paths/regular-file.js';
import { StalePlanError } from './tool-def.js';
import { wholeCharLength } from '../text/utf8-boundary.js';

/**
 * Bytes of the target's name kept in the temporary file's name. With the dot, the random
 * part and the suffix it stays far below the usual 255-byte limit on a file name.
 */
const TEMP_BASE_MAX_BYTES = 100;

/** The file-system calls an AtomicWriter makes; tests inject failures through this. */
export interface AtomicWriteFs {
  mkdir(dir: string, options: { recursive: true }): Promise<string | undefined>;
  open(file: string, flags: string, mode: number): Promise<nodeFs.FileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(file: string): Promise<void>;
  rmdir(dir: string): Promise<void>;
  realpath(file: string): Promise<string>;
  lstat(file: string): Promise<Stats>;
}

export interface AtomicWriteOptions {
  /** Permission bits the file ends up with, applied with fchmod so the umask cannot change them. */
  mode: number;
  /** The replaced file's owner, kept when the process is allowed to (it is not an error otherwise). */
  owner?: { uid: number; gid: number };
  /**
   * The real folder the file must land in (the dirname of an already-resolved target).
   * When a folder on the way is swapped for a link while the write is under way, the
   * write stops with a StalePlanError instead of landing wherever the link points.
   * Without it, the folder's real path just after mkdir is what is kept to.
   */
  realDir?: string;
}

export class AtomicWriter {
  constructor(private readonly fs: AtomicWriteFs = nodeFs) {}

  /**
   * Writes `bytes` to `target`, creating missing parent folders. On failure the target
   * is untouched, and the temporary file and any folder this call created are removed
   * (the folders not after a StalePlanError: see below).
   */
  async write(target: string, bytes: Buffer, options: AtomicWriteOptions): Promise<void> {
    const dir = path.dirname(target);
    const firstCreated = await this.fs.mkdir(dir, { recursive: true });
    try {
      // mkdir follows links, so the folder is checked once it exists, and again before the rename.
      const folder = await this.folderAt(dir, options.realDir ?? (await this.fs.realpath(dir)));
      await this.replace(target, bytes, options, folder);
    } catch (err) {
      // After a swap the path may lead through a link to someone else's empty folders,
      // which rmdir would remove; leaving ours behind (empty) is the lesser harm.
      if (firstCreated !== undefined && !(err instanceof StalePlanError)) {
        await this.removeCreatedFolders(firstCreated, dir);
      }
      throw err;
    }
  }

  private async replace(target: string, bytes: Buffer, options: AtomicWriteOptions, folder: Folder): Promise<void> {
    const temp = tempPathBeside(target);
    const handle = await this.fs.open(temp, 'wx', 0o600);
    try {
      try {
        await handle.writeFile(bytes);
        await handle.chmod(options.mode);
        if (options.owner) await keepOwner(handle, options.owner);
        // Flush before the rename, or a crash could leave the new name on empty content.
        await handle.sync();
      } finally {
        await handle.close();
      }
      // The last moment to notice a folder swapped meanwhile; the rename itself cannot be
      // bound to the folder checked (Node has no renameat), so a swap in between remains.
      const now = await this.folderAt(path.dirname(temp), folder.real);
      if (!sameFile(now.stats, folder.stats)) {
        throw new StalePlanError(`${folder.real} was replaced by another folder while the file was being written`);
      }
      await this.fs.rename(temp, target);
    } catch (err) {
      await this.fs.unlink(temp).catch(() => undefined);
      throw err;
    }
  }

  /** The folder at `dir`, which must really be `real` (no link on the way), else a StalePlanError. */
  private async folderAt(dir: string, real: string): Promise<Folder> {
    const now = await this.fs.realpath(dir);
    if (now !== real) {
      throw new StalePlanError(`${dir} now leads to ${now}, not ${real}: a folder on the way was swapped for a link`);
    }
    return { real, stats: await this.fs.lstat(real) };
  }

  /** rmdir (never recursive delete) from the deepest folder up, so nothing another writer put there is lost. */
  private async removeCreatedFolders(firstCreated: string, deepest: string): Promise<void> {
    for (let dir = deepest; dir.length >= firstCreated.length; dir = path.dirname(dir)) {
      const removed = await this.fs.rmdir(dir).then(
        () => true,
        () => false,
      );
      if (!removed || dir === firstCreated) return;
    }
  }
}

interface Folder {
  real: string;
  stats: Stats;
}

/**
 * A hidden, unique name in the target's own folder, short enough for any file-name limit.
 * The name is cut by bytes, which is what the limit counts, and on a character boundary.
 */
function tempPathBeside(target: string): string {
  return path.join(path.dirname(target), `.${tempBase(target)}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
}

const TEMP_SUFFIX = '.gatehouse-tmp';

function tempBase(target: string): string {
  const name = Buffer.from(path.basename(target), 'utf8').subarray(0, TEMP_BASE_MAX_BYTES);
  return name.subarray(0, wholeCharLength(name)).toString('utf8');
}

/** Whether `name` (in the target's folder) is one of this writer's temporary files for `target`. */
export function isTempFileOf(target: string, name: string): boolean {
  const prefix = `.${tempBase(target)}.`;
  if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) return false;
  return /^[0-9a-f]{12}$/.test(name.slice(prefix.length, -TEMP_SUFFIX.length));
}

async function keepOwner(handle: nodeFs.FileHandle, owner: { uid: number; gid: number }): Promise<void> {
  if (owner.uid === process.getuid?.() && owner.gid === process.getgid?.()) return;
  await handle.chown(owner.uid, owner.gid).catch(() => undefined);
}
