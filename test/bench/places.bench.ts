/**
 * Sessions in a place of their own (electron/core/places/) on a repository of 20k small
 * text files in nested folders:
 *
 * (a) opening a worktree place (the worktree, its record, its base snapshot) against
 *     `git worktree add` alone on the same repository; target <= 1.3x;
 * (b) applying 100 changed files as files (review not counted: the person reads it first)
 *     against `git apply` of the same change as one diff; target <= 1.5x;
 * (c) the disk a worktree place takes against the repository's checkout (its files, not .git).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { WorkspaceStores } from '../../electron/core/checkpoints/workspace-stores.js';
import { Places } from '../../electron/core/places/places.js';
import { diskBytes } from '../../electron/core/places/place-size.js';
import { NoSandbox } from '../../electron/core/sandbox/no-sandbox.js';
import { reportRatio } from './measure.js';

const FILES = 20_000;
const CHANGED = 100;
const ROUNDS = 5;
/**
 * Rounds of (b): each side is a few milliseconds of file system calls, which a busy shared
 * machine stretches by as much; more rounds let the best of each side show through.
 */
const APPLY_ROUNDS = 11;

const root = mkdtempSync('/var/tmp/gatehouse-places-bench-');
const repo = path.join(root, 'repo');
const dataDir = path.join(root, 'data');
const stores = new WorkspaceStores({ dataDir, limitBytes: () => 1e12, sandbox: new NoSandbox('bench') });
const places = new Places({
  dataDir,
  git: () => stores.availability(),
  store: async (id, dir) => {
    const store = await stores.access(id, dir).open();
    if (!('snapshot' in store)) throw new Error(store.unavailable);
    return store;
  },
});

try {
  const built = performance.now();
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(repo, `d${i % 40}`, `e${i % 13}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `f${i}.ts`), `export const value${i} = ${i};\n// line two of ${i}\n`);
  }
  await git(repo, ['init', '-q', '-b', 'main']);
  await git(repo, ['add', '-A']);
  await git(repo, ['commit', '-q', '-m', 'base']);
  console.log(`repository: ${FILES} files, built in ${((performance.now() - built) / 1000).toFixed(1)} s`);

  // (a) opening: ours against git worktree add alone, alternating, best of ROUNDS each.
  const ours: number[] = [];
  const reference: number[] = [];
  const based: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const dir = path.join(root, `plain-${r}`);
    let t0 = performance.now();
    await git(repo, ['worktree', 'add', '-q', '--no-track', '-b', `plain-${r}`, dir, 'HEAD']);
    reference.push(performance.now() - t0);
    t0 = performance.now();
    const made = await places.make(`s${r}`, repo, { title: `bench ${r}` });
    ours.push(performance.now() - t0);
    t0 = performance.now();
    await places.snapshotBase(`s${r}`, made);
    based.push(performance.now() - t0);
  }
  reportRatio('(a) open a worktree place vs git worktree add', Math.min(...ours), Math.min(...reference), 1.3);
  console.log(
    `    then its base snapshot, taken while the person writes the first message (the first turn waits for it): ${Math.min(...based).toFixed(0)} ms`,
  );

  // (b) apply 100 changed files vs git apply of the same diff: each round from the base, best of APPLY_ROUNDS.
  const place = await places.snapshotBase('apply', await places.make('apply', repo, { title: 'apply' }));
  const changed = Array.from({ length: CHANGED }, (_, i) => `d${i % 40}/e${i % 13}/f${i}.ts`);
  const applyOurs: number[] = [];
  const applyGit: number[] = [];
  for (let r = 0; r < APPLY_ROUNDS; r++) {
    await git(repo, ['checkout', '-q', '--', '.']);
    for (const rel of changed) writeFileSync(path.join(place.path, rel), `export const value = 'round ${r} ${rel}';\n`);
    const review = await places.review('apply', place, place.baseSnapshot);
    const request = { reviewId: review.reviewId, as: 'files' as const };
    const plan = places.planApply('apply', place, request);
    let t0 = performance.now();
    const outcome = await places.apply('apply', place, request, plan);
    applyOurs.push(performance.now() - t0);
    if (outcome.applied.length !== CHANGED) throw new Error(`applied ${outcome.applied.length} of ${CHANGED}`);
    await git(repo, ['checkout', '-q', '--', '.']);
    writeFileSync(path.join(root, 'change.diff'), await git(place.path, ['diff', '--no-color', '--no-ext-diff']));
    t0 = performance.now();
    await git(repo, ['apply', path.join(root, 'change.diff')]);
    applyGit.push(performance.now() - t0);
  }
  reportRatio(`(b) apply ${CHANGED} files vs git apply`, Math.min(...applyOurs), Math.min(...applyGit), 1.5);

  // (c) disk: the place (its files and the worktree's .git file) against the checkout.
  const placeBytes = await diskBytes(path.join(dataDir, 'places', 's0'));
  const checkout = (await diskBytes(repo)) - (await diskBytes(path.join(repo, '.git')));
  console.log(
    `(c) disk of a worktree place: ${(placeBytes / 1e6).toFixed(1)} MB, the checkout ${(checkout / 1e6).toFixed(1)} MB, ratio ${(placeBytes / checkout).toFixed(2)}x`,
  );
} finally {
  await stores.dispose();
  rmSync(root, { recursive: true, force: true });
}

function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'git',
      args,
      {
        cwd,
        maxBuffer: 256 * 1024 * 1024,
        env: {
          PATH: process.env.PATH,
          HOME: '/nonexistent',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          GIT_AUTHOR_NAME: 'b',
          GIT_AUTHOR_EMAIL: 'b@b',
          GIT_COMMITTER_NAME: 'b',
          GIT_COMMITTER_EMAIL: 'b@b',
        },
      },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    ),
  );
}
