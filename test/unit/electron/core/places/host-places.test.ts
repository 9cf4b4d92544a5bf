/**
 * Sessions in a place of their own through the whole core (the contract, the real
 * bubblewrap, the real git): two sessions on one repository run commands at the same time,
 * each in its own worktree, neither seeing the other's changes nor the data folder around
 * its place; each applies back, one as files and one as a commit, and the person's folder
 * and `.git` change by exactly that.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../../shared/events.js';
import { scriptedDriver } from '../sessions/scripted-driver.js';
import { startHarness, type Harness } from '../core-harness.js';
import { git, gitListing, writeFiles } from './place-fixture.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * Both commands overlap (the sleep); each writes its own files, then says what it sees: its
 * place, and whether the data folder around it (`<dataDir>/places/<id>/<name>`, so three up) shows.
 */
const command = (name: string, file: string) => ({
  tool: 'run',
  args: {
    argv: [
      'sh',
      '-c',
      `echo ${name} > mine-${name}.txt && echo ${name} >> ${file} && sleep 1 && ls && (test -e ../../../sessions && echo DATA-SEEN || echo DATA-HIDDEN)`,
    ],
  },
});

it('two sessions work at once in worktrees of one repository and each applies back', async () => {
  const driver = scriptedDriver([[command('one', 'a.txt')], [command('two', 'b.txt')]]);
  h = await startHarness(undefined, { base: '/var/tmp', driver });
  const repo = h.workspace;
  git(repo, 'init', '-q', '-b', 'main');
  await writeFiles(repo, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'keep.txt': 'k\n' });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
  const refsBefore = git(repo, 'for-each-ref', '--format=%(refname) %(objectname)');
  const headBefore = git(repo, 'rev-parse', 'HEAD').trim();
  const ignoredInGit = (rel: string) =>
    rel.startsWith('worktrees') ||
    rel.startsWith('refs/heads/gatehouse') ||
    rel.startsWith('logs') ||
    rel.startsWith('objects');
  const dotGitBefore = await gitListing(repo, ignoredInGit);

  const one = await h.call('sessions.open', { workspace: repo, title: 'one', place: {} });
  const two = await h.call('sessions.open', { workspace: repo, title: 'two', place: {} });
  expect(one.place).toMatchObject({ kind: 'worktree', origin: repo, branch: 'gatehouse/one', state: 'active' });
  expect(two.place).toMatchObject({ kind: 'worktree', branch: 'gatehouse/two' });
  expect(one.workspace).toBe(one.place!.path);

  // Scripts are taken in turn order: one's turn starts (and waits on its card) before two's.
  await sendAndAllow(h, one.id, two.id);

  const outputs = await Promise.all([one.id, two.id].map((id) => h!.event(id, 'tool_result')));
  expect(outputs.map((r) => r.ok)).toEqual([true, true]);
  expect(outputs[0]!.output).toContain('mine-one.txt');
  expect(outputs[0]!.output).not.toContain('mine-two.txt');
  expect(outputs[1]!.output).toContain('mine-two.txt');
  expect(outputs[1]!.output).not.toContain('mine-one.txt');
  for (const r of outputs) expect(r.output).toContain('DATA-HIDDEN');
  // The person's folder did not change while they worked.
  expect(git(repo, 'status', '--porcelain')).toBe('');

  const reviewOne = await h.call('session.review', { id: one.id });
  expect(reviewOne.files.map((f) => [f.path, f.status])).toEqual([
    ['a.txt', 'ready'],
    ['mine-one.txt', 'ready'],
  ]);
  const applied = await h.call('session.apply', { id: one.id, reviewId: reviewOne.reviewId, as: 'files' });
  expect(applied).toMatchObject({ applied: ['a.txt', 'mine-one.txt'], conflicts: [], failed: [] });

  const reviewTwo = await h.call('session.review', { id: two.id });
  expect(reviewTwo.commit).toMatchObject({ branch: 'main' });
  const committed = await h.call('session.apply', {
    id: two.id,
    reviewId: reviewTwo.reviewId,
    as: 'commit',
    message: 'two: b and its file',
  });
  expect(committed.failed).toEqual([]);
  expect(committed.commit).toMatch(/^[0-9a-f]{40}$/);

  // Exactly the files applied as files show; the committed ones are clean.
  expect(git(repo, 'status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([
    ' M a.txt',
    '?? mine-one.txt',
  ]);
  expect(await fs.readFile(path.join(repo, 'a.txt'), 'utf8')).toBe('a\none\n');
  expect(git(repo, 'show', 'HEAD:b.txt')).toBe('b\ntwo\n');
  // .git changed only by the commit: main moved to it (its parent the old HEAD), the index for its files.
  expect(git(repo, 'rev-parse', 'HEAD~1').trim()).toBe(headBefore);
  const refsAfter = git(repo, 'for-each-ref', '--format=%(refname) %(objectname)');
  const changedRefs = refsAfter
    .split('\n')
    .filter((l) => !refsBefore.includes(l) && !l.startsWith('refs/heads/gatehouse/'));
  expect(changedRefs).toEqual([`refs/heads/main ${committed.commit}`]);
  const dotGitAfter = await gitListing(repo, ignoredInGit);
  const changed = [...new Set([...dotGitBefore.keys(), ...dotGitAfter.keys()])].filter(
    (k) => dotGitBefore.get(k) !== dotGitAfter.get(k),
  );
  expect(changed.sort()).toEqual(['index', 'refs/heads/main']);

  // Each session's log holds its place, its apply (before) and its outcome (after).
  const events = await h.events(two.id);
  const types = events.map((e: SessionEvent) => e.type).filter((t) => t.startsWith('place'));
  expect(types).toEqual(['place', 'place_apply', 'place_applied']);
});

/** Sends to both sessions, one after the other's card is up, then allows both cards so the commands overlap. */
async function sendAndAllow(harness: Harness, a: string, b: string): Promise<void> {
  await harness.call('session.send', { id: a, text: 'go' });
  const cardA = await harness.event(a, 'card');
  await harness.call('session.send', { id: b, text: 'go' });
  const cardB = await harness.event(b, 'card');
  await Promise.all([
    harness.call('card.answer', { id: a, cardId: cardA.cardId, answer: 'allow_once' }),
    harness.call('card.answer', { id: b, cardId: cardB.cardId, answer: 'allow_once' }),
  ]);
}
