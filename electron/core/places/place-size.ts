/**
 * A place's size on disk: the blocks its files hold (a sparse or reflinked file counts what
 * it holds, not its length), each file once however many links it has. Links are not followed.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

export async function diskBytes(root: string): Promise<number> {
  const seen = new Set<string>();
  let total = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const p = path.join(dir, entry.name);
      const st = await fs.lstat(p).catch(() => null);
      if (!st) continue;
      const key = `${st.dev}:${st.ino}`;
      if (!seen.has(key)) {
        seen.add(key);
        total += st.blocks * 512;
      }
      if (st.isDirectory()) await walk(p);
    }
  };
  await walk(root);
  return total;
}
