/** /proc/<pid>/stat read as the kernel writes it, whatever the command name holds. */
import { describe, expect, it } from 'vitest';
import { parseProcStat } from '../../../../../electron/core/procfs/proc-stat.js';

describe('parseProcStat', () => {
  it('reads /proc/<pid>/stat after the last parenthesis of the command name', () => {
    expect(parseProcStat('4242 (a (weird) ) name) Z 17 4242 4200 0 -1 4194560')).toEqual({
      state: 'Z',
      ppid: 17,
      pgrp: 4242,
      session: 4200,
    });
    expect(parseProcStat('garbage')).toBeNull();
    expect(parseProcStat('1 (x) S')).toBeNull();
  });
});
