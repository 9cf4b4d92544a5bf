import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../../../../../electron/core/files/serial-queue.js';

/** A job that runs until its release is called, noting when it starts and ends. */
function heldJob(name: string, trail: string[]): { job: () => Promise<string>; release: () => void } {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const job = async () => {
    trail.push(`${name} starts`);
    await held;
    trail.push(`${name} ends`);
    return name;
  };
  return { job, release };
}

describe('SerialQueue', () => {
  it('runs one job at a time, in the order they were handed in', async () => {
    const queue = new SerialQueue();
    const trail: string[] = [];
    const a = heldJob('a', trail);
    const b = heldJob('b', trail);
    const ran = [queue.run(a.job), queue.run(b.job)];
    await new Promise((r) => setImmediate(r));
    expect(trail).toEqual(['a starts']);
    b.release();
    a.release();
    expect(await Promise.all(ran)).toEqual(['a', 'b']);
    expect(trail).toEqual(['a starts', 'a ends', 'b starts', 'b ends']);
  });

  it('rejects only the failed job’s caller: the next job still runs', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(() => Promise.reject(new Error('boom')));
    const next = queue.run(async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ran');
  });

  it('runs the next job even when a job throws before its first await', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(() => {
      throw new Error('at once');
    });
    await expect(failed).rejects.toThrow('at once');
    expect(await queue.run(async () => 'ran')).toBe('ran');
  });

  it('is idle only when no job is queued or running', async () => {
    const queue = new SerialQueue();
    expect(queue.idle).toBe(true);
    const a = heldJob('a', []);
    const ran = queue.run(a.job);
    const next = queue.run(async () => undefined);
    expect(queue.idle).toBe(false);
    a.release();
    await ran;
    expect(queue.idle).toBe(false);
    await next;
    expect(queue.idle).toBe(true);
  });
});
