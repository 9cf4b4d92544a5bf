/**
 * Whole-file replacement that a crash cannot leave half-done: the bytes go to a temporary
 * file in the same folder (so rename stays on one filesystem and is atomic), are fsynced,
 * and the temporary file is renamed over the target. The folder is fsynced afterwards so
 * the rename itself survives a power loss, not only a process kill.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files.js';

/** Marks temporary files, `<name>.tmp-<pid>-<random>`, so leftovers can be recognised. */
const TEMP_MARK = '.tmp-';

/** The file ends up 0600 (private-files.ts): every caller writes the app's own data. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const dir = path.dirname(file);
  const temp = path.join(dir, `${path.basename(file)}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const handle = await fs.open(temp, 'wx', PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
  await syncDir(dir);
}

/** Makes a folder's entries (a rename, a new file) durable. */
export async function syncDir(dir: string): Promise<void> {
  // Windows cannot open a folder for fsync; NTFS journals renames itself.
  if (process.platform === 'win32') return;
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Deletes temporary files a killed process left in `dir`. Files of this process are
 * kept: one of its own writes may be in flight.
 */
export async function removeStaleTemps(dir: string): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const ours = `${TEMP_MARK}${process.pid}-`;
  const stale = names.filter((name) => name.includes(TEMP_MARK) && !name.includes(ours));
  await Promise.all(stale.map((name) => fs.rm(path.join(dir, name), { force: true })));
}
