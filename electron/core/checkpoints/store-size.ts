/**
 * A store's size on disk: every file under its folder, counted by the blocks it takes
 * (a loose object of 200 bytes still takes a 4 KiB block), or by its length where the
 * platform does not say.
 */
import { readdir, lstat } from 'node:fs/promises';
import path from 'node:path';

export async function storeBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  let total = 0;
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await storeBytes(full);
    else {
      const st = await lstat(full).catch(() => null);
      if (st) total += typeof st.blocks === 'number' && st.blocks > 0 ? st.blocks * 512 : st.size;
    }
  }
  return total;
}
