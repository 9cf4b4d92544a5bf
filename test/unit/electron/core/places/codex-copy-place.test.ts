/**
 * The real, pinned Codex on a folder that is NOT a git repository (SPEC §15): opened with
 * no place asked, its session gets a copy of the folder in the data folder; Codex adds a
 * file, edits another and runs a command there with no card; the person's folder is byte
 * for byte as it was until Apply; the change arrives as diffs, is applied as files, found
 * applied by a second review, and the copy goes on Discard.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
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

it('Codex works in a copy of a plain folder and its change arrives as diffs, applied to the person’s folder', async () => {
  booted = await bootStagedAgent(
    CODEX,
    codexScript(() => [CODEX_WORK]),
    { repository: false },
  );
  const { place, origin } = booted;
  expect(place).toMatchObject({ kind: 'copy', origin, state: 'active' });
  expect(place.branch).toBeUndefined();
  expect(existsSync(path.join(place.path, 'secret.txt'))).toBe(true);
  const before = await personSide(booted);

  await runStagedTurn(booted, CODEX);
  await reviewApplyDiscard(booted, 'codex', before);
}, 90_000);
