import { describe, expect, it } from 'vitest';
import { DisposableStore } from '../../../../electron/core/lifecycle.js';

function part(name: string, gone: string[], fail = false) {
  return {
    dispose: async () => {
      await new Promise((r) => setTimeout(r, 5));
      gone.push(name);
      if (fail) throw new Error(`${name} failed`);
    },
  };
}

describe('a DisposableStore', () => {
  it('disposes its parts once, the last added first, each after the one before', async () => {
    const gone: string[] = [];
    const store = new DisposableStore();
    for (const name of ['logs', 'sessions', 'shells']) store.add(part(name, gone));
    await Promise.all([store.dispose(), store.dispose()]);
    expect(gone).toEqual(['shells', 'sessions', 'logs']);
  });

  it('still disposes the rest when one fails, then throws the first failure', async () => {
    const gone: string[] = [];
    const store = new DisposableStore();
    store.add(part('a', gone));
    store.add(part('b', gone, true));
    store.add(part('c', gone, true));
    await expect(store.dispose()).rejects.toThrow('c failed');
    expect(gone).toEqual(['c', 'b', 'a']);
  });

  it('disposes at once a part added after it was disposed', async () => {
    const gone: string[] = [];
    const store = new DisposableStore();
    await store.dispose();
    store.add(part('late', gone));
    await expect.poll(() => gone).toEqual(['late']);
  });
});
