/** Screenshots of the states a person would see, under test-results/e2e/ (not committed). */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from './repo-root.js';

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'e2e');

/** Saves test-results/e2e/<spec>-<state>.png and returns its path. */
export async function screenshot(page: Page, spec: string, state: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${spec}-${state}.png`);
  await page.screenshot({ path: file });
  return file;
}
