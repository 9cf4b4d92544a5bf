/**
 * After an undo, a redo or a rewind of the code, the model's next request says in one
 * line which files went back and to which point (SPEC §12), so the model does not trust
 * its memory of them.
 */
import type { ChangedFile } from '../../../shared/checkpoints.js';
import type { SessionEvent } from '../../../shared/events.js';

type RestoreEvent = Extract<SessionEvent, { type: 'undo' | 'redo' | 'rewind' }>;

/** How many file names the note spells out; the rest are counted. */
const NOTE_MAX_FILES = 20;

/** The note, or null when the event restored no file (a rewind of the conversation only). */
export function restoreNote(event: RestoreEvent, messageText: (seq: number) => string | undefined): string | null {
  const restored = event.type === 'rewind' ? (event.code?.restored ?? []) : event.restored;
  if (restored.length === 0) return null;
  const files = fileList(restored);
  switch (event.type) {
    case 'undo':
      return `[The user undid ${event.paths ? 'some of the changes' : 'the changes'} of an earlier turn: ${files} are back as they were before that turn. Read them again before relying on what you remember of them.]`;
    case 'redo':
      return `[The user redid an undone change: ${files} are back as that turn left them. Read them again before relying on what you remember of them.]`;
    case 'rewind': {
      const quoted = quote(messageText(event.messageSeq));
      return `[The user rewound the workspace to before the message ${quoted}: ${files} are back as they were then. Read them again before relying on what you remember of them.]`;
    }
  }
}

function fileList(files: readonly ChangedFile[]): string {
  const names = files.slice(0, NOTE_MAX_FILES).map((f) => f.path);
  const more = files.length - names.length;
  return names.join(', ') + (more > 0 ? ` and ${more} more files` : '');
}

function quote(text: string | undefined): string {
  if (text === undefined) return '(no longer in the log)';
  const line = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}
