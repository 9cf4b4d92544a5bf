/**
 * The model's proposal to apply its place's change (propose_apply, SPEC §15) in the window,
 * in Debian's Chromium, light and dark with axe clean: the `place_apply` card pinned, as a
 * commit (its files with change and state, a conflict named, the commit's git commands and
 * message, the folder it writes into) and as files, with Allow once and Deny only; D on the
 * focused card sends the deny, S sends nothing. Screenshots go to GATEHOUSE_SHOTS
 * (test-results/e2e otherwise) as propose-apply-*.png.
 *
 * Over the renderer's fake host (test/unit/renderer/look/look-propose-page.tsx), served by Vite.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openLook, type Look } from '../look/look-server.js';
import { axeViolations, describeViolations } from './harness/axe.js';
import { freshContext } from './harness/chromium.js';
import { SCREENSHOT_DIR } from './harness/screenshots.js';

const SHOTS = process.env.GATEHOUSE_SHOTS ?? SCREENSHOT_DIR;
const SCHEMES = ['light', 'dark'] as const;
const ORIGIN = '/home/me/src/project';

let look: Look;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  look = await openLook('propose.html');
});
afterAll(async () => {
  await look?.close();
});

async function pageIn(scheme: (typeof SCHEMES)[number], query: string): Promise<{ page: Page; errors: string[] }> {
  const context = await freshContext(look.browser, { colorScheme: scheme, width: 1280, height: 1000 });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${look.url}${query}`);
  return { page, errors };
}

/** The card, once its answers are armed: the photograph shows what a person acts on. */
async function armedCard(page: Page, name: RegExp): Promise<Locator> {
  const card = page.getByRole('region', { name });
  await card
    .getByRole('button', { name: 'Allow once', exact: true })
    .and(card.locator('[aria-disabled="false"]'))
    .waitFor();
  return card;
}

async function shotAndAxe(page: Page, what: Locator, name: string): Promise<string[]> {
  await what.screenshot({ path: path.join(SHOTS, `propose-apply-${name}.png`) });
  await page.screenshot({ path: path.join(SHOTS, `propose-apply-${name}-window.png`) });
  const violations = await axeViolations(page);
  return violations.length ? [describeViolations(name, violations)] : [];
}

describe("the model's proposal to apply its place's change", () => {
  test.each(SCHEMES)(
    'as a commit: files, conflict, commands, message, where it writes (%s); axe clean',
    async (scheme) => {
      const { page, errors } = await pageIn(scheme, '?as=commit');
      const card = await armedCard(page, /^Permission: apply a commit/);
      await expect(card.getByText(`writes into`).first().isVisible()).resolves.toBe(true);
      await expect(card.getByRole('list', { name: 'Files it applies' }).getByRole('listitem').count()).resolves.toBe(4);
      await expect(card.getByText('Conflict: you changed it too').isVisible()).resolves.toBe(true);
      await expect(card.getByRole('list', { name: 'The git commands' }).locator(':scope > li').count()).resolves.toBe(
        7,
      );
      await expect(card.getByRole('button', { name: /^Allow for this session/ }).count()).resolves.toBe(0);
      await expect(card.locator('.card-subject').textContent()).resolves.toContain(ORIGIN);
      const reports = await shotAndAxe(page, card, `commit-${scheme}`);
      expect(reports).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  test.each(SCHEMES)('as files, answered from its keys: S does nothing, D denies (%s); axe clean', async (scheme) => {
    const { page, errors } = await pageIn(scheme, '?as=files');
    const card = await armedCard(page, /^Permission: apply 3 files/);
    const reports = await shotAndAxe(page, card, `files-${scheme}`);
    await card.focus();
    await page.keyboard.press('s');
    await page.waitForTimeout(300);
    await expect(card.getByText(/Sending…|Answer sent/).count()).resolves.toBe(0);
    await page.keyboard.press('d');
    await card
      .getByText(/Sending…|Answer sent/)
      .first()
      .waitFor();
    expect(reports).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
