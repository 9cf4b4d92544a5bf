/**
 * The places calls through the contract: five sessions in worktrees of one repository apply
 * back at once; a session's place is its workspace and no other place of the data folder is;
 * bad requests are refused in words and change nothing; a discarded place leaves a session
 * that can only be read.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { PlaceReview } from '../../../../../shared/places.js';
import { startHarness, type Harness } from '../core-harness.js';
import { git, writeFiles } from './place-fixture.js';

let h: Harness;
let repo: string;
beforeEach(async () => {
  h = await startHarness(undefined, { base: '/var/tmp' });
  repo = h.workspace;
  git(repo, 'init', '-q', '-b', 'main');
  await writeFiles(repo, Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`part-${i}.txt`, `part ${i}\n`])));
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
});
afterEach(() => h.close());

const openPlace = async (title: string) => h.call('sessions.open', { workspace: repo, title, place: {} });

it('five sessions in worktrees of one repository apply back cleanly, in parallel', async () => {
  const sessions = await Promise.all([0, 1, 2, 3, 4].map((i) => openPlace(`job ${i}`)));
  expect(new Set(sessions.map((s) => s.place!.path)).size).toBe(5);
  await Promise.all(
    sessions.map((s, i) =>
      writeFiles(s.place!.path, { [`part-${i}.txt`]: `part ${i}, done\n`, [`new-${i}.txt`]: `made by ${i}\n` }),
    ),
  );
  const replies = await Promise.all(
    sessions.map(async (s) => {
      const review = await h.call('session.review', { id: s.id });
      return h.call('session.apply', { id: s.id, reviewId: review.reviewId, as: 'files' });
    }),
  );
  for (const [i, reply] of replies.entries()) {
    expect(reply).toMatchObject({ applied: [`new-${i}.txt`, `part-${i}.txt`], conflicts: [], failed: [] });
  }
  const status = git(repo, 'status', '--porcelain').split('\n').filter(Boolean).sort();
  expect(status).toEqual(
    [...[0, 1, 2, 3, 4].map((i) => ` M part-${i}.txt`), ...[0, 1, 2, 3, 4].map((i) => `?? new-${i}.txt`)].sort(),
  );
  const listed = await h.call('places.list', {});
  expect(listed.places.map((p) => p.sessionId).sort()).toEqual(sessions.map((s) => s.id).sort());
});

it('refuses bad requests in words and changes nothing', async () => {
  const plain = await h.call('sessions.open', { workspace: repo });
  const placed = await openPlace('placed');
  await writeFiles(placed.place!.path, { 'part-0.txt': 'changed\n' });
  const review: PlaceReview = await h.call('session.review', { id: placed.id });
  const refused = async (name: string, payload: unknown, words: RegExp) => {
    const reply = await h.raw(name, payload);
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error).toMatch(words);
  };
  await refused('session.review', { id: plain.id }, /works in your folder: it has no place of its own/);
  await refused('session.apply', { id: plain.id, reviewId: review.reviewId, as: 'files' }, /no place of its own/);
  await refused('session.apply', { id: placed.id, reviewId: 'made-up', as: 'files' }, /no review "made-up"/);
  await refused(
    'session.apply',
    { id: placed.id, reviewId: review.reviewId, as: 'files', paths: ['part-1.txt'] },
    /not in the review: "part-1.txt"/,
  );
  await refused(
    'session.apply',
    { id: placed.id, reviewId: review.reviewId, as: 'files', paths: ['../x'] },
    /not in the review/,
  );
  await refused('places.remove', { path: placed.place!.path }, /is the place of a session/);
  await refused('places.remove', { path: repo }, /not a place in the data folder/);
  await refused('places.remove', { path: path.join(h.dataDir, 'sessions') }, /not a place in the data folder/);
  await refused('sessions.open', { workspace: repo, place: { base: 'nope' } }, /names no commit/);
  expect(git(repo, 'status', '--porcelain')).toBe('');
  expect(git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/gatehouse').trim()).toBe(
    'gatehouse/placed',
  );
  // Another session's place, or the places folder, is not a workspace: the data-folder rule holds.
  await refused('sessions.open', { workspace: placed.place!.path }, /inside the app's own data folder/);
  await refused('sessions.open', { workspace: path.join(h.dataDir, 'places') }, /inside the app's own data folder/);
});

it('discards a place: the session stays to be read, its branch and folder are gone, and nothing runs in it', async () => {
  const placed = await openPlace('to discard');
  const { place } = await h.call('session.discardPlace', { id: placed.id });
  expect(place.state).toBe('discarded');
  await expect(fs.stat(placed.place!.path)).rejects.toThrow();
  expect(git(repo, 'branch', '--list', 'gatehouse/*')).toBe('');
  const { summary } = await h.call('session.state', { id: placed.id });
  expect(summary.place?.state).toBe('discarded');
  const send = await h.raw('session.send', { id: placed.id, text: 'hello' });
  expect(send.ok).toBe(false);
  if (!send.ok) expect(send.error).toMatch(/its place was discarded/);
  await h.restart();
  expect((await h.call('session.place', { id: placed.id })).place?.state).toBe('discarded');
  const again = await h.raw('session.review', { id: placed.id });
  expect(again.ok).toBe(false);
});

it('an agent that cannot be held to the gate always gets a place', async () => {
  // Through the core: needsPlace reads the catalog, where Codex is not gated.
  const sessions = h.core.sessions;
  const codex = await sessions.create(repo, 'codex job', { id: 'codex', label: 'Codex', version: '0' });
  expect(codex.summary().place).toMatchObject({ kind: 'worktree', branch: 'gatehouse/codex-job' });
  const claude = await sessions.create(repo, 'claude job', { id: 'claude-code', label: 'Claude Code', version: '0' });
  expect(claude.summary().place).toBeUndefined();
});
