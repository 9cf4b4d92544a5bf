/**
 * The page loads under the host's strict CSP (no 'unsafe-eval') without a single
 * violation: zod is jitless, so it never even probes `new Function` (issue 32, item 10).
 */
import { expect, test } from 'vitest';
import { useWorld } from './harness/e2e-world.js';
import { GatehousePage } from './harness/gatehouse-page.js';

const world = useWorld('csp');

/** Runs before the app's scripts: keeps every violation the page reports. */
const RECORD_VIOLATIONS = `window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) =>
  window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));`;

test('a first load raises no Content-Security-Policy violation', async () => {
  await world.context.addInitScript(RECORD_VIOLATIONS);
  const ui = new GatehousePage(await world.context.newPage());
  await ui.goto(world.host.url);
  await ui.page.waitForLoadState('networkidle');
  expect(await ui.page.evaluate('window.cspViolations')).toEqual([]);
});
