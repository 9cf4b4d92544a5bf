import { describe, expect, it } from 'vitest';
import { MAX_BREAKPOINTS, messageBreakpoints } from '../../../../../electron/core/context/breakpoints.js';

const ROLES = ['user', 'assistant', 'tool'] as const;

/** Every role sequence exactly `n` long. */
function sequences(n: number): string[][] {
  let all: string[][] = [[]];
  for (let i = 0; i < n; i++) all = all.flatMap((seq) => ROLES.map((role) => [...seq, role]));
  return all;
}

describe('cache breakpoint placement', () => {
  it('ends one on the last message, one where the previous request ended, one at the frozen head', () => {
    const roles = ['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool'];
    // The previous request ended with the tool results before the latest assistant message.
    expect(messageBreakpoints(roles, 2)).toEqual([2, 4, 6]);
  });

  it('after a new user message, the previous request ended before the last assistant message', () => {
    expect(messageBreakpoints(['user', 'assistant', 'tool', 'assistant', 'user'], -1)).toEqual([2, 4]);
  });

  it('places none on an empty conversation and one on a lone message', () => {
    expect(messageBreakpoints([], -1)).toEqual([]);
    expect(messageBreakpoints(['user'], -1)).toEqual([0]);
  });

  it('never gives the messages more than three (the system prompt takes the fourth), for every sequence up to 8 messages', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (let n = 0; n <= 8; n++) {
      for (const roles of sequences(n)) {
        for (let frozen = -1; frozen < n; frozen++) {
          const marks = messageBreakpoints(roles, frozen);
          const ok =
            marks.length <= MAX_BREAKPOINTS - 1 &&
            new Set(marks).size === marks.length &&
            marks.every((i, k) => i >= 0 && i < n && (k === 0 || marks[k - 1]! < i)) &&
            (n === 0 || marks.includes(n - 1)) &&
            (frozen < 0 || marks.includes(frozen));
          if (!ok) wrong.push(`${roles.join(',')} frozen ${frozen}: ${marks.join(',')}`);
          checked++;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(50_000);
  });
});
