/**
 * Where a workspace's checkpoint store keeps things, inside the app's data folder:
 *
 *   <dataDir>/checkpoints/<sha256 of the workspace's real path>/
 *     repo/                      git's object store and the snapshot refs (the common dir)
 *       info/attributes          outranks the workspace's .gitattributes (shadow-git-env.ts)
 *       worktrees/<session>/     one per index user: HEAD (its last snapshot), index, commondir, gitdir
 *     tmp/                       restore's temporary indexes
 *
 * Each session is a git "linked worktree" of the shadow repo: its own index (no two
 * sessions fight over index.lock) and its own HEAD (so `git status` answers what changed
 * since its last snapshot), and git's own housekeeping counts every session's HEAD and index
 * as reachable, so a prune never drops an object an index still names.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runGit } from './git-run.js';
import { SHADOW_ATTRIBUTES, shadowEnv } from './shadow-git-env.js';

const INIT_TIMEOUT_MS = 60_000;
/** What a worktree's HEAD holds before its first snapshot: a branch that never exists. */
const UNBORN_HEAD = 'ref: refs/heads/gatehouse-unborn\n';

/** The store folder of a workspace: its real path hashed, so a moved link still finds its store. */
export function storeDirFor(dataDir: string, workspaceRoot: string): string {
  let real: string;
  try {
    real = realpathSync.native(workspaceRoot);
  } catch {
    real = path.resolve(workspaceRoot);
  }
  return path.join(dataDir, 'checkpoints', createHash('sha256').update(real).digest('hex').slice(0, 32));
}

export class StoreLayout {
  readonly repo: string;
  readonly tmp: string;

  constructor(readonly storeDir: string) {
    this.repo = path.join(storeDir, 'repo');
    this.tmp = path.join(storeDir, 'tmp');
  }

  worktree(name: string): string {
    return path.join(this.repo, 'worktrees', name);
  }

  worktreesDir(): string {
    return path.join(this.repo, 'worktrees');
  }

  /** A fresh temporary file name in tmp/ (restore's index). */
  tempFile(prefix: string): string {
    return path.join(this.tmp, `${prefix}-${process.pid}-${randomBytes(6).toString('hex')}`);
  }
}

/** A session's name as a folder name: kept when plain, hashed otherwise. */
export function worktreeName(indexName: string): string {
  if (/^[A-Za-z0-9_-]{1,64}$/.test(indexName)) return indexName;
  return `h${createHash('sha256').update(indexName).digest('hex').slice(0, 32)}`;
}

/**
 * Makes the shadow repository if it is not there. Built aside and renamed into place, so
 * a crash mid-way leaves no half repository, and two openers racing both end with one.
 */
export async function ensureRepo(layout: StoreLayout, git: string): Promise<void> {
  await mkdir(layout.tmp, { recursive: true });
  if (existsSync(path.join(layout.repo, 'HEAD'))) return ensureAttributes(layout.repo);
  const aside = `${layout.repo}.init-${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    await runGit({
      what: 'create the checkpoint store',
      git,
      args: ['-c', 'init.defaultBranch=gatehouse-unborn', 'init', '--quiet', '--bare', '--template=', aside],
      env: withoutGitDir(shadowEnv({ gitDir: aside, home: layout.storeDir })),
      cwd: layout.storeDir,
      timeoutMs: INIT_TIMEOUT_MS,
    });
    await ensureAttributes(aside);
    await rename(aside, layout.repo);
  } catch (err) {
    if (!existsSync(path.join(layout.repo, 'HEAD'))) throw err;
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
}

/** `git init` is told the folder on its command line; GIT_DIR would make it init another. */
function withoutGitDir(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { GIT_DIR: _dir, ...rest } = env;
  return rest;
}

async function ensureAttributes(repo: string): Promise<void> {
  const file = path.join(repo, 'info', 'attributes');
  if ((await readFile(file, 'utf8').catch(() => null)) === SHADOW_ATTRIBUTES) return;
  await mkdir(path.dirname(file), { recursive: true });
  await writeAtomically(file, SHADOW_ATTRIBUTES);
}

/**
 * Makes a session's worktree dir if missing. HEAD is written last: a dir with HEAD is
 * whole. `gitdir` points inside the store, never at the person's `.git`: git only reads it
 * to list worktrees.
 */
export async function ensureWorktree(layout: StoreLayout, name: string): Promise<string> {
  const dir = layout.worktree(name);
  if (existsSync(path.join(dir, 'HEAD'))) return dir;
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'commondir'), '../..\n');
  await writeFile(path.join(dir, 'gitdir'), `${path.join(dir, '.git')}\n`);
  await writeAtomically(path.join(dir, 'HEAD'), UNBORN_HEAD);
  return dir;
}

export async function writeAtomically(file: string, text: string): Promise<void> {
  const aside = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(aside, text);
  await rename(aside, file);
}
