/**
 * Issue 34's "done when" for Codex, in Debian's Chromium against the real web host: a
 * session opened with the real, pinned Codex on a repository whose test fails works in a
 * worktree the app makes; its start card names its place writable and the person's folder
 * unseen; Codex fixes the code, adds a test and runs the tests there with no card; the
 * person's folder is untouched until the review's Apply, then holds exactly those files.
 * Against a fake OpenAI Responses API on loopback (`--agent-model-endpoint`); axe clean at
 * each step. Asserts contents and files, never timing.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cachedAgent } from '../support/agent-cache.js';
import { axeViolations, describeViolations } from './harness/axe.js';
import {
  fixWithCodexInPlace,
  LOOK_KEY,
  startCodexPlaceWorld,
  type CodexPlaceState,
  type CodexPlaceWorld,
} from './harness/real-codex-place-flow.js';
import { BUGGY_SUM, FIXED_SUM } from './harness/real-claude-flow.js';

let world: CodexPlaceWorld;
beforeAll(async () => {
  // Codex comes from the agent cache CI fills: fail saying so when it is missing.
  await cachedAgent('codex');
  world = await startCodexPlaceWorld();
}, 120_000);
afterAll(async () => {
  await world?.close();
});

const status = (cwd: string) =>
  execFileSync('git', ['status', '--porcelain'], { cwd, encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });

describe('the real Codex in a place of its own, in the window', () => {
  test('fixes a failing test in its worktree with no card; its change arrives as diffs and is applied', async () => {
    const { ui, project } = world;
    const errors: string[] = [];
    ui.page.on('pageerror', (e) => errors.push(e.message));
    const axe: string[] = [];
    const seen: CodexPlaceState[] = [];

    await fixWithCodexInPlace(world, async (state) => {
      seen.push(state);
      const page = ui.page;
      if (state === 'start-card') {
        const card = ui.openCard('Permission: start Codex');
        const text = await card.textContent();
        expect(text).toContain('Start Codex version 2.6.0');
        expect(text).toContain(`It cannot see your folder ${project}.`);
        expect(text).not.toContain(LOOK_KEY);
        const writable = await card.getByRole('list', { name: 'May write only in' }).textContent();
        expect(writable).toMatch(/\/data\/places\/[^/]+\/sum-project/);
        expect(writable).not.toContain(`${project}\n`);
      }
      if (state === 'transcript' || state === 'review') {
        // Its writes and its command ran in its place: only its start was a card, and the person's folder is as it was.
        expect(await ui.openCard(/^Permission: /).count()).toBe(0);
        expect(await page.getByRole('region', { name: /^Permission: (write|run|edit)/ }).count()).toBe(0);
        expect(await fs.readFile(path.join(project, 'sum.js'), 'utf8')).toBe(BUGGY_SUM);
        expect(status(project)).toBe('');
      }
      if (state === 'applied') {
        expect(await fs.readFile(path.join(project, 'sum.js'), 'utf8')).toBe(FIXED_SUM);
        expect(status(project).split('\n').filter(Boolean).sort()).toEqual([' M sum.js', '?? sum.negative.test.js']);
      }
      expect(await page.content()).not.toContain(LOOK_KEY);
      const violations = await axeViolations(page);
      if (violations.length) axe.push(describeViolations(state, violations));
    });

    expect(seen).toEqual(['start-card', 'transcript', 'review', 'applied']);
    expect(axe, axe.join('\n')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
