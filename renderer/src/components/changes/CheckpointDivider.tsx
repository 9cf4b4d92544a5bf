/**
 * An undo, a redo or a rewind in the transcript: a quiet divider, like the context's, that
 * says in words what it restored and what it left alone (SPEC §12). The log keeps these as
 * events; nothing here can be clicked, the Changes view is where a person acts.
 */
import type { TranscriptItem } from '../../../../shared/reducer';
import { filesWord } from './change-words';
import { messageQuote, restoredWords } from './restore-words';
import './changes.css';

export type CheckpointItem = Extract<TranscriptItem, { kind: 'undo' | 'redo' | 'rewind' }>;

const REWOUND_WHAT = { conversation: 'the conversation', code: 'the code', both: 'the conversation and the code' };

/** `message` is the text of the user message a rewind went back to, when the transcript has it. */
export function checkpointWords(item: CheckpointItem, message?: string): string {
  switch (item.kind) {
    case 'undo': {
      const what = item.event.paths ? `Reverted ${filesWord(item.event.paths.length)} of a turn` : 'Undid a turn';
      return `${what}: ${restoredWords(item.event.restored, item.event.kept)}`;
    }
    case 'redo':
      return `Redid the undo: ${restoredWords(item.event.restored, item.event.kept)}`;
    case 'rewind': {
      const { restore, code } = item.event;
      const to = message === undefined ? 'an earlier message' : messageQuote(message);
      const head = `Rewound ${REWOUND_WHAT[restore]} to ${restore === 'code' ? `before ${to}` : to}`;
      return code ? `${head}: ${restoredWords(code.restored, code.kept)}` : head;
    }
  }
}

/** Not role="separator": a separator's content is not read out, and these words are the point. */
export function CheckpointDivider({ item, message }: { item: CheckpointItem; message?: string }) {
  return (
    <div className={`context-divider checkpoint-divider checkpoint-divider-${item.kind}`}>
      <p className="context-divider-text">{checkpointWords(item, message)}</p>
    </div>
  );
}
