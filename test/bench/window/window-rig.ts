/**
 * What a window benchmark runs against, outside vitest: temp folders whose settings point
 * at a model server, the real web host as a child process, and Chromium on its URL with
 * the bench's probes injected before the app's own scripts. The same pieces as the e2e suite.
 */
import os from 'node:os';
import type { Browser, CDPSession } from 'playwright-core';
import type { ModelConfig } from '../../../shared/contract.js';
import { freshContext, launchChromium } from '../../e2e/harness/chromium.js';
import { GatehousePage } from '../../e2e/harness/gatehouse-page.js';
import { makeTempFolders, type TempFolders } from '../../e2e/harness/temp-folders.js';
import { startWebHost, type WebHost } from '../../e2e/harness/web-host.js';

export interface RigOptions {
  model: ModelConfig;
  /** Scripts run in the page before the app's (probes). */
  initScripts?: string[];
  /** Runs on the data folder before the host starts (e.g. writes a session log). */
  prepare?: (folders: TempFolders) => Promise<void>;
  /** Load the page only when the bench says so (to watch the first load). */
  deferLoad?: boolean;
}

export interface WindowRig {
  folders: TempFolders;
  host: WebHost;
  browser: Browser;
  ui: GatehousePage;
  cdp: CDPSession;
  close(): Promise<void>;
}

export async function startWindowRig(options: RigOptions): Promise<WindowRig> {
  const folders = await makeTempFolders(options.model);
  await options.prepare?.(folders);
  const browser = await launchChromium();
  const host = await startWebHost({ dataDir: folders.dataDir, home: folders.home }).catch(async (err: unknown) => {
    await browser.close();
    throw err;
  });
  const context = await freshContext(browser);
  for (const script of options.initScripts ?? []) await context.addInitScript(script);
  const page = await context.newPage();
  const ui = new GatehousePage(page);
  const cdp = await context.newCDPSession(page);
  if (!options.deferLoad) await ui.goto(host.url);
  return {
    folders,
    host,
    browser,
    ui,
    cdp,
    async close() {
      // Other work on the machine moves these figures a lot; say how busy it was.
      const [load] = os.loadavg();
      console.log(`(load average ${load!.toFixed(1)} on ${os.cpus().length} cores while measuring)`);
      await browser.close().catch(() => undefined);
      await host.stop().catch(() => undefined);
      await folders.remove().catch(() => undefined);
    },
  };
}

/** The page's JS heap after a full garbage collection, in bytes. */
export async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = await cdp.send('Runtime.getHeapUsage');
  return usage.usedSize;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
