/**
 * pidAlive against real processes: a zombie is not alive though signal 0 still reaches
 * it (SPEC §11), and a stopped process is.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { pidAlive } from '../../../../../electron/core/process/pid-alive.js';
import { readProcStat } from '../../../../../electron/core/procfs/proc-stat.js';
import { makeZombie } from './zombie.js';

describe.runIf(process.platform === 'linux')('pidAlive on Linux', () => {
  it('says a zombie is dead while kill(pid, 0) still succeeds', async () => {
    const zombie = await makeZombie();
    try {
      expect(readProcStat(zombie.pid)?.state).toBe('Z');
      expect(() => process.kill(zombie.pid, 0)).not.toThrow();
      expect(pidAlive(zombie.pid)).toBe(false);
      // Its stopped parent runs nothing either, but it is not dead: it can be continued.
      expect(readProcStat(zombie.parent.pid!)?.state).toBe('T');
      expect(pidAlive(zombie.parent.pid!)).toBe(true);
    } finally {
      await zombie.release();
    }
    expect(() => process.kill(zombie.pid, 0)).toThrow();
  });

  it('says a running process is alive and an exited, reaped one is not', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    expect(pidAlive(child.pid!)).toBe(true);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(pidAlive(child.pid!)).toBe(false);
  });
});

describe('pidAlive', () => {
  it.each([0, -1, 1.5, Number.NaN, 2 ** 60])('refuses a pid that cannot be one: %s', (pid) => {
    expect(pidAlive(pid)).toBe(false);
  });
});
