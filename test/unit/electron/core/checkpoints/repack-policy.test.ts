/**
 * The background packing never outlives its owner: dispose awaits a packing under way,
 * one queued behind it never starts, and none starts after.
 */
import { describe, expect, it } from 'vitest';
import { RepackPolicy, STORES_DISPOSED } from '../../../../../electron/core/checkpoints/repack-policy.js';
import { StoreLocks } from '../../../../../electron/core/checkpoints/store-lock.js';
import { fakeShadow, noteSnapshots } from './repack-fake-shadow.js';

const STORE = '/var/tmp/gatehouse-repack-policy-store';
/** CHECK_EVERY_SNAPSHOTS in repack-policy.ts. */
const ENOUGH = 20;

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('RepackPolicy', () => {
  it('looks at the store once enough snapshots wrote to it', async () => {
    const policy = new RepackPolicy(new StoreLocks());
    const fake = fakeShadow(STORE);
    noteSnapshots((...a) => policy.noteWrites(...a), fake.shadow, ENOUGH - 1);
    await policy.tidied(STORE);
    expect(fake.commands).toEqual([]);
    noteSnapshots((...a) => policy.noteWrites(...a), fake.shadow, 1);
    await policy.tidied(STORE);
    expect(fake.commands).toEqual(['count-objects -v']);
  });

  it('on dispose, awaits the packing under way and never starts the one queued behind it', async () => {
    const policy = new RepackPolicy(new StoreLocks());
    const fake = fakeShadow(STORE, { held: true });
    noteSnapshots((...a) => policy.noteWrites(...a), fake.shadow, ENOUGH);
    await settle();
    expect(fake.commands).toEqual(['count-objects -v']); // under way, held
    const queued = policy.tidyNow(fake.shadow);
    queued.catch(() => undefined);
    let disposed = false;
    const disposing = policy.dispose().then(() => (disposed = true));
    await settle();
    expect(disposed).toBe(false);
    fake.release();
    await disposing;
    await expect(queued).rejects.toThrow(STORES_DISPOSED);
    expect(fake.commands).toEqual(['count-objects -v']);
  });

  it('starts no packing after dispose, and says why when one is asked for', async () => {
    const policy = new RepackPolicy(new StoreLocks());
    const fake = fakeShadow(STORE);
    await policy.dispose();
    noteSnapshots((...a) => policy.noteWrites(...a), fake.shadow, ENOUGH);
    await policy.tidied(STORE);
    await expect(policy.tidyNow(fake.shadow)).rejects.toThrow(STORES_DISPOSED);
    expect(fake.commands).toEqual([]);
  });
});
