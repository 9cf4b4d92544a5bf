/**
 * For the shadow repository's tests: a workspace and a data folder under /var/tmp (a real
 * disk, where modes and links behave), a store opened on them with the system git, and
 * the person's own git run the way the person would, without touching our isolation.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { findGit } from '../../../../../electron/core/checkpoints/find-git.js';
import {
  openCheckpointStore,
  type ShadowCheckpointStore,
} from '../../../../../electron/core/checkpoints/shadow-repo.js';
import { StoresState } from '../../../../../electron/core/checkpoints/stores-state.js';

export interface Fixture {
  root: string;
  ws: string;
  storeDir: string;
  git: string;
  stores: ShadowCheckpointStore[];
  /** What every store the fixture opens shares, as through one WorkspaceStores. */
  state: StoresState;
}

export async function makeFixture(): Promise<Fixture> {
  const git = await findGit();
  if (!git.ok) throw new Error(`these tests need git: ${git.reason}`);
  const root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-shadow-'));
  const ws = path.join(root, 'ws');
  await fs.mkdir(ws);
  return {
    root,
    ws,
    storeDir: path.join(root, 'data', 'checkpoints', 'store'),
    git: git.git,
    stores: [],
    state: new StoresState(),
  };
}

export async function open(f: Fixture, indexName = 'session-1'): Promise<ShadowCheckpointStore> {
  const store = await openCheckpointStore({
    storeDir: f.storeDir,
    workspaceRoot: f.ws,
    indexName,
    git: f.git,
    state: f.state,
  });
  f.stores.push(store);
  return store;
}

export async function disposeFixture(f: Fixture | undefined): Promise<void> {
  if (!f) return;
  await Promise.all(f.stores.map((s) => s.idle()));
  await f.state.dispose();
  await fs.rm(f.root, { recursive: true, force: true });
}

/** Writes files (text, or {text, mode}) and links ({link}) under root, making folders. */
export async function writeTree(
  root: string,
  files: Record<string, string | { text: string; mode?: number } | { link: string }>,
): Promise<void> {
  for (const [rel, spec] of Object.entries(files)) {
    const full = path.join(root, rel);
    await fs.mkdir(path.dirname(full), { recursive: true });
    if (typeof spec === 'string') await fs.writeFile(full, spec);
    else if ('link' in spec) await fs.symlink(spec.link, full);
    else {
      await fs.writeFile(full, spec.text);
      if (spec.mode !== undefined) await fs.chmod(full, spec.mode);
    }
  }
}

/** The person's git in the workspace, with their identity and without refreshing their index. */
export function personsGit(ws: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd: ws,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: ws,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_AUTHOR_NAME: 'Person',
      GIT_AUTHOR_EMAIL: 'person@example.com',
      GIT_COMMITTER_NAME: 'Person',
      GIT_COMMITTER_EMAIL: 'person@example.com',
    },
  });
}

/** A file of `bytes` bytes that takes no disk (a hole), quick to make at 50 MiB. */
export async function sparseFile(file: string, bytes: number): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const handle = await fs.open(file, 'w');
  await handle.truncate(bytes);
  await handle.close();
}
