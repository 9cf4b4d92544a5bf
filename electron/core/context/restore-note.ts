/**
 * After an undo, a redo or a rewind of the code, the model's next request says in one
 * line which files went back and to which point (SPEC §12), so the model does not trust
 * its memory of them.
 *
 * A rewind names its point by the message's place among those the person sent, never by
 * its words: a person rewinds to take a message back (a wrong instruction, a pasted
 * secret), and quoting it would hand the model the very text they took back.
 */
import type { ChangedFile } from '../../../shared/checkpoints.js';
import type { SessionEvent } from '../../../shared/events.js';

type RestoreEvent = Extract<SessionEvent, { type: 'undo' | 'redo' | 'rewind' }>;

/**
 * Where the user message at a seq stands among every message the person sent in the
 * session (1 for the first), counting those a rewind took out; undefined when that seq
 * holds no user message.
 */
export type MessagePosition = (seq: number) => number | undefined;

/** How many file names the note spells out; the rest are counted. */
const NOTE_MAX_FILES = 20;

/** The note, or null when the event restored no file (a rewind of the conversation only). */
export function restoreNote(event: RestoreEvent, messagePosition: MessagePosition): string | null {
  const restored = event.type === 'rewind' ? (event.code?.restored ?? []) : event.restored;
  if (restored.length === 0) return null;
  const files = fileList(restored);
  switch (event.type) {
    case 'undo':
      return `[The user undid ${event.paths ? 'some of the changes' : 'the changes'} of an earlier turn: ${files} are back as they were before that turn. Read them again before relying on what you remember of them.]`;
    case 'redo':
      return `[The user redid an undone change: ${files} are back as that turn left them. Read them again before relying on what you remember of them.]`;
    case 'rewind':
      return `[The user rewound the workspace to before ${messageWords(messagePosition(event.messageSeq))}: ${files} are back as they were then. Read them again before relying on what you remember of them.]`;
  }
}

function fileList(files: readonly ChangedFile[]): string {
  const names = files.slice(0, NOTE_MAX_FILES).map((f) => f.path);
  const more = files.length - names.length;
  return names.join(', ') + (more > 0 ? ` and ${more} more files` : '');
}

function messageWords(position: number | undefined): string {
  if (position === undefined) return 'one of their earlier messages';
  return `their message ${position} of this session (counting every message they sent, taken back or not)`;
}
