/**
 * Issue 33's "done when", in Debian's Chromium against the real web host: a person installs
 * Claude Code from Settings → Agents (npm from its offline cache), opens a session with it
 * on a project whose test fails, asks it to fix the test, and answers its start card, its
 * write card (the fix as a side-by-side diff) and its command card (the exact argv); the
 * fix lands, the test passes, and the turn's Undo puts the bug back. The real, pinned
 * Claude Code against a fake Anthropic model on loopback (`--agent-model-endpoint`).
 * Asserts the cards' contents and the files, never timing.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, describeViolations } from './harness/axe.js';
import {
  BUGGY_SUM,
  FIXED_SUM,
  fixWithClaude,
  LOOK_KEY,
  startFlowWorld,
  type FlowState,
  type FlowWorld,
} from './harness/real-claude-flow.js';
import { cachedAgent } from '../support/agent-cache.js';

let world: FlowWorld;
beforeAll(async () => {
  // The install comes from npm's cache, which CI fills with the agent cache: fail saying so when it is missing.
  await cachedAgent('claude-code');
  world = await startFlowWorld();
}, 120_000);
afterAll(async () => {
  await world?.close();
});

describe('the real Claude Code in the window', () => {
  test('installed from Settings, it fixes a failing test through its cards, and Undo puts the bug back', async () => {
    const { ui, project } = world;
    const sum = path.join(project, 'sum.js');
    const errors: string[] = [];
    ui.page.on('pageerror', (e) => errors.push(e.message));
    const axe: string[] = [];
    const seen: FlowState[] = [];

    await fixWithClaude(world, async (state) => {
      seen.push(state);
      const page = ui.page;
      if (state === 'start-card') {
        const card = ui.openCard('Permission: start Claude Code');
        const text = await card.textContent();
        expect(text).toContain('Start Claude Code version 0.101.0');
        expect(text).toContain(`127.0.0.1:${new URL(world.fake.url).port}`);
        expect(text).not.toContain(LOOK_KEY);
        await card.getByRole('list', { name: 'Sees read-only' }).getByText(project, { exact: true }).waitFor();
        await card
          .getByRole('list', { name: /May reach only these hosts/ })
          .getByText('api.anthropic.com')
          .waitFor();
      }
      if (state === 'write-card') {
        const card = ui.openCard(/^Permission: write /);
        // The fix, side by side: the line that subtracts out, the line that adds in.
        await card.locator('.d2h-del').filter({ hasText: 'return a - b;' }).first().waitFor();
        await card.locator('.d2h-ins').filter({ hasText: 'return a + b;' }).first().waitFor();
        expect(await fs.readFile(sum, 'utf8')).toBe(BUGGY_SUM);
      }
      if (state === 'command-card') {
        const card = ui.openCard(/^Permission: run node/);
        const tokens = card.getByRole('list', { name: 'Command and arguments' }).first();
        expect(await tokens.getByRole('listitem').allTextContents()).toEqual(['node', '--test']);
        expect(await fs.readFile(sum, 'utf8')).toBe(FIXED_SUM);
      }
      if (state === 'transcript') {
        // The test ran confined and passed: the model was told so by the gate's run.
        const last = JSON.stringify(world.fake.requests.at(-1)?.body);
        expect(last).toMatch(/pass 1/);
        expect(last).toMatch(/fail 0/);
        expect(await fs.readFile(sum, 'utf8')).toBe(FIXED_SUM);
      }
      if (state === 'undone') expect(await fs.readFile(sum, 'utf8')).toBe(BUGGY_SUM);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const violations = await axeViolations(page);
        if (violations.length) axe.push(describeViolations(`${state}, ${scheme}`, violations));
      }
      await page.emulateMedia({ colorScheme: 'light' });
    });

    expect(seen).toEqual(['installed', 'start-card', 'write-card', 'command-card', 'transcript', 'undone']);
    expect(axe, axe.join('\n')).toEqual([]);
    expect(errors).toEqual([]);
    // Nothing of the key reached the page.
    expect(await ui.page.content()).not.toContain(LOOK_KEY);
  }, 420_000);
});
