/**
 * Reading `git status --porcelain=v2 -z` on a session's index: what to stage again, what to
 * drop, what is new, which folders are nested repositories, what is ignored, and whether
 * the index is ahead of the last snapshot.
 */
import { describe, expect, it } from 'vitest';
import { encodePath } from '../../../../../electron/core/checkpoints/path-names.js';
import { parseStatus as parseBytes } from '../../../../../electron/core/checkpoints/workspace-status.js';

const parseStatus = (text: string) => parseBytes(Buffer.from(text, 'utf8'));

const Z = '0'.repeat(40);
const ordinary = (xy: string, p: string) => `1 ${xy} N... 100644 100644 100644 ${Z} ${Z} ${p}`;

describe('parseStatus', () => {
  it('sorts each record by what the snapshot must do with it', () => {
    const text = [
      ordinary('.M', 'src/changed file.ts'),
      ordinary('.T', 'became-link'),
      ordinary('.D', 'gone.txt'),
      '? new.txt',
      '? vendor/lib/',
      '! node_modules/',
      '! debug.log',
      '',
    ].join('\0');
    expect(parseStatus(text)).toEqual({
      changed: ['src/changed file.ts', 'became-link'],
      removed: ['gone.txt'],
      untracked: ['new.txt'],
      nested: ['vendor/lib'],
      ignored: ['node_modules/', 'debug.log'],
      indexAhead: false,
    });
  });

  it('notices an index ahead of HEAD (a snapshot cut short after staging)', () => {
    expect(parseStatus(`${ordinary('M.', 'a.txt')}\0`)).toMatchObject({ changed: [], indexAhead: true });
    expect(parseStatus(`${ordinary('A.', 'b.txt')}\0`).indexAhead).toBe(true);
  });

  it('keeps paths with spaces whole and skips the original path of a rename record', () => {
    const rename = `2 .M N... 100644 100644 100644 ${Z} ${Z} R100 new name.txt\0old name.txt`;
    expect(parseStatus(`${rename}\0? after.txt\0`)).toMatchObject({
      changed: ['new name.txt'],
      untracked: ['after.txt'],
    });
  });

  it('keeps a name that is not UTF-8 as a string that leads back to its bytes', () => {
    const latin1 = Buffer.from('caf\xe9.txt', 'latin1');
    const output = Buffer.concat([Buffer.from('? '), latin1, Buffer.from('\0? plain.txt\0')]);
    const { untracked } = parseBytes(output);
    expect(untracked).toEqual(['caf\udce9.txt', 'plain.txt']);
    expect(encodePath(untracked[0] as string)).toEqual(latin1);
  });

  it('reads nothing from an empty status', () => {
    expect(parseStatus('')).toEqual({
      changed: [],
      removed: [],
      untracked: [],
      nested: [],
      ignored: [],
      indexAhead: false,
    });
  });
});
