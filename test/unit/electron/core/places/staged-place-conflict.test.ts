/**
 * A file the person changed while a staged agent worked is a conflict, never overwritten
 * (SPEC §15), with the real opencode in the worktree the core made for it: the person edits
 * the line opencode edited (before the review: shown as a conflict with their side's diff
 * and a three-way merge), and makes a file of their own where opencode made one (after the
 * review: Apply finds the digest changed). Apply writes only the file still ready; the
 * person's two files stay exactly theirs, and a second review still says so.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { OPENCODE, opencodeScript, type OpencodeCall } from '../agents/opencode-script.js';
import { bootStagedAgent, git, ORIGIN_FILES, type StagedBooted } from '../agents/staged-agent-harness.js';
import { runStagedTurn } from './staged-place-flow.js';
import { opencodeWork, placeFiles, STAGED_WORK } from './staged-work.js';

let booted: StagedBooted | null = null;
afterEach(async () => {
  await booted?.h.close();
  await booted?.fake.close();
  booted = null;
});

const THEIR_LINE = 'second line, as the person wrote it';
const THEIR_COUNT = 'the person’s own count\n';

it('a file the person changed meanwhile is a conflict and never overwritten; the rest applies', async () => {
  let turns: OpencodeCall[][] = [];
  booted = await bootStagedAgent(
    OPENCODE,
    opencodeScript(() => turns),
  );
  const { h, id, origin, place } = booted;
  turns = [opencodeWork(place.path)];
  await runStagedTurn(booted, OPENCODE);

  // While the session worked, the person edited the very line opencode edited.
  const theirNotes = ORIGIN_FILES[STAGED_WORK.edited]!.replace(STAGED_WORK.editedFrom, THEIR_LINE);
  await fs.writeFile(path.join(origin, STAGED_WORK.edited), theirNotes);

  const review = await h.call('session.review', { id });
  expect(review.files.map((f) => [f.path, f.status])).toEqual([
    [STAGED_WORK.ran, 'ready'],
    [STAGED_WORK.added, 'ready'],
    [STAGED_WORK.edited, 'conflict'],
  ]);
  const conflict = review.files.find((f) => f.path === STAGED_WORK.edited)!;
  expect(conflict.theirsDiff).toContain(`+${THEIR_LINE}`);
  expect(conflict.merged).toContain('<<<<<<<');
  expect(conflict.merged).toContain(THEIR_LINE);
  expect(conflict.merged).toContain(STAGED_WORK.editedTo('opencode'));

  // After the review, the person made a file of their own where opencode made one.
  await fs.writeFile(path.join(origin, STAGED_WORK.ran), THEIR_COUNT);

  const applied = await h.call('session.apply', { id, reviewId: review.reviewId, as: 'files' });
  expect(applied.applied).toEqual([STAGED_WORK.added]);
  expect([...applied.conflicts].sort()).toEqual([STAGED_WORK.ran, STAGED_WORK.edited]);
  expect(applied.failed).toEqual([]);
  expect(await fs.readFile(path.join(origin, STAGED_WORK.edited), 'utf8')).toBe(theirNotes);
  expect(await fs.readFile(path.join(origin, STAGED_WORK.ran), 'utf8')).toBe(THEIR_COUNT);
  expect(await fs.readFile(path.join(origin, STAGED_WORK.added), 'utf8')).toBe(
    placeFiles('opencode')[STAGED_WORK.added],
  );
  // The file in conflict at review time was never even planned: the log's apply names only the others.
  const started = (await h.events(id)).findLast((e) => e.type === 'place_apply');
  expect(started?.type === 'place_apply' && started.files.map((f) => f.path)).toEqual([
    STAGED_WORK.ran,
    STAGED_WORK.added,
  ]);

  const again = await h.call('session.review', { id });
  expect(again.files.map((f) => [f.path, f.status])).toEqual([
    [STAGED_WORK.ran, 'conflict'],
    [STAGED_WORK.added, 'applied'],
    [STAGED_WORK.edited, 'conflict'],
  ]);
  // Naming the conflicts outright writes nothing either.
  const named = await h.call('session.apply', {
    id,
    reviewId: again.reviewId,
    as: 'files',
    paths: [STAGED_WORK.edited, STAGED_WORK.ran],
  });
  expect(named).toMatchObject({ applied: [], failed: [] });
  expect(await fs.readFile(path.join(origin, STAGED_WORK.edited), 'utf8')).toBe(theirNotes);
  expect(git(origin, 'status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([
    ' M notes.txt',
    '?? count.txt',
    '?? hello.txt',
  ]);
}, 90_000);
