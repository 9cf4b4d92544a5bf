/**
 * What every look script starts with: the look harness's folder (test/unit/renderer/look)
 * served by Vite on a free loopback port, Debian's Chromium, and the folder the
 * screenshots go to (test-results/look/).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { Browser } from 'playwright-core';
import { createServer } from 'vite';
import { launchChromium } from '../e2e/harness/chromium.js';

export interface Look {
  /** The page's URL, e.g. http://127.0.0.1:PORT/changes.html. */
  url: string;
  browser: Browser;
  /** Where screenshots go. */
  out: string;
  close(): Promise<void>;
}

export async function openLook(page: string): Promise<Look> {
  const out = path.resolve('test-results/look');
  mkdirSync(out, { recursive: true });
  const server = await createServer({
    root: path.resolve('test/unit/renderer/look'),
    configFile: false,
    plugins: [react()],
    logLevel: 'warn',
    server: { port: 0, host: '127.0.0.1', fs: { allow: [path.resolve('.')] } },
  });
  await server.listen();
  const address = server.httpServer?.address();
  const url = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}/${page}` : '';
  const browser = await launchChromium();
  return {
    url,
    browser,
    out,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
