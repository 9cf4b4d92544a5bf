import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyPatch } from 'diff';
import { afterAll, describe, expect, it } from 'vitest';
import { unifiedDiffOfBytes } from '../../../../../electron/core/diff/bytes-diff.js';
import { generatedPair, seededRandom } from './generated-pairs.js';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-diff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** git's diff from the first hunk on, with the user's git config kept out of it. */
function gitHunks(before: string, after: string): string {
  writeFileSync(path.join(dir, 'before'), before);
  writeFileSync(path.join(dir, 'after'), after);
  const run = spawnSync('git', ['diff', '--no-index', '--no-color', '--no-ext-diff', '-U3', 'before', 'after'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: dir },
  });
  if (run.status !== 0 && run.status !== 1) throw new Error(`git diff failed: ${run.stderr}`);
  return fromFirstHunk(run.stdout);
}

function fromFirstHunk(diff: string): string {
  const at = diff.indexOf('\n@@');
  return at === -1 ? '' : diff.slice(at + 1);
}

const ours = (before: string, after: string) =>
  unifiedDiffOfBytes({ path: 'x', before: Buffer.from(before), after: Buffer.from(after) }).lines.join('');

const hasGit = spawnSync('git', ['--version']).status === 0;

describe.skipIf(!hasGit)('the diff against git diff --no-index -U3', () => {
  it.each([
    [4 * 1024, 1],
    [4 * 1024, 2],
    [32 * 1024, 3],
    [32 * 1024, 4],
    [256 * 1024, 5],
  ])(
    'has the same hunks, labels included, for a %i-byte file with a tenth of its lines edited (seed %i)',
    (bytes, seed) => {
      const { before, after } = generatedPair(bytes, 0.1, seed);
      const expected = gitHunks(before, after);
      expect(expected).not.toBe('');
      expect(fromFirstHunk(ours(before, after))).toBe(expected);
    },
  );

  it('has the same hunks as git when the last line loses or gains its newline', () => {
    for (const [before, after] of [
      ['a\nb\nc', 'a\nb\nc\n'],
      ['a\nb\nc\n', 'a\nB\nc'],
      ['x', 'y'],
    ] as const) {
      expect(fromFirstHunk(ours(before, after))).toBe(gitHunks(before, after));
    }
  });
});

describe('every diff', () => {
  it('turns the old side into the new side when applied (jsdiff as an independent reader)', () => {
    const random = seededRandom(42);
    const alphabet = ['a\n', 'b\n', '\n', '}\n', 'c\r\n', 'end'];
    const text = () =>
      Array.from({ length: Math.floor(random() * 40) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(
        '',
      );
    for (let n = 0; n < 300; n++) {
      const before = text();
      const after = n % 2 ? text() : before.replace(/b/g, () => (random() < 0.5 ? 'B' : 'b'));
      if (before === after) continue;
      expect(applyPatch(before, ours(before, after)), JSON.stringify({ before, after })).toBe(after);
    }
  });
});
