/**
 * Replacing a file so that a reader (or a crash) sees the old bytes or the new ones,
 * never a mix: write a temporary file in the same folder, then rename it over the
 * target. rename(2) is atomic only within one file system, hence the same folder.
 */
import { randomBytes } from 'node:crypto';
import { promises as nodeFs } from 'node:fs';
import path from 'node:path';

/** The file-system calls an AtomicWriter makes; tests inject failures through this. */
export interface AtomicWriteFs {
  mkdir(dir: string, options: { recursive: true }): Promise<string | undefined>;
  open(file: string, flags: string, mode: number): Promise<nodeFs.FileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(file: string): Promise<void>;
  rmdir(dir: string): Promise<void>;
}

export interface AtomicWriteOptions {
  /** Permission bits the file ends up with, applied with fchmod so the umask cannot change them. */
  mode: number;
  /** The replaced file's owner, kept when the process is allowed to (it is not an error otherwise). */
  owner?: { uid: number; gid: number };
}

export class AtomicWriter {
  constructor(private readonly fs: AtomicWriteFs = nodeFs) {}

  /**
   * Writes `bytes` to `target`, creating missing parent folders. On failure the target
   * is untouched, and the temporary file and any folder this call created are removed.
   */
  async write(target: string, bytes: Buffer, options: AtomicWriteOptions): Promise<void> {
    const dir = path.dirname(target);
    const firstCreated = await this.fs.mkdir(dir, { recursive: true });
    try {
      await this.replace(target, bytes, options);
    } catch (err) {
      if (firstCreated !== undefined) await this.removeCreatedFolders(firstCreated, dir);
      throw err;
    }
  }

  private async replace(target: string, bytes: Buffer, options: AtomicWriteOptions): Promise<void> {
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
      await this.fs.rename(temp, target);
    } catch (err) {
      await this.fs.unlink(temp).catch(() => undefined);
      throw err;
    }
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

/** A hidden, unique name in the target's own folder, short enough for any file-name limit. */
function tempPathBeside(target: string): string {
  const base = path.basename(target).slice(0, 100);
  return path.join(path.dirname(target), `.${base}.${randomBytes(6).toString('hex')}.gatehouse-tmp`);
}

async function keepOwner(handle: nodeFs.FileHandle, owner: { uid: number; gid: number }): Promise<void> {
  if (owner.uid === process.getuid?.() && owner.gid === process.getgid?.()) return;
  await handle.chown(owner.uid, owner.gid).catch(() => undefined);
}
