/**
 * A rewind of the conversation (SPEC §12) takes events out of the model's view: from the
 * message rewound to up to the rewind itself. The log keeps them (the transcript greys
 * them); the context is folded from the rest.
 */
import type { SessionEvent } from '../../../shared/events.js';
import { isRewound, type SessionState } from '../../../shared/reducer.js';

/** The events the model's context is folded from: all but the rewound ranges. */
export function withoutRewound(events: readonly SessionEvent[]): readonly SessionEvent[] {
  const rewound: SessionState['rewound'] = [];
  for (const e of events) {
    if (e.type === 'rewind' && e.restore !== 'code') rewound.push({ fromSeq: e.messageSeq, toSeq: e.seq - 1 });
  }
  if (rewound.length === 0) return events;
  return events.filter((e) => !isRewound({ rewound }, e.seq));
}

/** A rewind that takes events out of the conversation: the fold starts again without them. */
export function rewindsConversation(event: SessionEvent): boolean {
  return event.type === 'rewind' && event.restore !== 'code';
}

/**
 * Where the user message at seq stands among every message the person sent (1 for the
 * first), counting rewound ones: the log keeps them, so the place never shifts. A rewind's
 * note names its point this way rather than by the words taken back.
 */
export function messagePosition(events: readonly SessionEvent[], seq: number): number | undefined {
  let position = 0;
  for (const e of events) {
    if (e.type !== 'user_message') continue;
    position++;
    if (e.seq === seq) return position;
  }
  return undefined;
}
