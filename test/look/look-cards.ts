/**
 * Renders the look harness (test/unit/renderer/look) in Debian's Chromium, light and dark,
 * saves screenshots in test-results/look/, and times "card event → card painted" for a
 * 64 KiB diff (1,078 lines, every 7th changed) and a truncated card's 400 lines.
 *   npx tsx test/look/look-cards.ts
 */
import path from 'node:path';
import { freshContext } from '../e2e/harness/chromium.js';
import { openLook } from './look-server.js';

const look = await openLook('');
const { browser, out, url: base } = look;
try {
  for (const scheme of ['light', 'dark'] as const) {
    const context = await freshContext(browser, { colorScheme: scheme, width: 1200, height: 900 });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${base}?view=cards`);
    await page.getByRole('region', { name: 'Permission: write src/app.ts' }).waitFor();
    await page.waitForTimeout(700);
    await page.screenshot({ path: path.join(out, `cards-${scheme}.png`), fullPage: true });
    await page.getByRole('button', { name: 'Show the whole proposal' }).click();
    await page.getByLabel('Whole proposed file').waitFor();
    await page
      .getByRole('region', { name: 'Permission: write src/big.ts' })
      .screenshot({ path: path.join(out, `truncated-${scheme}.png`) });
    await page
      .getByRole('region', { name: 'Permission: run  rm…' })
      .screenshot({ path: path.join(out, `command-${scheme}.png`) });
    await page.goto(`${base}?view=transcript`);
    await page.getByRole('log', { name: 'Transcript' }).waitFor();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: path.join(out, `transcript-${scheme}.png`) });
    await page.getByRole('log', { name: 'Transcript' }).evaluate((el) => el.scrollTo(0, 0));
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(out, `transcript-top-${scheme}.png`) });
    await context.close();
  }

  const context = await freshContext(browser, { width: 1200, height: 900 });
  const page = await context.newPage();
  page.once('console', (m) => console.log('  page:', m.text()));
  await page.goto(`${base}?view=bench`);
  await page.waitForFunction("'showCard' in window");
  const runs = { '64 KiB diff (1,078 lines)': [1078, false], 'truncated card (400 lines)': [340, true] } as const;
  for (const [label, [lines, truncated]] of Object.entries(runs)) {
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      // A string, not a function: tsx would wrap a function's inner names in a helper the page lacks.
      const ms = (await page.evaluate(`new Promise((resolve) => {
        const id = window.showCard(${lines}, ${truncated});
        const done = (event) => {
          if (event.detail.cardId !== id) return;
          window.removeEventListener('gatehouse:card-painted', done);
          resolve(performance.getEntriesByName('gatehouse:card:' + id)[0]?.duration ?? -1);
        };
        window.addEventListener('gatehouse:card-painted', done);
      })`)) as number;
      times.push(ms);
    }
    const sorted = times.toSorted((a, b) => a - b);
    console.log(
      `card event → card painted, ${label}: median ${sorted[3]?.toFixed(1)} ms (${sorted.map((t) => t.toFixed(0)).join(', ')})`,
    );
  }
  await page.goto(`${base}?view=long`);
  const log = page.getByRole('log', { name: 'Transcript' });
  await log.waitFor();
  await page.waitForTimeout(500);
  const gap = () => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  console.log(
    `10,000 items: ${await log.evaluate((el) => el.querySelectorAll('.transcript-row').length)} rows in the DOM, ${Math.round(await gap())} px from the bottom`,
  );
  await page.evaluate('window.append()');
  await page.waitForTimeout(300);
  console.log(`after an append at the bottom: ${Math.round(await gap())} px from the bottom`);
  await log.evaluate((el) => el.scrollBy(0, -3000));
  await page.waitForTimeout(300);
  const before = await log.evaluate((el) => el.scrollTop);
  await page.evaluate('window.append()');
  await page.waitForTimeout(300);
  const after = await log.evaluate((el) => el.scrollTop);
  const jump = await page.getByRole('button', { name: '↓ Jump to latest' }).isVisible();
  console.log(`scrolled up then an append: scrollTop ${before} → ${after}; jump button visible: ${jump}`);
  // Frames while scrolling up through the list, 40 px per frame for 2 seconds.
  const frames = (await page.evaluate(`new Promise((resolve) => {
    const el = document.querySelector('[role="log"]');
    const gaps = [];
    let last = performance.now();
    const start = last;
    const step = (now) => {
      gaps.push(now - last);
      last = now;
      el.scrollTop -= 40;
      if (now - start < 2000) requestAnimationFrame(step);
      else resolve(gaps);
    };
    requestAnimationFrame(step);
  })`)) as number[];
  const sortedGaps = frames.slice(1).toSorted((a, b) => a - b);
  const p95 = sortedGaps[Math.floor(sortedGaps.length * 0.95)] ?? 0;
  console.log(
    `scrolling 10,000 items: ${frames.length} frames in 2 s, p95 frame gap ${p95.toFixed(1)} ms, worst ${sortedGaps.at(-1)?.toFixed(1)} ms`,
  );
  await page.screenshot({ path: path.join(out, 'long-transcript.png') });
  // Expanding a row must push the rows below it down (the row is measured again).
  const toolRow = page.locator('.transcript-row:has(.tool-row)').nth(1);
  await toolRow.getByRole('button').click();
  await page.waitForTimeout(300);
  const overlap = await toolRow.evaluate((row) => {
    const next = row.nextElementSibling;
    const sorted = [...row.parentElement!.children].sort(
      (a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top,
    );
    const after = sorted[sorted.indexOf(row) + 1] ?? next;
    return after ? row.getBoundingClientRect().bottom - after.getBoundingClientRect().top : 0;
  });
  console.log(`expanded tool row overlaps the next row by ${overlap.toFixed(1)} px (≤ 0 is right)`);
  await page.screenshot({ path: path.join(out, 'long-transcript-expanded.png') });
  await context.close();
} finally {
  await look.close();
}
