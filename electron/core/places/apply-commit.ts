/**
 * Apply as a commit (SPEC §15): after the files are written, one commit on the person's
 * branch, made with plumbing through the door (PersonGit: no hook, no filter, no signing):
 * a temporary index read from the branch's HEAD, the applied files hashed as they are
 * (`--no-filters`), the tree written, the commit made on HEAD, and the branch moved with
 * `update-ref <new> <old>`, which fails if the branch moved meanwhile. The applied paths
 * are then set in the person's own index, so `git status` shows them clean.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { PersonGit } from './person-git.js';
import { PlaceError } from './place-error.js';

export interface CommitFile {
  path: string;
  /** Absolute path of the bytes to commit (the place's file), or null for a deletion. */
  source: string | null;
  executable: boolean;
}

export interface CommitPlan {
  branch: string;
  message: string;
  /** Where the temporary index goes (the app's data folder, never the person's `.git`). */
  scratchDir: string;
  author: { name: string; email: string };
}

/** The person's branch (`refs/heads/<name>`'s name), or null on a detached HEAD. */
export async function currentBranch(git: PersonGit): Promise<string | null> {
  const { code, stdout } = await git.run({
    what: 'read the current branch',
    args: ['symbolic-ref', '--quiet', 'HEAD'],
    okCodes: [1, 128],
  });
  const ref = stdout.toString('utf8').trim();
  return code === 0 && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}

/** The commands a commit runs, for its card: in order, with `<…>` for what each one answers. */
export function commitArgv(branch: string): string[][] {
  return [
    ['read-tree', '<HEAD>'],
    ['hash-object', '-w', '--no-filters', '--stdin-paths'],
    ['update-index', '-z', '--index-info'],
    ['write-tree'],
    ['commit-tree', '--no-gpg-sign', '<tree>', '-p', '<HEAD>', '-m', '<message>'],
    ['update-ref', `refs/heads/${branch}`, '<commit>', '<HEAD>'],
    ['update-index', '-z', '--index-info'],
  ];
}

export async function commitFiles(git: PersonGit, plan: CommitPlan, files: readonly CommitFile[]): Promise<string> {
  if ((await currentBranch(git)) !== plan.branch) {
    throw new PlaceError(`your folder is no longer on ${plan.branch}: no commit was made`);
  }
  const head = await git.text({ what: 'read HEAD', args: ['rev-parse', '--verify', 'HEAD^{commit}'] });
  const index = path.join(plan.scratchDir, `commit-index-${randomBytes(6).toString('hex')}`);
  const env = { GIT_INDEX_FILE: index };
  try {
    await git.run({ what: 'read the branch into a scratch index', args: ['read-tree', head], env });
    const info = await indexInfo(git, files);
    await git.run({ what: 'stage the applied files', args: ['update-index', '-z', '--index-info'], input: info, env });
    const tree = await git.text({ what: 'write the tree', args: ['write-tree'], env });
    const commit = await git.text({
      what: 'make the commit',
      args: ['commit-tree', '--no-gpg-sign', tree, '-p', head, '-m', plan.message],
      env: {
        GIT_AUTHOR_NAME: plan.author.name,
        GIT_AUTHOR_EMAIL: plan.author.email,
        GIT_COMMITTER_NAME: plan.author.name,
        GIT_COMMITTER_EMAIL: plan.author.email,
      },
    });
    await git.run({
      what: 'move the branch',
      args: ['update-ref', '-m', 'gatehouse: apply a session', `refs/heads/${plan.branch}`, commit, head],
    });
    // The person's index: the same entries, so the files read as committed (zero stat data:
    // their next status hashes them once and finds them clean).
    await git
      .run({ what: "update your folder's index", args: ['update-index', '-z', '--index-info'], input: info })
      .catch(() => undefined);
    return commit;
  } finally {
    await rm(index, { force: true });
    await rm(`${index}.lock`, { force: true });
  }
}

/** `update-index --index-info -z` lines: "<mode> <id>\t<path>\0", mode 0 removing a path. */
async function indexInfo(git: PersonGit, files: readonly CommitFile[]): Promise<string> {
  const written = files.filter((f) => f.source !== null);
  if (written.some((f) => f.source!.includes('\n')))
    throw new PlaceError('a file name with a line break cannot be committed');
  const ids = written.length
    ? (
        await git.text({
          what: 'store the applied files',
          args: ['hash-object', '-w', '--no-filters', '--stdin-paths'],
          input: written.map((f) => `${f.source}\n`).join(''),
        })
      ).split('\n')
    : [];
  const zero = '0'.repeat(ids[0]?.length ?? 40);
  let n = 0;
  return files
    .map((f) =>
      f.source === null ? `0 ${zero}\t${f.path}\0` : `${f.executable ? '100755' : '100644'} ${ids[n++]}\t${f.path}\0`,
    )
    .join('');
}
