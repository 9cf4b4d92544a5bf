import { describe, expect, it } from 'vitest';
import { GroupSync } from '../../../../../electron/core/log/group-sync.js';

/** A sync whose runs the test finishes by hand, recording when each began. */
function manualSync() {
  const runs: { finish: () => void; fail: (e: Error) => void }[] = [];
  const sync = () =>
    new Promise<void>((resolve, reject) => {
      runs.push({ finish: resolve, fail: reject });
    });
  return { runs, sync };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('GroupSync', () => {
  it('answers requests made during a running sync with one later sync, not the running one', async () => {
    const { runs, sync } = manualSync();
    const group = new GroupSync(sync);
    const first = group.request();
    let laterDone = false;
    const later = [group.request(), group.request(), group.request()];
    void Promise.all(later).then(() => (laterDone = true));
    expect(runs).toHaveLength(1);

    runs[0]?.finish();
    await first;
    await tick();
    expect(laterDone).toBe(false);
    expect(runs).toHaveLength(2);

    runs[1]?.finish();
    await Promise.all(later);
    expect(runs).toHaveLength(2);
  });

  it('starts a fresh sync for a request after all syncs finished', async () => {
    const { runs, sync } = manualSync();
    const group = new GroupSync(sync);
    const a = group.request();
    runs[0]?.finish();
    await a;
    const b = group.request();
    expect(runs).toHaveLength(2);
    runs[1]?.finish();
    await b;
  });

  it('rejects the callers of a failed sync and still runs the queued one', async () => {
    const { runs, sync } = manualSync();
    const group = new GroupSync(sync);
    const a = group.request();
    const b = group.request();
    runs[0]?.fail(new Error('EIO'));
    await expect(a).rejects.toThrow('EIO');
    await tick();
    runs[1]?.finish();
    await expect(b).resolves.toBeUndefined();
  });
});
