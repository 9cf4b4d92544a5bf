/**
 * Renders the context harness (test/unit/renderer/look/context.html) in Debian's Chromium,
 * light and dark, and saves screenshots in test-results/look/: the meter and its tooltip,
 * the transcript's dividers with a summary open, "What the model sees" with a part open,
 * Compact now while it runs, and how long the dialog takes to open with 600 parts.
 *   npx tsx test/look/look-context.ts
 */
import path from 'node:path';
import { freshContext } from '../e2e/harness/chromium.js';
import { openLook } from './look-server.js';

const look = await openLook('context.html');
const { browser, out, url: base } = look;
try {
  for (const scheme of ['light', 'dark'] as const) {
    const context = await freshContext(browser, { colorScheme: scheme, width: 1200, height: 820 });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    const shot = (name: string) => page.screenshot({ path: path.join(out, `context-${name}-${scheme}.png`) });

    await page.goto(base);
    const meter = page.getByRole('button', { name: /^Context:/ });
    await meter.waitFor();
    await page.getByRole('button', { name: /History summarised/ }).click();
    await page.waitForTimeout(400);
    await shot('transcript');
    await meter.hover();
    await page.getByRole('tooltip').waitFor();
    await page.locator('.composer').screenshot({ path: path.join(out, `context-meter-${scheme}.png`) });
    await shot('tooltip');

    await page.goto(`${base}?full=1`);
    await meter.waitFor();
    await page.locator('.composer').screenshot({ path: path.join(out, `context-meter-full-${scheme}.png`) });
    await page.keyboard.press('Control+Shift+M');
    const dialog = page.getByRole('dialog', { name: 'What the model sees' });
    await dialog.getByRole('list', { name: 'Parts of the next request' }).waitFor();
    await dialog.getByRole('button', { name: /summary of earlier history/ }).click();
    await shot('dialog');
    await dialog.getByRole('textbox').fill('the failing test names');
    await dialog.getByRole('button', { name: 'Compact now' }).click();
    await page.waitForTimeout(300);
    await shot('compacting');
    await dialog.getByText(/History summarised: 84k/).waitFor();
    await shot('compacted');
    await context.close();
  }

  const context = await freshContext(browser, { width: 1200, height: 820 });
  const page = await context.newPage();
  await page.goto(`${base}?parts=600`);
  await page.getByRole('button', { name: /^Context:/ }).waitFor();
  const ms = (await page.evaluate(`new Promise((resolve) => {
    const start = performance.now();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'M', ctrlKey: true, shiftKey: true, bubbles: true }));
    const check = () => {
      if (document.querySelectorAll('.context-part').length >= 600) {
        requestAnimationFrame(() => resolve(performance.now() - start));
      } else requestAnimationFrame(check);
    };
    check();
  })`)) as number;
  console.log(`"What the model sees" with 613 parts: painted in ${ms.toFixed(0)} ms`);
  await page.screenshot({ path: path.join(out, 'context-dialog-600.png') });
  await context.close();
} finally {
  await look.close();
}
