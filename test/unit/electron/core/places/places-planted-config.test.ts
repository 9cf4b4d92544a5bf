/**
 * A repository whose config names programs (filter drivers, an fsmonitor, hooks) that
 * would run as the person on checkout, status or commit: making a place from it, reviewing,
 * applying (as files and as a commit) and discarding run none of them.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { git, makeRepo, startPlaces, writeFiles, type Fixture } from './place-fixture.js';

let fx: Fixture;
let repo: string;
let markers: string;

beforeEach(async () => {
  fx = await startPlaces();
  markers = path.join(fx.root, 'markers');
  await fs.mkdir(markers);
  repo = await makeRepo(path.join(fx.root, 'proj'), {
    '.gitattributes': '* filter=x\n',
    'a.txt': 'one\n',
    'big.bin': 'version https://git-lfs.github.com/spec/v1\noid sha256:0\nsize 1\n',
  });
  const touch = (name: string) => `sh -c 'touch ${markers}/${name}; cat'`;
  git(repo, 'config', 'filter.x.smudge', touch('smudge'));
  git(repo, 'config', 'filter.x.clean', touch('clean'));
  git(repo, 'config', 'filter.x.process', touch('process'));
  git(repo, 'config', 'filter.x.required', 'true');
  git(repo, 'config', 'filter.lfs.smudge', touch('lfs'));
  git(repo, 'config', 'core.fsmonitor', `${markers}/../fsmonitor.sh`);
  await fs.writeFile(path.join(fx.root, 'fsmonitor.sh'), `#!/bin/sh\ntouch ${markers}/fsmonitor\n`, { mode: 0o755 });
  const hooks = path.join(repo, '.git', 'hooks');
  for (const hook of [
    'post-checkout',
    'pre-commit',
    'post-commit',
    'reference-transaction',
    'post-index-change',
    'pre-auto-gc',
  ]) {
    await fs.writeFile(path.join(hooks, hook), `#!/bin/sh\ntouch ${markers}/${hook}\n`, { mode: 0o755 });
  }
  git(repo, 'config', 'core.hooksPath', hooks);
  git(repo, 'config', 'commit.gpgSign', 'true');
  git(repo, 'config', 'gpg.program', `${markers}/../fsmonitor.sh`);
});
afterEach(() => fx.close());

it('makes, reviews, applies as files and as a commit, and discards without running any of them', async () => {
  const place = await fx.places.make('s1', repo, { title: 'planted' });
  expect(place.kind).toBe('worktree');
  // The filter did not run on checkout: the bytes are the blob's.
  expect(await fs.readFile(path.join(place.path, 'a.txt'), 'utf8')).toBe('one\n');
  await writeFiles(place.path, { 'a.txt': 'two\n', 'b.txt': 'bee\n' });
  const review = await fx.places.review('s1', place, place.baseSnapshot);
  expect(review.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
  const request = { reviewId: review.reviewId, as: 'commit' as const, paths: ['a.txt'] };
  const outcome = await fx.places.apply('s1', place, request, fx.places.planApply('s1', place, request));
  expect(outcome.failed).toEqual([]);
  expect(outcome.commit).toBeDefined();
  const second = await fx.places.review('s1', place, place.baseSnapshot);
  const files = { reviewId: second.reviewId, as: 'files' as const, paths: ['b.txt'] };
  expect((await fx.places.apply('s1', place, files, fx.places.planApply('s1', place, files))).applied).toEqual([
    'b.txt',
  ]);
  await fx.places.discard(place, false);
  expect(await fs.readdir(markers)).toEqual([]);
});
