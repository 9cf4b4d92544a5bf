import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MadePlace } from '../../../../../electron/core/places/places.js';
import { git, makeRepo, startPlaces, writeFiles, type Fixture } from './place-fixture.js';

let fx: Fixture;
let repo: string;

beforeEach(async () => {
  fx = await startPlaces();
  repo = await makeRepo(path.join(fx.root, 'proj'), {
    'a.txt': 'one\ntwo\nthree\n',
    'src/b.txt': 'bee\n',
    'bin.sh': '#!/bin/sh\n',
  });
  await fs.chmod(path.join(repo, 'bin.sh'), 0o755);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'exec');
});
afterEach(() => fx.close());

const make = (id = 's1', title = 'Fix the thing') => fx.places.make(id, repo, { title });

describe('a worktree place', () => {
  it('is a worktree on gatehouse/<title> in the data folder, at HEAD, the person’s folder untouched', async () => {
    const status = git(repo, 'status', '--porcelain');
    const place = await make();
    expect(place.kind).toBe('worktree');
    expect(place.branch).toBe('gatehouse/fix-the-thing');
    expect(place.path).toBe(path.join(fx.dataDir, 'places', 's1', 'proj'));
    expect(place.baseCommit).toBe(git(repo, 'rev-parse', 'HEAD').trim());
    expect(await fs.readFile(path.join(place.path, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(git(repo, 'status', '--porcelain')).toBe(status);
    // A second session of the same title gets the next free name.
    expect((await make('s2')).branch).toBe('gatehouse/fix-the-thing-2');
  });

  it('starts from the base the person names, and a bad base makes nothing', async () => {
    const first = git(repo, 'rev-parse', 'HEAD~1').trim();
    const place = await fx.places.make('s1', repo, { title: 't', base: first });
    expect(place.baseCommit).toBe(first);
    await expect(fx.places.make('s2', repo, { title: 't', base: 'no-such-branch' })).rejects.toThrow(/names no commit/);
    await expect(fs.stat(path.join(fx.dataDir, 'places', 's2'))).rejects.toThrow();
    expect(git(repo, 'branch', '--list', 'gatehouse/*').trim().split('\n')).toHaveLength(1);
  });

  it('reviews its whole change against the base and applies it as files', async () => {
    const place = await make();
    await writeFiles(place.path, { 'a.txt': 'one\nTWO\nthree\n', 'new/c.txt': 'sea\n' });
    await fs.rm(path.join(place.path, 'src/b.txt'));
    const review = await fx.places.review('s1', place, place.baseSnapshot);
    expect(review.files.map((f) => [f.path, f.change, f.status])).toEqual([
      ['a.txt', 'modified', 'ready'],
      ['new/c.txt', 'added', 'ready'],
      ['src/b.txt', 'deleted', 'ready'],
    ]);
    expect(review.files[0]!.diff).toContain('+TWO');
    expect(review.commit).toMatchObject({ branch: 'main' });
    const plan = fx.places.planApply('s1', place, { reviewId: review.reviewId, as: 'files' });
    const outcome = await fx.places.apply('s1', place, { reviewId: review.reviewId, as: 'files' }, plan);
    expect(outcome).toEqual({ applied: ['a.txt', 'new/c.txt', 'src/b.txt'], conflicts: [], failed: [] });
    expect(git(repo, 'status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([
      ' D src/b.txt',
      ' M a.txt',
      '?? new/',
    ]);
    expect(await fs.readFile(path.join(repo, 'new/c.txt'), 'utf8')).toBe('sea\n');
    // Reviewed again, every file reads as applied.
    const again = await fx.places.review('s1', place, place.baseSnapshot);
    expect(again.files.map((f) => f.status)).toEqual(['applied', 'applied', 'applied']);
  });

  it('keeps the mode of the person’s file, and gives a new file the place’s', async () => {
    const place = await make();
    await writeFiles(place.path, { 'bin.sh': '#!/bin/sh\necho hi\n', 'run.sh': '#!/bin/sh\n' });
    await fs.chmod(path.join(place.path, 'run.sh'), 0o755);
    await applyAll(place, 'files');
    expect((await fs.stat(path.join(repo, 'bin.sh'))).mode & 0o777).toBe(0o755);
    expect((await fs.stat(path.join(repo, 'run.sh'))).mode & 0o777).toBe(0o755);
  });

  it('shows a file the person changed since as a conflict with their side and a merge, and never overwrites it', async () => {
    const place = await make();
    await writeFiles(place.path, { 'a.txt': 'one\nSESSION\nthree\n' });
    await writeFiles(repo, { 'a.txt': 'one\nPERSON\nthree\n' });
    const review = await fx.places.review('s1', place, place.baseSnapshot);
    const [file] = review.files;
    expect(file).toMatchObject({ path: 'a.txt', status: 'conflict' });
    expect(file!.theirsDiff).toContain('+PERSON');
    expect(file!.merged).toMatch(
      /<<<<<<< your folder\nPERSON\n\|\|\|\|\|\|\| base\ntwo\n=======\nSESSION\n>>>>>>> this session/,
    );
    const outcome = await applyAll(place, 'files', review.reviewId);
    expect(outcome).toMatchObject({ applied: [], conflicts: ['a.txt'] });
    expect(await fs.readFile(path.join(repo, 'a.txt'), 'utf8')).toBe('one\nPERSON\nthree\n');
  });

  it('leaves a file the person changed between the review and the apply', async () => {
    const place = await make();
    await writeFiles(place.path, { 'a.txt': 'session\n' });
    const review = await fx.places.review('s1', place, place.baseSnapshot);
    expect(review.files[0]!.status).toBe('ready');
    await writeFiles(repo, { 'a.txt': 'person, meanwhile\n' });
    const outcome = await applyAll(place, 'files', review.reviewId);
    expect(outcome.conflicts).toEqual(['a.txt']);
    expect(await fs.readFile(path.join(repo, 'a.txt'), 'utf8')).toBe('person, meanwhile\n');
  });

  it('refuses to write through a link swapped in for a folder of the person’s', async () => {
    const place = await make();
    await writeFiles(place.path, { 'src/b.txt': 'changed\n' });
    const review = await fx.places.review('s1', place, place.baseSnapshot);
    const elsewhere = path.join(fx.root, 'elsewhere');
    await fs.mkdir(elsewhere);
    await fs.writeFile(path.join(elsewhere, 'b.txt'), 'bee\n');
    await fs.rm(path.join(repo, 'src'), { recursive: true });
    await fs.symlink(elsewhere, path.join(repo, 'src'));
    const outcome = await applyAll(place, 'files', review.reviewId);
    expect(outcome.applied).toEqual([]);
    expect(outcome.conflicts).toEqual(['src/b.txt']);
    expect(await fs.readFile(path.join(elsewhere, 'b.txt'), 'utf8')).toBe('bee\n');
  });

  it('applies as one commit on the person’s branch, their index clean for those files', async () => {
    const place = await make();
    await writeFiles(place.path, { 'a.txt': 'committed\n', 'new.txt': 'new\n' });
    await fs.rm(path.join(place.path, 'src/b.txt'));
    const before = git(repo, 'rev-parse', 'HEAD').trim();
    const outcome = await applyAll(place, 'commit', undefined, 'Apply: the thing');
    expect(outcome.failed).toEqual([]);
    expect(outcome.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(repo, 'rev-parse', 'HEAD').trim()).toBe(outcome.commit);
    expect(git(repo, 'rev-parse', 'HEAD~1').trim()).toBe(before);
    expect(git(repo, 'log', '-1', '--format=%s|%an')).toBe('Apply: the thing|Gatehouse\n');
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(git(repo, 'show', 'HEAD:a.txt')).toBe('committed\n');
  });

  it('discards the worktree and its branch, or keeps the branch when asked', async () => {
    const place = await make();
    const gone = await fx.places.discard(place, false);
    expect(gone.state).toBe('discarded');
    await expect(fs.stat(path.join(fx.dataDir, 'places', 's1'))).rejects.toThrow();
    expect(git(repo, 'branch', '--list', 'gatehouse/*')).toBe('');
    expect(git(repo, 'worktree', 'list', '--porcelain')).not.toContain(fx.dataDir);
    const kept = await make('s2', 'keep me');
    await fx.places.discard(kept, true);
    expect(git(repo, 'branch', '--list', 'gatehouse/*').trim()).toBe('gatehouse/keep-me');
  });

  it('refuses bad input with words and changes nothing', async () => {
    const place = await make();
    await writeFiles(place.path, { 'a.txt': 'x\n' });
    const review = await fx.places.review('s1', place, place.baseSnapshot);
    expect(() => fx.places.planApply('s1', place, { reviewId: 'nope', as: 'files' })).toThrow(/no review "nope"/);
    expect(() => fx.places.planApply('s2', place, { reviewId: review.reviewId, as: 'files' })).toThrow(/no review/);
    expect(() =>
      fx.places.planApply('s1', place, { reviewId: review.reviewId, as: 'files', paths: ['src/b.txt'] }),
    ).toThrow(/not in the review: "src\/b.txt"/);
    expect(() =>
      fx.places.planApply('s1', { ...place, state: 'discarded' }, { reviewId: review.reviewId, as: 'files' }),
    ).toThrow(/discarded/);
    expect(await fs.readFile(path.join(repo, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });
});

async function applyAll(place: MadePlace, as: 'files' | 'commit', reviewId?: string, message?: string) {
  const id = reviewId ?? (await fx.places.review('s1', place, place.baseSnapshot)).reviewId;
  const request = { reviewId: id, as, ...(message ? { message } : {}) };
  const plan = fx.places.planApply('s1', place, request);
  return fx.places.apply('s1', place, request, plan);
}
