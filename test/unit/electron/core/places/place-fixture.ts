/**
 * A person's repository (or plain folder) and a Places room over a temp data folder, with
 * the real git and the real checkpoint stores, under /var/tmp (a confined process sees it
 * when a test shows it; the host's /tmp is private to one).
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { WorkspaceStores } from '../../../../../electron/core/checkpoints/workspace-stores.js';
import { NoSandbox } from '../../../../../electron/core/sandbox/no-sandbox.js';
import { Places, type PlacesDeps } from '../../../../../electron/core/places/places.js';

export const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Person',
  GIT_AUTHOR_EMAIL: 'person@example.invalid',
  GIT_COMMITTER_NAME: 'Person',
  GIT_COMMITTER_EMAIL: 'person@example.invalid',
  LC_ALL: 'C',
};

/** The person's own git, as they would run it (their config applies: for the fixture only). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

export interface Fixture {
  root: string;
  dataDir: string;
  stores: WorkspaceStores;
  places: Places;
  close(): Promise<void>;
}

export async function startPlaces(extra: Partial<PlacesDeps> = {}): Promise<Fixture> {
  const root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-places-'));
  const dataDir = path.join(root, 'data');
  await fs.mkdir(dataDir);
  const stores = new WorkspaceStores({
    dataDir,
    limitBytes: () => 1e12,
    sandbox: new NoSandbox('not needed by this test'),
  });
  const places = new Places({
    dataDir,
    git: () => stores.availability(),
    store: async (id, dir) => {
      const store = await stores.access(id, dir).open();
      if (!('snapshot' in store)) throw new Error(store.unavailable);
      return store;
    },
    ...extra,
  });
  return {
    root,
    dataDir,
    stores,
    places,
    close: async () => {
      await stores.dispose();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

/** A repository on `main` with `files` committed. */
export async function makeRepo(dir: string, files: Record<string, string>): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  await writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  return dir;
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  }
}

/** `.git` as a listing of paths and contents, leaving out what a place may add (its worktree admin, its branch, logs). */
export async function gitListing(
  repo: string,
  ignore: (rel: string) => boolean = () => false,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string) => {
    for (const e of await fs.readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      const rel = path.relative(path.join(repo, '.git'), p);
      if (ignore(rel)) continue;
      if (e.isDirectory()) await walk(p);
      else out.set(rel, (await fs.readFile(p)).toString('base64'));
    }
  };
  await walk(path.join(repo, '.git'));
  return out;
}
