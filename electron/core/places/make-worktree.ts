/**
 * A worktree place (SPEC §15): `git worktree add --no-track -b gatehouse/<slug> <dir> <base>`
 * on the person's repository, through PersonGit (the door, filter drivers blanked), so
 * making it runs nothing the repository names. The branch name is the session's title made
 * safe; one already taken gets `-2`, `-3`. The base is HEAD unless the person named a commit
 * or branch, resolved first: a bad base is refused before anything is made.
 */
import { PlaceError } from './place-error.js';
import type { PersonGit } from './person-git.js';

export const BRANCH_PREFIX = 'gatehouse/';
const SLUG_MAX = 48;
const TRIES = 100;

/** Whether `origin` is the root of a git work tree with a first commit: a worktree can be made from it. */
export async function isRepositoryRoot(git: PersonGit, realOrigin: string): Promise<boolean> {
  const top = await git
    .text({ what: 'find the repository root', args: ['rev-parse', '--show-toplevel'] })
    .catch(() => null);
  if (top !== realOrigin) return false;
  const { code } = await git.run({
    what: 'find the first commit',
    args: ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'],
    okCodes: [1, 128],
  });
  return code === 0;
}

/** The commit `base` names (HEAD when absent), or a PlaceError that says so. */
export async function resolveBase(git: PersonGit, base: string | undefined): Promise<string> {
  const name = base ?? 'HEAD';
  const { code, stdout } = await git.run({
    what: 'resolve the base',
    args: ['rev-parse', '--verify', '--quiet', '--end-of-options', `${name}^{commit}`],
    okCodes: [1, 128],
  });
  const id = stdout.toString('utf8').trim();
  if (code !== 0 || !/^[0-9a-f]{40,64}$/.test(id)) {
    throw new PlaceError(`the base ${JSON.stringify(name)} names no commit of the repository`);
  }
  return id;
}

/** A branch name part from a title: lower case letters, digits and dashes. */
export function slugOf(title: string): string {
  const slug = title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return slug || 'session';
}

/** `gatehouse/<slug>`, or with `-2`, `-3` when taken. */
export async function freeBranch(git: PersonGit, slug: string): Promise<string> {
  for (let n = 1; n <= TRIES; n++) {
    const branch = `${BRANCH_PREFIX}${slug}${n === 1 ? '' : `-${n}`}`;
    const { code } = await git.run({
      what: 'look for a branch',
      args: ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`],
      okCodes: [1],
    });
    if (code === 1) return branch;
  }
  throw new PlaceError(`no free branch name for ${BRANCH_PREFIX}${slug}`);
}

export async function addWorktree(git: PersonGit, dir: string, branch: string, base: string): Promise<void> {
  await git.run({
    what: 'make the worktree',
    args: ['worktree', 'add', '--quiet', '--no-track', '-b', branch, '--', dir, base],
  });
}

/** The commands that remove a worktree place, as Discard runs them (and its card shows them). */
export function discardArgs(dir: string, branch: string, keepBranch: boolean): string[][] {
  return [['worktree', 'remove', '--force', '--', dir], ...(keepBranch ? [] : [['branch', '-D', '--', branch]])];
}
