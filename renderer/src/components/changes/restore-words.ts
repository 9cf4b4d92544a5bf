/**
 * What an undo, redo or rewind did, in one sentence: the files it restored and the ones it
 * left alone, grouped by why (SPEC §12: a file the person changed since is named, never
 * overwritten silently). The transcript's dividers and the Changes view's outcome share it.
 */
import type { ChangedFile, KeptFile } from '../../../../shared/checkpoints';
import { filesWord, pathList } from './change-words';

const KEPT_WHY: Record<KeptFile['why'], (count: number) => string> = {
  changed_since: (n) => `left ${n} you changed since`,
  changed_by_later_turn: (n) => `left ${n} a later turn changed`,
  skipped_by_snapshot: (n) => `left ${n} the snapshot did not hold`,
};

/** "restored 3 files (a.py, b.py, c.py); left 1 you changed since: d.py". */
export function restoredWords(restored: readonly ChangedFile[], kept: readonly KeptFile[]): string {
  const parts = [
    restored.length === 0
      ? 'restored no files'
      : `restored ${filesWord(restored.length)} (${pathList(restored.map((f) => f.path))})`,
  ];
  for (const why of Object.keys(KEPT_WHY) as KeptFile['why'][]) {
    const paths = kept.filter((k) => k.why === why).map((k) => k.path);
    if (paths.length > 0) parts.push(`${KEPT_WHY[why](paths.length)}: ${pathList(paths)}`);
  }
  return parts.join('; ');
}

/** The start of a user message, on one line, for "Rewound … to “fix the tests…”". */
export function messageQuote(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return `“${line.length > max ? `${line.slice(0, max).trimEnd()}…` : line}”`;
}
