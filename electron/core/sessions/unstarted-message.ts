/**
 * A turn starts by logging the user's message, then turn_started. A process killed
 * between the two leaves a message that no turn answers and no queue holds: after the
 * restart it would sit in the transcript as if it were being worked on. Found by the
 * property run's kill -9 (issue 9).
 */
import type { SessionEvent } from '../../../shared/events.js';

/** The id of the last message logged whose turn never started, or null. */
export function unstartedMessage(events: readonly SessionEvent[]): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'turn_started') return null;
    if (e.type === 'user_message') return e.messageId;
  }
  return null;
}
