/**
 * `npm start -- FOLDER` (issue 15, item 8): the host opens a session on FOLDER, and the
 * window shows that session's tab with the composer focused, not "No session open" with
 * the session only in the sidebar. Both ways a browser gets there: the URL `npm run serve
 * -- --open FOLDER` prints, and the launch page `npm start` opens the browser on.
 */
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { startWebHost as startHostInProcess } from '../../electron/web/start-web-host.js';
import { freshContext, launchChromium } from './harness/chromium.js';
import { GatehousePage, visible } from './harness/gatehouse-page.js';
import { fakeModelConfig, makeTempFolders, type TempFolders } from './harness/temp-folders.js';
import { startWebHost } from './harness/web-host.js';

let browser: Browser | undefined;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await browser?.close();
});

/** Folders of their own; no model is asked anything here. */
async function folders(): Promise<TempFolders> {
  const made = await makeTempFolders(fakeModelConfig('http://127.0.0.1:9/v1'));
  cleanups.push(() => made.remove());
  return made;
}

/** The page shows FOLDER's tab, selected, and the composer has the focus. */
async function expectSessionShown(ui: GatehousePage, name: string): Promise<void> {
  const tab = await visible(ui.tabs().filter({ hasText: name }), `the tab of ${name}`);
  await expect.poll(() => tab.getAttribute('aria-selected'), { timeout: 30_000 }).toBe('true');
  await visible(ui.composer(), 'the composer');
  await expect
    .poll(() => ui.composer().evaluate((el) => el === el.ownerDocument.activeElement), {
      timeout: 30_000,
      message: 'the composer has the focus',
    })
    .toBe(true);
  expect(await ui.page.getByText('No session open').count()).toBe(0);
  // The session id left the address bar with the token.
  expect(new URL(ui.page.url()).hash).toBe('');
}

describe('npm start -- FOLDER shows its session', () => {
  test('the URL serve --open prints: the tab for FOLDER is open and the composer has the focus', async () => {
    const temp = await folders();
    const folder = await temp.workspace('start-here');
    const host = await startWebHost({ dataDir: temp.dataDir, home: temp.home, extraArgs: ['--open', folder] });
    cleanups.push(() => host.stop());
    expect(host.output()).toContain(`opened a session on ${folder}`);
    const context = await freshContext(browser!);
    cleanups.push(() => context.close());
    const ui = new GatehousePage(await context.newPage());
    await ui.goto(host.url);
    await expectSessionShown(ui, 'start-here');
    await ui.page.keyboard.type('typed at once');
    expect(await ui.composer().inputValue()).toBe('typed at once');
  });

  test("npm start's launch page: the same, and a reload keeps the tab without asking again", async () => {
    const temp = await folders();
    const folder = await temp.workspace('started-ws');
    const host = await startHostInProcess({
      dataDir: temp.dataDir,
      port: 0,
      home: temp.home,
      openFolder: folder,
      env: { PATH: process.env.PATH, HOME: temp.home },
    });
    cleanups.push(() => host.close());
    expect(host.startSession).not.toBeNull();
    const context = await freshContext(browser!);
    cleanups.push(() => context.close());
    const ui = new GatehousePage(await context.newPage());
    await ui.goto(pathToFileURL(await host.launchPage()).href);
    await expectSessionShown(ui, 'started-ws');

    await ui.page.reload();
    await visible(ui.sidebar(), 'the sidebar after the reload');
    const tab = await visible(ui.tabs().filter({ hasText: 'started-ws' }), 'the tab after the reload');
    expect(await tab.getAttribute('aria-selected')).toBe('true');
    expect(await ui.tabs().count()).toBe(1);
  });
});
