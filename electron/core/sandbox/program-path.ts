/**
 * Where a program the sandbox runs is found (bwrap, socat): the app's PATH, absolute
 * entries only, so a program in the working folder is never picked up.
 */
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';

/** The first executable `name` on PATH (absolute entries only: never the working folder). */
export async function findOnPath(name: string, pathVar: string | undefined): Promise<string | null> {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      await fs.access(candidate, constants.X_OK);
      if ((await fs.stat(candidate)).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}
