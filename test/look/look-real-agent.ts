/**
 * Issue 33's "done when", photographed: the real Claude Code fixes a failing test in the
 * window, through Gatehouse's cards (test/e2e/harness/real-claude-flow.ts), and each step
 * is saved light and dark: the start card, the write card (side-by-side diff), the command
 * card (the exact argv), the transcript once the test passes, the turn undone, and then,
 * with its model host gone, the line that says so while the CLI retries.
 *   npx tsx test/look/look-real-agent.ts [OUT_FOLDER]
 * OUT_FOLDER defaults to test-results/look; files are named real-claude-<state>-<scheme>.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { visible } from '../e2e/harness/gatehouse-page.js';
import { fixWithClaude, startFlowWorld } from '../e2e/harness/real-claude-flow.js';

const out = path.resolve(process.argv[2] ?? 'test-results/look');
mkdirSync(out, { recursive: true });
const world = await startFlowWorld();
const { page } = world.ui;
page.on('pageerror', (e) => console.error('page error:', e.message));
const began = Date.now();
try {
  const shoot = async (state: string) => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // Two frames: the scheme's styles applied and painted.
      await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
      const file = path.join(out, `real-claude-${state}-${scheme}.png`);
      await page.screenshot({ path: file });
      console.log(`saved ${file}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  };
  await fixWithClaude(world, shoot);
  console.log(`the flow took ${((Date.now() - began) / 1000).toFixed(1)} s`);

  // Then its model host goes away: the transcript says so while the CLI retries.
  await world.fake.close();
  await page.getByRole('dialog', { name: 'Changes' }).getByRole('button', { name: 'Close' }).click();
  await world.ui.send('run the test again');
  await visible(
    page.getByText(/cannot reach 127\.0\.0\.1:\d+ \(connection refused\); it is retrying/),
    'the line',
    60_000,
  );
  await shoot('unreachable');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
} catch (err) {
  await page.screenshot({ path: path.join(out, 'real-claude-FAILED.png') }).catch(() => undefined);
  console.error(world.host.output().slice(-4000));
  throw err;
} finally {
  await world.close();
}
