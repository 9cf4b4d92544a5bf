/**
 * The core lets go of its checkpoint stores with everything else: a store asked for after
 * dispose is refused in words, so no background packing starts once the app quits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { STORES_DISPOSED } from '../../../../electron/core/checkpoints/repack-policy.js';
import { startHarness, type Harness } from './core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the core’s dispose', () => {
  it('disposes its checkpoint stores: none opens after', async () => {
    h = await startHarness();
    const stores = h.core.checkpoints;
    await h.core.dispose();
    await expect(stores.access('session-1', h.workspace).open()).rejects.toThrow(STORES_DISPOSED);
  });
});
