/**
 * A workspace that is not a repository has no `.git`, and a confined command could make
 * one (`git init`, then `core.fsmonitor` in its config) that the person's own `git status`
 * there would then run. So an empty, read-only `.git` is mounted in its place while
 * confined commands run: git's discovery skips an empty `.git` (it is not a repository),
 * so the person's git is unaffected, and nothing can be created there. The empty folder
 * it needs as a mount point is removed when the last confined command using it ends.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

export class GitPlaceholders {
  /** How many running commands hold each placeholder the app made. */
  private readonly holders = new Map<string, number>();

  /** Whether `p` is a `.git` this app made empty as a mount point (and so removes later). */
  isPlaceholder(p: string): boolean {
    return path.basename(p) === '.git';
  }

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
