/**
 * The core's door to the diff (shared/diff): the two sides as bytes. Both valid UTF-8, they
 * are diffed as text; otherwise keyed by their bytes and shown decoded (line-table.ts), so a
 * change hidden behind U+FFFD still shows as a change.
 */
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import { unifiedDiff, type TextSides, type UnifiedDiff } from '../../../shared/diff/unified-diff.js';

export interface DiffSides {
  /** The path the write lands on, as the headers name it. */
  path: string;
  /** The bytes on disk, or null when the file does not exist yet. */
  before: Buffer | null;
  after: Buffer;
}

/** `budget` bounds the work of the exact diff (see EXACT_DIFF_BUDGET). */
export function unifiedDiffOfBytes(sides: DiffSides, budget?: number): UnifiedDiff {
  return unifiedDiff(textSides(sides), budget);
}

/** The sides as the shared diff takes them. */
export function textSides(sides: DiffSides): TextSides {
  const utf8 = (sides.before === null || isUtf8(sides.before)) && isUtf8(sides.after);
  const encoding = utf8 ? 'utf8' : 'latin1';
  return {
    path: diffPath(sides.path),
    before: sides.before === null ? null : sides.before.toString(encoding),
    after: sides.after.toString(encoding),
    ...(utf8 ? {} : { shown: shownLine }),
  };
}

/** The path as diff headers name it: with forward slashes on every platform, as git's. */
export function diffPath(filePath: string): string {
  return path.sep === '\\' ? filePath.replaceAll('\\', '/') : filePath;
}

function shownLine(bytesAsLatin1: string): string {
  return Buffer.from(bytesAsLatin1, 'latin1').toString('utf8');
}
