/**
 * The whole way of a staged agent's change (SPEC §15), as the person sees it through the
 * contract: the agent adds a file, edits another and runs a command in its place, all with
 * no card; the person's folder is byte for byte as it was until Apply; the review lists
 * exactly those files with their diffs; Apply as files writes them into the person's
 * folder; a second review finds them applied; Discard removes the place (and a worktree's
 * branch). Each agent's model makes `STAGED_WORK`'s changes (staged-work.ts).
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { PlaceReview, SessionPlace } from '../../../../../shared/places.js';
import type { Harness } from '../core-harness.js';
import type { RealAgent } from '../agents/real-agent-harness.js';
import { turnEnd } from '../agents/real-agent-harness.js';
import { allowStagedStart, folderDigest, git } from '../agents/staged-agent-harness.js';
import { placeFiles, STAGED_WORK } from './staged-work.js';

export interface StagedSession {
  h: Harness;
  id: string;
  origin: string;
  place: SessionPlace;
}

/** The person's folder as it is: every file (its .git too) by digest, and `git status` when it is a repository. */
export async function personSide(s: Pick<StagedSession, 'origin' | 'place'>): Promise<{
  files: Record<string, string>;
  status: string | null;
}> {
  return {
    files: await folderDigest(s.origin),
    status: s.place.kind === 'worktree' ? git(s.origin, 'status', '--porcelain', '--untracked-files=all') : null,
  };
}

/** Sends turn 0, allows the start card, and waits for the turn to finish with no other card. */
export async function runStagedTurn(s: StagedSession, agent: RealAgent): Promise<void> {
  await s.h.call('session.send', {
    id: s.id,
    text: `TURN-0 add ${STAGED_WORK.added}, edit ${STAGED_WORK.edited}, count`,
  });
  await allowStagedStart(s.h, s.id, agent, s);
  const ended = await turnEnd(s.h, s.id);
  expect(ended.reason).toBe('finished');
  const cards = (await s.h.events(s.id)).flatMap((e) => (e.type === 'card' ? [e.body.kind] : []));
  expect(cards).toEqual(['agent_start']);
  for (const [rel, text] of Object.entries(placeFiles(agent.id))) {
    expect(await fs.readFile(path.join(s.place.path, rel), 'utf8')).toBe(text);
  }
}

/** The review lists exactly the three files, each with its diff and the status asked. */
export function expectReviewed(review: PlaceReview, agent: string, status: 'ready' | 'applied'): void {
  expect(review.files.map((f) => [f.path, f.change, f.status])).toEqual([
    [STAGED_WORK.ran, 'added', status],
    [STAGED_WORK.added, 'added', status],
    [STAGED_WORK.edited, 'modified', status],
  ]);
  expect(review.more).toBe(0);
  const diffOf = (rel: string) => review.files.find((f) => f.path === rel)?.diff ?? '';
  expect(diffOf(STAGED_WORK.added)).toContain(`+${STAGED_WORK.addedText(agent).trimEnd()}`);
  expect(diffOf(STAGED_WORK.edited)).toContain(`-${STAGED_WORK.editedFrom}`);
  expect(diffOf(STAGED_WORK.edited)).toContain(`+${STAGED_WORK.editedTo(agent)}`);
  expect(diffOf(STAGED_WORK.ran)).toContain('+2');
}

/**
 * After the turn: the person's folder is as it was, the review lists the three files ready,
 * Apply as files writes them, a second review finds them applied, and Discard removes the place.
 */
export async function reviewApplyDiscard(
  s: StagedSession,
  agent: string,
  before: Awaited<ReturnType<typeof personSide>>,
): Promise<void> {
  const { h, id, origin, place } = s;
  expect(await personSide(s)).toEqual(before);
  for (const rel of [STAGED_WORK.added, STAGED_WORK.ran]) expect(existsSync(path.join(origin, rel))).toBe(false);

  const review = await h.call('session.review', { id });
  expectReviewed(review, agent, 'ready');
  // Reviewing reads the person's folder; it writes nothing there.
  expect(await personSide(s)).toEqual(before);

  const applied = await h.call('session.apply', { id, reviewId: review.reviewId, as: 'files' });
  expect(applied).toMatchObject({
    applied: [STAGED_WORK.ran, STAGED_WORK.added, STAGED_WORK.edited],
    conflicts: [],
    failed: [],
  });
  for (const [rel, text] of Object.entries(placeFiles(agent))) {
    expect(await fs.readFile(path.join(origin, rel), 'utf8')).toBe(text);
  }
  if (place.kind === 'worktree') {
    expect(git(origin, 'status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([
      ' M notes.txt',
      '?? count.txt',
      '?? hello.txt',
    ]);
  }
  expectReviewed(await h.call('session.review', { id }), agent, 'applied');

  await expectDiscarded(s);
  await expectQuiet(s, agent);
}

/**
 * Nothing to alarm the person: no host the agent reached for by itself was refused (its
 * proxy's refusals are told once a second while it runs, so this looks once the whole flow
 * is done), nothing failed. opencode 1.18 still reaches for registry.npmjs.org: refused, and
 * said; not turned off yet. (Codex reached for github.com and chatgpt.com only under the
 * web host, in test/look/look-codex-place.ts, until its config turned them off.)
 */
export async function expectQuiet(s: Pick<StagedSession, 'h' | 'id'>, agent: string): Promise<void> {
  const errors = (await s.h.events(s.id)).flatMap((e) => (e.type === 'error' ? [e.message] : []));
  if (agent === 'codex') expect(errors).toEqual([]);
  else expect(errors.filter((m) => !m.includes('cannot reach registry.npmjs.org'))).toEqual([]);
}

/** Discard removes the place's folder and, for a worktree, git's record of it and its branch. */
export async function expectDiscarded(s: StagedSession): Promise<void> {
  const { h, id, origin, place } = s;
  if (place.kind === 'worktree') expect(git(origin, 'branch', '--list', place.branch!)).toContain(place.branch!);
  const discarded = await h.call('session.discardPlace', { id });
  expect(discarded.place.state).toBe('discarded');
  expect(existsSync(place.path)).toBe(false);
  expect(existsSync(path.dirname(place.path))).toBe(false);
  const { summary } = await h.call('session.state', { id });
  expect(summary.place?.state).toBe('discarded');
  if (place.kind !== 'worktree') return;
  expect(git(origin, 'branch', '--list', 'gatehouse/*')).toBe('');
  expect(git(origin, 'worktree', 'list', '--porcelain')).not.toContain(place.path);
  expect(await fs.readdir(path.join(origin, '.git', 'worktrees')).catch(() => [])).toEqual([]);
}
