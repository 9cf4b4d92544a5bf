/**
 * Empty folders the app makes in the workspace as mount points for read-only places that
 * do not exist yet, held while confined commands use them and removed by the last one
 * (when still empty), so the person's workspace is left as it was.
 *
 * The one that matters most: a workspace that is not a repository has no `.git`, and a
 * confined command could make one (`git init`, then `core.fsmonitor` in its config) that
 * the person's own `git status` there would then run. An empty, read-only `.git` stands in
 * its place while commands run: git's discovery skips an empty `.git` (it is not a
 * repository), so the person's git is unaffected, and nothing can be created there. So
 * for `.gatehouse`, `.claude`, a hooks folder, and a submodule's folder not checked out.
 */
import { promises as fs } from 'node:fs';

export class Placeholders {
  /** How many running commands hold each placeholder the app made. */
  private readonly holders = new Map<string, number>();

  /** Whether a running command already holds it (another command made it). */
  holds(p: string): boolean {
    return this.holders.has(p);
  }

  hold(p: string): void {
    this.holders.set(p, (this.holders.get(p) ?? 0) + 1);
  }

  /** Releases one hold; the last one removes the folder if it is still empty (rmdir fails otherwise). */
  async release(p: string): Promise<void> {
    const left = (this.holders.get(p) ?? 1) - 1;
    if (left > 0) {
      this.holders.set(p, left);
      return;
    }
    this.holders.delete(p);
    await fs.rmdir(p).catch(() => {});
  }
}
