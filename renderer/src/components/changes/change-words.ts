/**
 * The words a changed file is shown with (SPEC §12): a mark that says the change without
 * colour ("+ src/a.ts"), the change in words, and its size. A deleted file's size is the
 * one it had, so it says "was".
 */
import type { ChangedFile } from '../../../../shared/checkpoints';
import { byteSize } from '../cards/byte-size';

export const CHANGE_MARKS: Record<ChangedFile['change'], string> = { added: '+', modified: '~', deleted: '−' };

/** "2 files", "1 file", "no files". */
export function filesWord(count: number): string {
  if (count === 0) return 'no files';
  return count === 1 ? '1 file' : `${count} files`;
}

/** "added, 1.2 KiB", "deleted, was 300 bytes". */
export function changeDetail(file: ChangedFile): string {
  const size = byteSize(file.bytes);
  return `${file.change}, ${file.change === 'deleted' ? `was ${size}` : size}`;
}

/** "a.py, b.py, c.py" or, past `max`, "a.py, b.py, c.py and 4 more". */
export function pathList(paths: readonly string[], max = 3): string {
  const named = paths.slice(0, max).join(', ');
  const more = paths.length - max;
  return more > 0 ? `${named} and ${more} more` : named;
}
