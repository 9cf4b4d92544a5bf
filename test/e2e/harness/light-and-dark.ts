/**
 * A screen photographed light and dark and checked with axe in both, and a card's answers
 * armed before it is photographed: shared by the end-to-end files that show a card.
 */
import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations, describeViolations } from './axe.js';
import type { World } from './e2e-world.js';
import { waitUntil } from './wait-until.js';

/** Two animation frames: the new colour scheme's styles have been applied and painted. */
const AFTER_PAINT = 'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))';

/** Photographs the screen light and dark, and fails on any axe violation in either. */
export async function shotsAndAxe(world: World, state: string): Promise<void> {
  const { page } = world.ui;
  const reports: string[] = [];
  try {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.evaluate(AFTER_PAINT);
      await world.shot(`${state}-${colorScheme}`);
      const violations = await axeViolations(page);
      if (violations.length > 0) reports.push(describeViolations(`${state}, ${colorScheme}`, violations));
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
  expect(reports, reports.join('\n')).toEqual([]);
}

/**
 * Waits until a card's answers are armed, so the photographs show the card a person acts
 * on; on a card being edited the allows stay inert, so its Deny tells.
 */
export async function armed(card: Locator, button = 'Allow once'): Promise<void> {
  const answer = card.getByRole('button', { name: button, exact: true });
  await waitUntil(
    () => answer.evaluate((el) => el.getAttribute('aria-disabled') !== 'true'),
    Boolean,
    'the card armed',
  );
}
