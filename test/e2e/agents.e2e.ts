/**
 * External agents in the window (SPEC §14), in Debian's Chromium: Settings → Agents lists
 * each agent (installed, not installed, staged in a place of its own, greyed with why), an
 * install shows its progress bar,
 * a refused host name shows the host's words; the agent's start card and its own question
 * are pinned with their content. Each screen is checked with axe light and dark, and
 * photographed (GATEHOUSE_SHOTS names the folder; test-results/e2e otherwise).
 *
 * Over the renderer's fake host (test/unit/renderer/look/look-agents-page.tsx), served by
 * Vite: the real web host has no agents until the installer and the driver are wired in.
 */
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openLook, type Look } from '../look/look-server.js';
import { axeViolations, describeViolations } from './harness/axe.js';
import { freshContext } from './harness/chromium.js';
import { SCREENSHOT_DIR } from './harness/screenshots.js';

const SHOTS = process.env.GATEHOUSE_SHOTS ?? SCREENSHOT_DIR;
const SCHEMES = ['light', 'dark'] as const;

let look: Look;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  look = await openLook('agents.html');
});
afterAll(async () => {
  await look?.close();
});

/** A page of the harness in one colour scheme; what it logs as an error fails the test. */
async function pageIn(
  scheme: (typeof SCHEMES)[number],
  query: string,
  height = 1000,
): Promise<{ page: Page; errors: string[] }> {
  const context = await freshContext(look.browser, { colorScheme: scheme, width: 1280, height });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${look.url}${query}`);
  return { page, errors };
}

/** Photographs `what` and returns axe's report on the whole page (empty when clean). */
async function shotAndAxe(page: Page, what: Locator, name: string): Promise<string[]> {
  await what.screenshot({ path: path.join(SHOTS, `agents-${name}.png`) });
  const violations = await axeViolations(page);
  return violations.length ? [describeViolations(name, violations)] : [];
}

/** The card's answers armed (0.5 s after it appears): the photograph shows what a person acts on. */
async function armed(card: Locator): Promise<void> {
  await card
    .getByRole('button', { name: 'Allow once', exact: true })
    .and(card.locator('[aria-disabled="false"], :not([aria-disabled])'))
    .waitFor();
}

describe('external agents in the window', () => {
  test.each(SCHEMES)('Settings → Agents (%s): list, install progress, a refused host, axe clean', async (scheme) => {
    // Tall enough that the whole section shows in one photograph.
    const { page, errors } = await pageIn(scheme, '?settings=1', 1800);
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    const section = dialog.getByRole('region', { name: 'Agents' });
    const claude = section.getByRole('listitem', { name: 'Claude Code' });
    await claude.waitFor();
    await expect.poll(() => claude.textContent()).toContain('pinned 0.10.0 · installed 0.9.0');
    expect(await claude.textContent()).toContain('ANTHROPIC_API_KEY is set');
    const codex = section.getByRole('listitem', { name: 'Codex' });
    expect(await codex.textContent()).toContain('works in a place of its own');
    expect(await codex.getByRole('button', { name: 'Install' }).count()).toBe(1);
    const opencode = section.getByRole('listitem', { name: 'opencode' });
    expect(await opencode.textContent()).toContain('Not available: node is not on the PATH');
    expect(await opencode.getByRole('button').count()).toBe(0);

    const gemini = section.getByRole('listitem', { name: 'Gemini CLI' });
    await gemini.getByRole('button', { name: 'Install' }).click();
    await gemini.getByRole('progressbar', { name: 'Gemini CLI: downloading' }).waitFor();
    await gemini.getByText('fetching 9 of 20 packages').waitFor();

    await claude.getByLabel('Add a host for Claude Code').fill('https://evil.example/x');
    await claude.getByRole('button', { name: 'Add' }).click();
    await claude
      .getByRole('alert')
      .getByText(/is not a host name/)
      .waitFor();

    await section.scrollIntoViewIfNeeded();
    const reports = await shotAndAxe(page, section, `settings-${scheme}`);
    expect(reports, reports.join('\n')).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test.each(SCHEMES)("the agent's start card (%s): argv, what it sees, its hosts; axe clean", async (scheme) => {
    const { page, errors } = await pageIn(scheme, '?card=start');
    const card = page.locator('.pinned').getByRole('region', { name: 'Permission: start Claude Code' });
    await card.waitFor();
    expect(await card.textContent()).toContain('Start Claude Code version 0.10.0');
    await card.getByRole('list', { name: 'Command and arguments' }).waitFor();
    await card.getByRole('list', { name: 'Sees read-only' }).getByText(WORKSPACE_SHOWN).waitFor();
    await card
      .getByRole('list', { name: /May reach only these hosts/ })
      .getByText('api.anthropic.com')
      .waitFor();
    await card.getByText('Its writes and commands come through the gate as cards').waitFor();
    expect(await page.getByRole('tab', { name: /limit test · Claude Code 0\.10\.0/ }).count()).toBe(1);
    await armed(card);
    const reports = await shotAndAxe(page, card, `start-card-${scheme}`);
    await page.screenshot({ path: path.join(SHOTS, `agents-start-frame-${scheme}.png`) });
    expect(reports, reports.join('\n')).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test.each(SCHEMES)("the agent's own question (%s), after its plan and its reads; axe clean", async (scheme) => {
    const { page, errors } = await pageIn(scheme, '?card=ask');
    const card = page
      .locator('.pinned')
      .getByRole('region', { name: 'Permission: Claude Code: Fetch https://nodejs.org/api/fs.html' });
    await card.waitFor();
    await card.getByText(/own question, not the gate/).waitFor();
    await card.getByRole('list', { name: "The agent's options" }).getByText('Allow for this session').waitFor();
    await page.getByText('Plan · 1 of 3 done').waitFor();
    await page.getByText('Read test/limit.test.ts').waitFor();
    await armed(card);
    const reports = await shotAndAxe(page, card, `ask-card-${scheme}`);
    await page.screenshot({ path: path.join(SHOTS, `agents-ask-frame-${scheme}.png`) });
    expect(reports, reports.join('\n')).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

/** The workspace as the fixture names it. */
const WORKSPACE_SHOWN = '/home/me/src/project';
