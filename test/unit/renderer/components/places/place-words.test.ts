/** The words a place and an apply are said in (SPEC §15), the same in the tab, the review, the transcript and Settings. */
import { describe, expect, it } from 'vitest';
import {
  outcomeLines,
  placeLine,
  placeName,
  tabPlaceWords,
  untickableWhy,
} from '../../../../../renderer/src/components/places/place-words';
import { APPLIED, CONFLICT, COPY, READY, WORKTREE } from './place-fixtures';

describe('the words for a place', () => {
  it('names a worktree by its branch and a copy as a copy', () => {
    expect(placeName(WORKTREE)).toBe('gatehouse/fix-the-calculator');
    expect(placeName(COPY)).toBe('a copy');
    expect(tabPlaceWords(COPY)).toBe('in a copy');
    expect(placeLine(WORKTREE)).toBe('branch gatehouse/fix-the-calculator, a worktree of /home/me/src/calc');
    expect(placeLine(COPY)).toBe('a copy of /home/me/notes');
  });

  it('says why a conflict or an applied file takes no tick, and nothing for a ready one', () => {
    expect(untickableWhy(READY)).toBeNull();
    expect(untickableWhy(CONFLICT)).toMatch(/^You changed this file since the session began/);
    expect(untickableWhy(APPLIED)).toBe('Your folder already has exactly this version.');
  });
});

describe('the words for what an apply did', () => {
  it('says the files applied, the commit, conflicts and failures, one line each', () => {
    expect(
      outcomeLines(
        {
          applied: ['a.ts', 'b.ts'],
          conflicts: ['c.ts'],
          failed: [{ path: 'd.bin', reason: 'its folder is a link' }],
          commit: '0123456789abcdef',
        },
        '/home/me/src/app',
      ),
    ).toEqual([
      'Applied 2 files to /home/me/src/app.',
      'Made commit 0123456 on your branch.',
      'Left alone, changed in your folder since the review: c.ts. Review again to see them as conflicts.',
      'Not applied: d.bin: its folder is a link',
    ]);
  });

  it('says first that an apply the app stopped in was checked after the restart', () => {
    expect(
      outcomeLines({
        interrupted: true,
        applied: ['a.ts'],
        conflicts: [],
        failed: [{ path: 'b.ts', reason: 'Gatehouse stopped before this file was written' }],
      }),
    ).toEqual([
      'Gatehouse stopped during this apply; after the restart it checked each file.',
      'Applied 1 file.',
      'Not applied: b.ts: Gatehouse stopped before this file was written',
    ]);
  });

  it('says an apply that wrote nothing wrote nothing', () => {
    expect(outcomeLines({ applied: [], conflicts: ['a.ts'], failed: [] })[0]).toBe('Applied no files.');
  });
});
