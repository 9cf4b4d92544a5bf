/**
 * Everything one e2e file runs against, set up once for the file: the fake model in this
 * process, temp folders whose settings point at it, the real web host as a child process,
 * and Chromium with a fresh context on the host's URL. Torn down after the file; on a
 * failed test the page is photographed and the host's output printed.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { startFakeModel, type FakeModel } from '../../fake-model/server.js';
import { freshContext, launchChromium } from './chromium.js';
import { GatehousePage } from './gatehouse-page.js';
import { screenshot } from './screenshots.js';
import { fakeModelConfig, makeTempFolders, type TempFolders } from './temp-folders.js';
import { restartWebHost, startWebHost, type WebHost } from './web-host.js';

export interface World {
  readonly fake: FakeModel;
  readonly folders: TempFolders;
  readonly host: WebHost;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly ui: GatehousePage;
  /** Saves test-results/e2e/<spec>-<state>.png. */
  shot(state: string): Promise<string>;
  /**
   * kill -9 the host, run `whileDown` (e.g. see the page notice), and start the host again
   * on the same data folder (same port when it can).
   */
  crashAndRestartHost(whileDown?: () => Promise<void>): Promise<WebHost>;
}

/** `shown`: places shown to confined commands from the start (see makeTempFolders). */
export function useWorld(spec: string, shown: readonly string[] = []): World {
  let fake: FakeModel | undefined;
  let folders: TempFolders | undefined;
  let host: WebHost | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let ui: GatehousePage | undefined;
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`e2e world: ${what} is not set up (did beforeAll fail?)`);
    return value;
  };
  const hostOptions = () => ({ dataDir: need(folders, 'folders').dataDir, home: need(folders, 'folders').home });

  beforeAll(async () => {
    fake = await startFakeModel();
    folders = await makeTempFolders(fakeModelConfig(fake.openaiBaseURL), shown);
    // One after the other, so a failure of either leaves nothing running that afterAll cannot see.
    browser = await launchChromium();
    host = await startWebHost(hostOptions());
    context = await freshContext(browser);
    ui = new GatehousePage(await context.newPage());
    await ui.goto(host.url);
  });

  afterEach(async (ctx) => {
    if (!ctx.task.result?.errors?.length) return;
    const name = ctx.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
    if (ui) await screenshot(ui.page, spec, `FAILED-${name}`).catch(() => undefined);
    if (host) console.error(`web host output (${spec}):\n${host.output().slice(-4000)}`);
  });

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await host?.stop().catch(() => undefined);
    await fake?.close().catch(() => undefined);
    await folders?.remove().catch(() => undefined);
  });

  return {
    get fake() {
      return need(fake, 'the fake model');
    },
    get folders() {
      return need(folders, 'the temp folders');
    },
    get host() {
      return need(host, 'the web host');
    },
    get browser() {
      return need(browser, 'Chromium');
    },
    get context() {
      return need(context, 'the browser context');
    },
    get ui() {
      return need(ui, 'the page');
    },
    shot: (state) => screenshot(need(ui, 'the page').page, spec, state),
    async crashAndRestartHost(whileDown) {
      const old = need(host, 'the web host');
      await old.kill();
      await whileDown?.();
      host = await restartWebHost(old, hostOptions());
      return host;
    },
  };
}
