/**
 * The data folder is one user's (SPEC §11): logs, meta, blobs, settings and keys hold
 * prompts, file contents and credentials, and a shared `--data-dir` must not show them to
 * other users. Folders are made 0700 and files 0600; older, wider ones are tightened when
 * they are next opened. Modes only narrow what the umask allows, never widen it. On
 * Windows the modes are ignored (chmod there only sets the read-only bit) and the
 * profile's ACLs keep the folder private.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** mkdir -p with private modes for every folder it creates (existing ones are left as they are). */
export async function makePrivateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Makes a folder 0700 and the regular files directly in it 0600. Symlinks are skipped, as
 * chmod would follow them out of the folder.
 */
export async function tightenFolder(dir: string): Promise<void> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(unlessUntightenable);
  if (!entries) return;
  await chmodQuietly(dir, PRIVATE_DIR_MODE);
  const files = entries.filter((entry) => entry.isFile());
  await Promise.all(files.map((file) => chmodQuietly(path.join(dir, file.name), PRIVATE_FILE_MODE)));
}

/** Makes one file 0600 if it is there and is a regular file (a symlink's target is not ours to change). */
export async function tightenFile(file: string): Promise<void> {
  const stat = await fs.lstat(file).catch(unlessUntightenable);
  if (stat?.isFile()) await chmodQuietly(file, PRIVATE_FILE_MODE);
}

/** Makes one folder 0700, leaving what is in it as it is. */
export async function tightenDir(dir: string): Promise<void> {
  const stat = await fs.lstat(dir).catch(unlessUntightenable);
  if (stat?.isDirectory()) await chmodQuietly(dir, PRIVATE_DIR_MODE);
}

async function chmodQuietly(target: string, mode: number): Promise<void> {
  await fs.chmod(target, mode).catch(unlessUntightenable);
}

/**
 * Gone, or owned by someone else: nothing to tighten, and the file is no more exposed than
 * it was. Refusing to open it would only cost the user their session or settings.
 */
function unlessUntightenable(err: NodeJS.ErrnoException): undefined {
  if (err.code === 'ENOENT' || err.code === 'EPERM') return undefined;
  throw err;
}
