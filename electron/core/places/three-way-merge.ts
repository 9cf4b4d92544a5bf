/**
 * A conflict's three-way merge, for the person to read (never written anywhere of theirs):
 * `git merge-file -p --diff3` on temporary files, through the git door, in a temporary
 * folder that is no repository, so no config of the person's is read and nothing runs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runGit } from '../checkpoints/git-run.js';

const TIMEOUT_MS = 60_000;
/** merge-file answers the number of conflicts (capped at 127); a negative exit is its failure. */
const CONFLICT_CODES = Array.from({ length: 127 }, (_, i) => i + 1);

export async function threeWayMerge(
  git: string,
  sides: { yours: Buffer; base: Buffer; session: Buffer },
): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-merge-'));
  try {
    const names = ['yours', 'base', 'session'] as const;
    await Promise.all(names.map((n) => writeFile(path.join(dir, n), sides[n])));
    const { stdout } = await runGit({
      what: 'merge the two sides of a conflict',
      git,
      args: ['merge-file', '-p', '--diff3', '-L', 'your folder', '-L', 'base', '-L', 'this session', ...names],
      env: {},
      cwd: dir,
      timeoutMs: TIMEOUT_MS,
      okCodes: CONFLICT_CODES,
    });
    return stdout.toString('utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
