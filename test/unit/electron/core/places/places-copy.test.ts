import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startPlaces, writeFiles, type Fixture } from './place-fixture.js';

let fx: Fixture;
let folder: string;

beforeEach(async () => {
  fx = await startPlaces();
  folder = path.join(fx.root, 'notes');
  await writeFiles(folder, { 'a.md': 'alpha\n', 'deep/b.md': 'beta\n', 'gone.md': 'bye\n' });
  await fs.symlink('/etc/passwd', path.join(folder, 'link'));
});
afterEach(() => fx.close());

it('copies a folder that is not a repository, links as links, then reviews, applies and discards it', async () => {
  const place = await fx.places.make('s1', folder, { title: 'notes' });
  expect(place).toMatchObject({ kind: 'copy', origin: folder, path: path.join(fx.dataDir, 'places', 's1', 'notes') });
  expect(place.branch).toBeUndefined();
  expect(await fs.readlink(path.join(place.path, 'link'))).toBe('/etc/passwd');
  await writeFiles(place.path, { 'a.md': 'ALPHA\n', 'deep/c.md': 'gamma\n' });
  await fs.rm(path.join(place.path, 'gone.md'));
  const review = await fx.places.review('s1', place, place.baseSnapshot);
  expect(review.files.map((f) => [f.path, f.change, f.status])).toEqual([
    ['a.md', 'modified', 'ready'],
    ['deep/c.md', 'added', 'ready'],
    ['gone.md', 'deleted', 'ready'],
  ]);
  expect(review.commit).toEqual({ why: 'your folder is not a git repository' });
  expect(review.discard).toEqual({ removes: [place.path], argv: [] });
  const request = { reviewId: review.reviewId, as: 'commit' as const };
  expect(() => fx.places.planApply('s1', place, request)).toThrow(/not a git repository/);
  const files = { reviewId: review.reviewId, as: 'files' as const };
  const outcome = await fx.places.apply('s1', place, files, fx.places.planApply('s1', place, files));
  expect(outcome).toEqual({ applied: ['a.md', 'deep/c.md', 'gone.md'], conflicts: [], failed: [] });
  expect(await fs.readFile(path.join(folder, 'a.md'), 'utf8')).toBe('ALPHA\n');
  expect(await fs.readFile(path.join(folder, 'deep/c.md'), 'utf8')).toBe('gamma\n');
  await expect(fs.stat(path.join(folder, 'gone.md'))).rejects.toThrow();
  // Nothing else appeared in the person's folder (no temporary file left beside a write).
  expect((await fs.readdir(folder)).sort()).toEqual(['a.md', 'deep', 'link']);
  await fx.places.discard(place, false);
  await expect(fs.stat(place.path)).rejects.toThrow();
  expect(await fs.readFile(path.join(folder, 'a.md'), 'utf8')).toBe('ALPHA\n');
});

it('lists places with their size and whether their session is there, and removes only an orphan', async () => {
  const live = await fx.places.make('s1', folder, { title: 'live one' });
  const orphan = await fx.places.make('s2', folder, { title: 'orphan one' });
  const sessions = new Map([['s1', 'live one']]);
  const listed = await fx.places.list(sessions);
  expect(listed.map((p) => [p.path, p.kind, p.sessionId, p.title])).toEqual([
    [live.path, 'copy', 's1', 'live one'],
    [orphan.path, 'copy', null, 'orphan one'],
  ]);
  expect(listed[0]!.bytes).toBeGreaterThan(0);
  await expect(fx.places.remove(live.path, sessions)).rejects.toThrow(/is the place of a session/);
  await expect(fx.places.remove(folder, sessions)).rejects.toThrow(/is not a place in the data folder/);
  await expect(fx.places.remove(path.join(fx.dataDir, 'places', 's2'), sessions)).rejects.toThrow(/not a place/);
  await expect(fx.places.remove('/etc', sessions)).rejects.toThrow(/not a place/);
  expect(await fs.readdir(path.join(fx.dataDir, 'places'))).toEqual(['s1', 's2']);
  await fx.places.remove(orphan.path, sessions);
  expect(await fs.readdir(path.join(fx.dataDir, 'places'))).toEqual(['s1']);
  expect(await fs.readFile(path.join(folder, 'a.md'), 'utf8')).toBe('alpha\n');
});
