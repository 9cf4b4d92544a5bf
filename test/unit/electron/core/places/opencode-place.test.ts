/**
 * The real, pinned opencode through the whole product (SPEC §14, §15), against a fake
 * Anthropic API on loopback: opened on the person's repository with no place asked, its
 * session gets a worktree on a branch of its own; opencode adds a file (`write`), edits
 * another (`read`, then `edit`: it edits only what it read) and runs a command (`bash`)
 * there with no card; the person's repository is byte for byte as it was (and `git status`
 * clean) until Apply; its change arrives as diffs, is applied as files, found applied by a
 * second review, and the worktree and branch go on Discard.
 */
import { afterEach, expect, it } from 'vitest';
import { OPENCODE, opencodeScript, type OpencodeCall } from '../agents/opencode-script.js';
import { bootStagedAgent, type StagedBooted } from '../agents/staged-agent-harness.js';
import { personSide, reviewApplyDiscard, runStagedTurn } from './staged-place-flow.js';
import { opencodeWork } from './staged-work.js';

let booted: StagedBooted | null = null;
afterEach(async () => {
  await booted?.h.close();
  await booted?.fake.close();
  booted = null;
});

it('opencode works in a worktree of its own and its change arrives as diffs, applied to the person’s folder', async () => {
  let turns: OpencodeCall[][] = [];
  booted = await bootStagedAgent(
    OPENCODE,
    opencodeScript(() => turns),
  );
  const { place, origin } = booted;
  turns = [opencodeWork(place.path)];
  expect(place).toMatchObject({ kind: 'worktree', origin, branch: 'gatehouse/project', state: 'active' });
  const before = await personSide(booted);
  expect(before.status).toBe('');

  await runStagedTurn(booted, OPENCODE);
  // Pointed at the model on this machine as the web host's --agent-model-endpoint points it: at the path a real server serves.
  expect(new Set(booted.fake.requests.map((r) => r.path))).toEqual(new Set(['/v1/messages']));
  await reviewApplyDiscard(booted, 'opencode', before);
}, 90_000);
