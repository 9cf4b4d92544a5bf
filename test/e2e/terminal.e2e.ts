/**
 * The terminal panel through the real web host in Chromium: Ctrl+` opens the session's
 * shell in its workspace, a typed command's output reads back from the real xterm.js
 * screen, the pty follows the panel's size, and closing the tab kills the shell.
 */
import { describe, expect, test } from 'vitest';
import type { Locator } from 'playwright-core';
import { useWorld } from './harness/e2e-world.js';
import { visible } from './harness/gatehouse-page.js';
import { waitUntil } from './harness/wait-until.js';
import { pidAlive } from '../../electron/core/process/pid-alive.js';

const world = useWorld('terminal');

/** The one browser global the spec uses inside the page (the root tsconfig has no DOM types). */
interface BrowserWindow {
  getComputedStyle(element: unknown): { backgroundColor: string };
}

/** What the xterm.js screen shows (its DOM renderer keeps one element per row). */
const screenText = (panel: Locator) => panel.locator('.xterm-rows').innerText();

async function screenMatch(panel: Locator, pattern: RegExp, what: string): Promise<RegExpMatchArray> {
  const text = await waitUntil(
    () => screenText(panel),
    (t) => pattern.test(t),
    what,
  );
  return text.match(pattern)!;
}

describe('the terminal panel through the web host', () => {
  test('runs a typed command in the workspace, follows resizes, and dies with its tab', async () => {
    const { ui } = world;
    const page = ui.page;
    const ws = await world.folders.workspace('terminal-ws', { 'only-in-this-workspace.txt': 'x' });
    await ui.openWorkspace(ws);

    await page.keyboard.press('Control+Backquote');
    const panel = await visible(
      page.getByRole('region', { name: 'Terminal', exact: true }),
      'the terminal panel after Ctrl+`',
    );
    await visible(panel.getByText('your shell — not gated'), 'the panel saying it is not gated');
    await visible(panel.locator('.xterm-rows'), 'the xterm.js screen');

    await panel.locator('.xterm').click();
    // $((6*7)) so the echo of the typed line never matches what the shell printed.
    await page.keyboard.type('echo from-the-shell-$((6*7)); pwd; ls; echo pid=$$');
    await page.keyboard.press('Enter');
    await screenMatch(panel, /from-the-shell-42/, 'the command’s output on the terminal screen');
    // pid= is printed last, so once it is on screen the pwd and ls output above it are too.
    const pid = Number((await screenMatch(panel, /pid=(\d+)/, 'the shell’s pid'))[1]);
    const text = await screenText(panel);
    expect(text).toContain(ws);
    expect(text).toContain('only-in-this-workspace.txt');
    expect(pidAlive(pid)).toBe(true);
    await world.shot('typed-command');

    // The screen's colours follow the OS theme while the shell runs.
    const background = () =>
      panel
        .locator('.xterm-scrollable-element')
        .first()
        .evaluate((e) => (globalThis as unknown as BrowserWindow).getComputedStyle(e).backgroundColor);
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitUntil(background, (now) => now !== light, 'the terminal to take the dark theme');
    await world.shot('dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.keyboard.type('clear; echo size=$(stty size)');
    await page.keyboard.press('Enter');
    const before = (await screenMatch(panel, /size=(\d+ \d+)/, 'the pty’s size'))[1];
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width + 300, height: viewport.height + 200 });
    await waitUntil(
      async () => {
        await page.keyboard.type('clear; echo size=$(stty size)');
        await page.keyboard.press('Enter');
        return (await screenMatch(panel, /size=(\d+ \d+)/, 'the pty’s size')).at(1);
      },
      (after) => after !== before,
      `the pty’s size to change from ${before} after the window grew`,
    );
    await page.setViewportSize(viewport);

    await page.keyboard.press('Control+w');
    await waitUntil(
      () => pidAlive(pid),
      (isAlive) => !isAlive,
      'the shell to be killed after its tab closed',
    );
  });
});
