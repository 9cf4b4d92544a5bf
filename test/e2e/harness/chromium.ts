/**
 * Debian's Chromium driven by playwright-core. Playwright's own browser download is never
 * used (no network here, and CI installs Debian's package), so a missing binary is a
 * failure that says what to install, never a silent skip.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.GATEHOUSE_CHROMIUM ?? '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `The end-to-end tests need Debian's Chromium at ${CHROMIUM_PATH} (apt-get install chromium), or GATEHOUSE_CHROMIUM pointing at one. It is not there.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
}

export interface ContextOptions {
  colorScheme?: 'light' | 'dark';
  width?: number;
  height?: number;
}

/** A fresh context per test file: its own cookies and storage, nothing shared. */
export async function freshContext(browser: Browser, options: ContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
  });
}
