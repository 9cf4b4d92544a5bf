/**
 * The three ways to rewind to a message (SPEC §12), each with what it does in a sentence,
 * and which files a code rewind would put back: those the transcript says changed after
 * the message, by a call, a hook, an undo, a redo or another rewind.
 */
import type { RewindRestore } from '../../../../shared/events';
import type { TranscriptItem } from '../../../../shared/reducer';
import { filesWord, pathList } from './change-words';

export const REWIND_CHOICES: readonly RewindRestore[] = ['code', 'conversation', 'both'];

export const REWIND_NAMES: Record<RewindRestore, string> = {
  code: 'Code',
  conversation: 'Conversation',
  both: 'Both',
};

const CONVERSATION =
  'The model forgets this message and everything after it, and the message goes back to the composer. The transcript keeps it all, greyed.';

/** What a choice does; `paths` are the files a code rewind would put back. */
export function rewindExplanation(choice: RewindRestore, paths: readonly string[]): string {
  const code =
    paths.length === 0
      ? 'Nothing in the workspace changed since this message.'
      : `Puts the workspace back as it was before this message: ${filesWord(paths.length)} (${pathList(paths)}). A file you changed since is left alone.`;
  if (choice === 'code') return `${code} The conversation stays as it is.`;
  if (choice === 'conversation') return `${CONVERSATION} Files stay as they are.`;
  return `${CONVERSATION} ${code}`;
}

/** Every path the transcript says changed after the event at seq, first change first. */
export function pathsChangedAfter(transcript: readonly TranscriptItem[], seq: number): string[] {
  const paths = new Set<string>();
  for (const item of transcript) {
    if (item.seq <= seq) continue;
    for (const file of changedBy(item)) paths.add(file.path);
  }
  return [...paths];
}

function changedBy(item: TranscriptItem): readonly { path: string }[] {
  switch (item.kind) {
    case 'tool':
      return item.changed ?? [];
    case 'changes':
      return item.changed;
    case 'undo':
    case 'redo':
      return item.event.restored;
    case 'rewind':
      return item.event.code?.restored ?? [];
    default:
      return [];
  }
}
