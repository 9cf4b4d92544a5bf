/**
 * The confinement policy of tests that exercise the tools without a sandbox: the app
 * always has one door (a NoSandbox where none can run), so these say why, as it would.
 */
import type { ConfinementPolicy } from '../../electron/core/sandbox/confinement.js';
import { NoSandbox } from '../../electron/core/sandbox/no-sandbox.js';

export function unconfined(reason = 'these tests run the tools without a sandbox'): ConfinementPolicy {
  return { sandbox: new NoSandbox(reason), refuseUnconfined: () => false };
}
