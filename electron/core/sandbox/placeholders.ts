/**
 * What the app makes in the workspace as mount points for read-only places that do not
 * exist yet, held while confined commands use them and removed by the last one (when
 * still as made), so the person's workspace is left as it was.
 *
 * The one that matters most: a workspace that is not a repository has no `.git`, and a
 * confined command could make one (`git init`, then `core.fsmonitor` in its config) that
 * the person's own git status there would then run. An empty, read-only `.git` stands in
 * its place while commands run: git's discovery skips an empty `.git` (it is not a
 * repository), so the person's git is unaffected, and nothing can be created there. So
 * for `.gatehouse`, `.claude`, a hooks folder, and a submodule's folder not checked out.
 *
 * With `git: true`, files of a git folder stand in too, each as git reads it harmlessly:
 * an empty `config` or `config.worktree`, and a `commondir` of `.` (the folder itself; an
 * empty one makes every git there fail).
 *
 * Making, holding and releasing are synchronous: a release that removed a stand-in after
 * another run had found it there but before it held it would leave that run's mount
 * point gone (the kernel detaches it), and the run free to make a `.git` in its place.
 */
import { mkdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Files that stand in as files, with the bytes git reads harmlessly; any other name stands in as an empty folder. */
const FILE_STAND_INS: ReadonlyMap<string, string> = new Map([
  ['config', ''],
  ['config.worktree', ''],
  ['commondir', '.\n'],
]);

export class Placeholders {
  /** How many running commands hold each placeholder the app made. */
  private readonly holders = new Map<string, number>();

  /**
   * Each place that does not exist is made (a folder, or a file of FILE_STAND_INS); one whose
   * parent is gone is left out. `readOnly`: those there now, to mount; `held`: those this
   * run holds (it made them, or another running command did), for `release`.
   */
  standIn(places: readonly string[]): { readOnly: string[]; held: string[] } {
    const readOnly: string[] = [];
    const held: string[] = [];
    for (const p of places) {
      const made = this.holders.has(p) ? 'held' : make(p);
      if (made === null) continue;
      readOnly.push(p);
      if (made === 'there') continue;
      this.holders.set(p, (this.holders.get(p) ?? 0) + 1);
      held.push(p);
    }
    return { readOnly, held };
  }

  /** Releases one hold of each; the last one removes what was made, if still as made (last made, first removed). */
  release(held: readonly string[]): void {
    for (const p of [...held].reverse()) {
      const left = (this.holders.get(p) ?? 1) - 1;
      if (left > 0) {
        this.holders.set(p, left);
        continue;
      }
      this.holders.delete(p);
      remove(p);
    }
  }
}

function make(p: string): 'made' | 'there' | null {
  const content = FILE_STAND_INS.get(path.basename(p));
  try {
    if (content === undefined) mkdirSync(p);
    else writeFileSync(p, content, { flag: 'wx', mode: 0o644 });
    return 'made';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EEXIST' ? 'there' : null;
  }
}

function remove(p: string): void {
  const content = FILE_STAND_INS.get(path.basename(p));
  try {
    if (content === undefined)
      rmdirSync(p); // fails when no longer empty: then it is the person's
    else if (readFileSync(p, 'utf8') === content) unlinkSync(p);
  } catch {
    // Gone already, or changed since: left as it is.
  }
}
