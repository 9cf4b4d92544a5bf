/**
 * The real, pinned Codex through the whole product (SPEC §14, §15), against a fake OpenAI
 * Responses API on loopback: opened on the person's repository with no place asked, its
 * session gets a worktree on a branch of its own; Codex adds a file, edits another and runs
 * a command there with no card; the person's repository is byte for byte as it was (and
 * `git status` clean) until Apply; its change arrives as diffs, is applied as files, found
 * applied by a second review, and the worktree and branch go on Discard.
 */
import { afterEach, expect, it } from 'vitest';
import { CODEX, codexScript } from '../agents/codex-script.js';
import { bootStagedAgent, type StagedBooted } from '../agents/staged-agent-harness.js';
import { personSide, reviewApplyDiscard, runStagedTurn } from './staged-place-flow.js';
import { CODEX_WORK } from './staged-work.js';

let booted: StagedBooted | null = null;
afterEach(async () => {
  await booted?.h.close();
  await booted?.fake.close();
  booted = null;
});

it('Codex works in a worktree of its own and its change arrives as diffs, applied to the person’s folder', async () => {
  booted = await bootStagedAgent(
    CODEX,
    codexScript(() => [CODEX_WORK]),
  );
  const { place, origin } = booted;
  expect(place).toMatchObject({ kind: 'worktree', origin, branch: 'gatehouse/project', state: 'active' });
  expect(place.path.startsWith(`${booted.h.dataDir}/places/`)).toBe(true);
  const before = await personSide(booted);
  expect(before.status).toBe('');

  await runStagedTurn(booted, CODEX);
  // Pointed at the model on this machine as the web host's --agent-model-endpoint points it: at the path a real server serves.
  expect(new Set(booted.fake.requests.map((r) => r.path))).toEqual(new Set(['/v1/responses']));
  await reviewApplyDiscard(booted, 'codex', before);
}, 90_000);
