/**
 * Renders the checkpoints harness (test/unit/renderer/look/changes.html) in Debian's
 * Chromium, light and dark, and saves screenshots in test-results/look/: a call's changed
 * files with a diff open, a turn's Changes, Rewind, and Settings' Checkpoints.
 *   npx tsx test/look/look-changes.ts
 */
import path from 'node:path';
import { freshContext } from '../e2e/harness/chromium.js';
import { openLook } from './look-server.js';

const look = await openLook('changes.html');
const { browser, out, url: base } = look;
try {
  for (const scheme of ['light', 'dark'] as const) {
    const context = await freshContext(browser, { colorScheme: scheme, width: 1200, height: 900 });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    const shot = (name: string) => page.screenshot({ path: path.join(out, `changes-${name}-${scheme}.png`) });

    await page.goto(base);
    const log = page.getByRole('log', { name: 'Transcript' });
    await log.waitFor();
    await page.waitForTimeout(500);
    await shot('transcript-bottom');
    await log.evaluate((el) => el.scrollTo(0, 0));
    await page.getByRole('list', { name: 'Files changed' }).first().getByRole('button').first().click();
    await page.getByText('return a + b').first().waitFor();
    await page.waitForTimeout(300);
    await shot('transcript');

    await page.getByRole('button', { name: 'Changes · 4 files' }).click();
    const dialog = page.getByRole('dialog', { name: 'Changes' });
    await dialog.getByText('This turn changed 4 files.').waitFor();
    await page.waitForTimeout(300);
    await shot('dialog');
    await page.keyboard.press('Escape');

    await log.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForTimeout(300);
    const message = page.locator('.user-message-row').filter({ hasText: 'Now add a subtract function.' });
    await message.hover();
    await message.getByRole('button', { name: 'Rewind to here…' }).click();
    await page.getByRole('dialog', { name: 'Rewind' }).waitFor();
    await shot('rewind');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('group', { name: 'Checkpoints' });
    await settings.scrollIntoViewIfNeeded();
    await settings.screenshot({ path: path.join(out, `changes-settings-${scheme}.png`) });
    await context.close();
  }
} finally {
  await look.close();
}
