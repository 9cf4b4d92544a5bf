import { describe, expect, it } from 'vitest';
import type { Push } from '../../../../shared/contract.js';
import { Pushes } from '../../../../electron/core/pushes.js';

const push: Push = { name: 'session.compacting', payload: { id: 's1', compacting: true } };

describe("the core's pushes", () => {
  it('reaches every listener, and a listener that throws neither stops the others nor the emitter', () => {
    const unexpected: unknown[] = [];
    const pushes = new Pushes((err) => unexpected.push(err));
    const seen: string[] = [];
    pushes.subscribe(() => {
      throw new Error('a broken window');
    });
    pushes.subscribe((p) => seen.push(p.name));
    pushes.emit(push);
    expect(seen).toEqual(['session.compacting']);
    expect(unexpected).toEqual([new Error('a broken window')]);
  });

  it('stops reaching a listener once it unsubscribes', () => {
    const pushes = new Pushes();
    const seen: Push[] = [];
    const stop = pushes.subscribe((p) => seen.push(p));
    pushes.emit(push);
    stop();
    pushes.emit(push);
    expect(seen).toHaveLength(1);
  });
});
