/**
 * Issue 34's "done when" for Codex, photographed: the real Codex fixes a failing test in a
 * place of its own, through the real web host in Chromium
 * (test/e2e/harness/real-codex-place-flow.ts), and each step is saved light and dark: its
 * start card (its place writable, the person's folder hidden), the transcript after its
 * writes and its command (no card), the review screen with its diffs, and the review after
 * Apply. The person's folder is checked as it goes: untouched until Apply, then exactly
 * the applied files.
 *   npx tsx test/look/look-codex-place.ts [OUT_FOLDER]
 * OUT_FOLDER defaults to test-results/look; files are named codex-<state>-<scheme>.png.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ensureRendererBuilt } from '../../scripts/renderer-build.js';
import { fixWithCodexInPlace, LOOK_KEY, startCodexPlaceWorld } from '../e2e/harness/real-codex-place-flow.js';

const out = path.resolve(process.argv[2] ?? 'test-results/look');
mkdirSync(out, { recursive: true });
// The web host builds the window only when it is missing: a look photographs the sources as they are.
await ensureRendererBuilt(['missing', 'stale']);
const world = await startCodexPlaceWorld();
const { page } = world.ui;
page.on('pageerror', (e) => console.error('page error:', e.message));
const status = () =>
  execFileSync('git', ['status', '--porcelain'], {
    cwd: world.project,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin' },
  });
const began = Date.now();
try {
  await fixWithCodexInPlace(world, async (state) => {
    if (state === 'transcript' || state === 'review') {
      if (status() !== '') throw new Error(`the person's folder changed before Apply:\n${status()}`);
    }
    if (state === 'applied') console.log(`git status after Apply:\n${status()}`);
    if ((await page.content()).includes(LOOK_KEY)) throw new Error('the key reached the window');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // Two frames: the scheme's styles applied and painted.
      await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
      const file = path.join(out, `codex-${state}-${scheme}.png`);
      await page.screenshot({ path: file });
      console.log(`saved ${file}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });
  console.log(`the flow took ${((Date.now() - began) / 1000).toFixed(1)} s`);
} catch (err) {
  await page.screenshot({ path: path.join(out, 'codex-FAILED.png') }).catch(() => undefined);
  console.error(world.host.output().slice(-4000));
  throw err;
} finally {
  await world.close();
}
