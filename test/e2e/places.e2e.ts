/**
 * Sessions in a place of their own in the window (SPEC §15), in Debian's Chromium, light and
 * dark with axe clean: the Open dialog makes a session in a worktree; its tab and header
 * name the branch; the review lists the files with their states and side-by-side diffs; a
 * conflict shows both sides and the merged text with no way to write it; Apply shows its
 * progress and outcome and the review follows; Apply as a commit and Discard go through
 * their cards; Settings → Places lists the places and removes an orphan after a confirm.
 * Screenshots go to GATEHOUSE_SHOTS (test-results/e2e otherwise).
 *
 * Over the renderer's fake host (test/unit/renderer/look/look-places-page.tsx), served by
 * Vite, until the places room is in the web host.
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
const FOLDER = '/home/me/src/calc';
const BRANCH = 'gatehouse/fix-calc';

let look: Look;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  look = await openLook('places.html');
});
afterAll(async () => {
  await look?.close();
});

async function pageIn(scheme: (typeof SCHEMES)[number], query = ''): Promise<{ page: Page; errors: string[] }> {
  const context = await freshContext(look.browser, { colorScheme: scheme, width: 1280, height: 1000 });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${look.url}${query}`);
  await page.getByRole('navigation', { name: 'Sessions' }).waitFor();
  return { page, errors };
}

/** Photographs `what` (the page when absent) and returns axe's report on the whole page. */
async function shotAndAxe(page: Page, name: string, what?: Locator): Promise<string[]> {
  const file = path.join(SHOTS, `${name}.png`);
  await (what ?? page).screenshot({ path: file });
  const violations = await axeViolations(page);
  return violations.length ? [describeViolations(name, violations)] : [];
}

/** Ctrl+O, the folder, "Work in a place of its own", Enter: the session's tab names its branch. */
async function openInPlace(page: Page, shot?: string): Promise<string[]> {
  await page.keyboard.press('Control+o');
  const dialog = page.getByRole('dialog', { name: 'Open a folder' });
  await dialog.getByRole('combobox', { name: 'Folder' }).fill(FOLDER);
  await dialog.getByRole('checkbox', { name: 'Work in a place of its own' }).check();
  await dialog.getByRole('textbox', { name: 'Start from (optional)' }).fill('main');
  const reports = shot ? await shotAndAxe(page, shot, dialog) : [];
  await dialog.getByRole('combobox', { name: 'Folder' }).press('Enter');
  await page.getByRole('tab', { name: new RegExp(`fix calc · ${BRANCH}`) }).waitFor();
  await page.getByRole('note', { name: 'Place of its own' }).getByText(`a worktree of ${FOLDER}`).waitFor();
  return reports;
}

async function openReview(page: Page): Promise<Locator> {
  await page.keyboard.press('Control+Shift+G');
  const dialog = page.getByRole('dialog', { name: 'Review the place’s changes' });
  await dialog.getByRole('list', { name: 'Files the session changed' }).waitFor();
  return dialog;
}

describe('a session in a place of its own, in the window', () => {
  test.each(SCHEMES)('open in a place, review, apply, commit, discard (%s); axe clean', async (scheme) => {
    const { page, errors } = await pageIn(scheme);
    const reports = await openInPlace(page, `places-open-dialog-${scheme}`);
    reports.push(...(await shotAndAxe(page, `places-session-${scheme}`)));

    const dialog = await openReview(page);
    await dialog.getByText(/^2 ready to apply, 1 already in your folder\./).waitFor();
    await dialog.getByText('return a + b').waitFor();
    reports.push(...(await shotAndAxe(page, `review-${scheme}`)));

    // Apply one of the two ready files: progress, then the outcome, then the review again.
    await dialog.getByRole('checkbox', { name: 'Apply tests/test_calc.py' }).uncheck();
    await dialog.getByRole('button', { name: 'Apply to my folder (1 file)' }).click();
    await dialog.getByRole('status').getByText('Applying 1 file…').waitFor();
    await dialog.getByRole('status').getByText(`Applied 1 file to ${FOLDER}.`).waitFor();
    await dialog.getByText(/^1 ready to apply, 2 already in your folder\./).waitFor();
    expect(await dialog.getByRole('checkbox', { name: 'Apply calc.py' }).isDisabled()).toBe(true);
    reports.push(...(await shotAndAxe(page, `places-applied-${scheme}`)));

    // The rest as a commit, through its card.
    await dialog.getByRole('button', { name: 'Apply as a commit on my branch…' }).click();
    const card = dialog.getByRole('region', { name: 'Apply as a commit on main' });
    await card.getByRole('list', { name: 'Git commands, in order' }).waitFor();
    await card.getByRole('textbox', { name: 'Commit message' }).fill('Test the calculator');
    reports.push(...(await shotAndAxe(page, `places-commit-card-${scheme}`)));
    await card.getByRole('button', { name: 'Make the commit' }).click();
    await dialog.getByRole('status').getByText('Made commit 9d2e7c4 on your branch.').waitFor();

    // Discard, through its card.
    await dialog.getByRole('button', { name: 'Discard…' }).click();
    const discard = dialog.getByRole('region', { name: 'Discard the place' });
    await discard.getByRole('list', { name: 'What Discard removes' }).waitFor();
    reports.push(...(await shotAndAxe(page, `places-discard-card-${scheme}`)));
    await discard.getByRole('button', { name: 'Discard', exact: true }).click();
    await dialog.getByRole('status').getByText(`Discarded the place and its branch ${BRANCH}.`).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(/Its place of its own \(gatehouse\/fix-calc\) was discarded/).waitFor();
    const log = page.getByRole('log', { name: 'Transcript' });
    await log.getByText('Applied from the place as a commit:').waitFor();
    await log.getByText(`The place (${BRANCH}) was discarded.`).waitFor();
    expect(await page.getByRole('tab', { name: /fix calc/ }).textContent()).not.toContain(BRANCH);
    reports.push(...(await shotAndAxe(page, `places-discarded-${scheme}`)));

    expect(reports, reports.join('\n')).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test.each(SCHEMES)(
    'a conflict shows both sides and the merged text, never a write (%s); axe clean',
    async (scheme) => {
      const { page, errors } = await pageIn(scheme, '?conflict=1');
      await openInPlace(page);
      const dialog = await openReview(page);
      const item = dialog.getByRole('listitem').filter({ hasText: 'README.md' });
      await item.getByRole('button', { name: /^README\.md/ }).click();
      await item.getByRole('heading', { name: 'Your change since the session began' }).waitFor();
      await item
        .getByLabel('Merged text with conflict markers')
        .getByText(/<<<<<<< yours/)
        .waitFor();
      expect(await item.getByRole('checkbox').isDisabled()).toBe(true);
      await item.scrollIntoViewIfNeeded();
      const reports = await shotAndAxe(page, `review-conflict-${scheme}`);
      expect(reports, reports.join('\n')).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  test.each(SCHEMES)(
    'Settings → Places: sizes, a session gone, Remove after a confirm (%s); axe clean',
    async (scheme) => {
      const { page, errors } = await pageIn(scheme);
      await page.keyboard.press('Control+,');
      const section = page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Places' });
      const orphan = section.getByRole('listitem', { name: 'Session gone' });
      await orphan.getByText('700 MiB').waitFor();
      await orphan.getByRole('button', { name: 'Remove…' }).click();
      await orphan.getByRole('group', { name: 'Remove this place?' }).waitFor();
      await section.scrollIntoViewIfNeeded();
      const reports = await shotAndAxe(page, `places-settings-${scheme}`, section);
      await orphan.getByRole('button', { name: 'Remove the place' }).click();
      await section.getByRole('listitem', { name: 'Session gone' }).waitFor({ state: 'detached' });
      expect(reports, reports.join('\n')).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );
});
