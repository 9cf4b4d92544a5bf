/**
 * One file's unified diff between two snapshots, in git's own format (what diff2html
 * reads), with DIFF_CONTEXT_LINES of context and cut like a card's: whole up to
 * DIFF_WHOLE_MAX_BYTES, else its first DIFF_TRUNCATED_LINES lines. No external diff and no
 * textconv run; a binary file, or one no snapshot holds (over the size cap, or named in
 * bytes that are not UTF-8), has none.
 */
import { DIFF_CONTEXT_LINES, DIFF_TRUNCATED_LINES, DIFF_WHOLE_MAX_BYTES } from '../../../shared/limits.js';
import type { LeftOutReader } from './left-out-reader.js';
import { hasEscapedBytes } from './path-names.js';
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';

export interface FileDiff {
  diff: string | null;
  truncated: boolean;
}

const NONE: FileDiff = { diff: null, truncated: false };

export async function fileDiff(
  shadow: ShadowGit,
  records: LeftOutReader,
  from: string,
  to: string,
  path: string,
): Promise<FileDiff> {
  const [before, after] = await Promise.all([records.read(from), records.read(to)]);
  if (before.tooLarge.has(path) || after.tooLarge.has(path) || hasEscapedBytes(path)) return NONE;
  const { stdout } = await shadow.run({
    what: `diff ${path}`,
    args: [
      'diff-tree',
      '-p',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--no-renames',
      `-U${DIFF_CONTEXT_LINES}`,
      from,
      to,
      '--',
      path,
    ],
    timeoutMs: LONG_TIMEOUT_MS,
  });
  return cutDiff(stdout.toString('utf8'));
}

/** Whole, cut, or none for a binary file (git's "Binary files … differ"). */
export function cutDiff(text: string): FileDiff {
  if (/^Binary files .* differ$/m.test(text) || /^GIT binary patch$/m.test(text)) return NONE;
  if (Buffer.byteLength(text, 'utf8') <= DIFF_WHOLE_MAX_BYTES) return { diff: text, truncated: false };
  const lines = text.split('\n').slice(0, DIFF_TRUNCATED_LINES);
  return { diff: `${lines.join('\n')}\n`, truncated: true };
}
