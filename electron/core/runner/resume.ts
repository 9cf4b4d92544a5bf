/**
 * Taking a turn up again after a restart. The log says where the turn was waiting when
 * the app stopped; `planResume` decides, from the log alone, what the runner does before
 * its loop goes on. What a turn can be waiting on, and what a restart does with it:
 *
 *     turn_started
 *         │
 *         ▼
 *     ┌─ servers ─┐   an MCP server's start card ──► withdrawn; the servers are asked for
 *     │           │                                  again, from the config as it is now
 *     └─────┬─────┘
 *           ▼
 *     ┌── step ───┐   a tool call's card ──────────► the same card, waited on again
 *     │ calls run │   a question ──────────────────► the same question, waited on again
 *     │ in order  │   nothing open, calls pending ─► the step's calls without a result run
 *     └─────┬─────┘
 *           ▼
 *     ┌── finish ─┐   a Stop hook's card ──────────► withdrawn; the hooks run (and ask) again:
 *     │  hooks    │                                  through the pending finish call, or for
 *     └─────┬─────┘                                  a plain-text finish, with the step's text
 *           ▼
 *      turn_ended
 *
 * The card's side of each arrow is a transition of its wait (gate/card-wait.ts): the
 * session expects the open card when it loads the log, so it takes an answer at once; a
 * card waited on again is resumed and planned (or withdrawn, if its call changed); a
 * server's or a Stop hook's card is forgotten with the reason below.
 */
import type { SessionEvent } from '../../../shared/events.js';
import type { CardEvent, QuestionEvent } from '../../../shared/reducer.js';
import { pendingCalls, type ToolCallEvent } from './pending-calls.js';

/** Where a turn picks up after a restart: the card or question that was open. */
export interface ResumePoint {
  card?: CardEvent;
  question?: QuestionEvent;
}

/** What a pending call was waiting on when the app stopped: it waits on the same again. */
export type Waiting = { card: CardEvent } | { question: QuestionEvent };

export interface ResumePlan {
  /** A server's start card to withdraw before the servers are asked for again. */
  serverStart: CardEvent | null;
  /** A Stop hook's card to withdraw: its finish runs the hooks again. */
  hookCard: CardEvent | null;
  /** Set when a plain-text finish runs again, with the step's text (no call is pending). */
  finishAgain: string | null;
  /** The step's calls without a result, in order, each with what it was waiting on. */
  calls: Array<{ event: ToolCallEvent; waiting: Waiting | null }>;
}

export const SERVER_START_WITHDRAWN = 'the app restarted; the server is asked for again';
export const HOOK_CARD_WITHDRAWN = 'the app restarted; the Stop hooks run again';

export function planResume(events: readonly SessionEvent[], turnId: string, at: ResumePoint): ResumePlan {
  const serverStart = at.card?.body.kind === 'mcp_server' ? at.card : null;
  const card = serverStart ? undefined : at.card;
  const pending = pendingCalls(events, turnId);
  const hookCard = card && !pending.some((c) => c.toolCallId === card.toolCallId) ? card : null;
  const calls = pending.map((event) => ({ event, waiting: waitingOf(event, card, at.question) }));
  const finishAgain = hookCard && pending.length === 0 ? lastText(events, turnId) : null;
  return { serverStart, hookCard, finishAgain, calls: finishAgain === null ? calls : [] };
}

function waitingOf(call: ToolCallEvent, card: CardEvent | undefined, question: QuestionEvent | undefined) {
  if (card && card.toolCallId === call.toolCallId) return { card };
  if (question && question.toolCallId === call.toolCallId) return { question };
  return null;
}

/** The text of the turn's last model step, for a plain-text finish taken up again. */
function lastText(events: readonly SessionEvent[], turnId: string): string {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'assistant_text' && e.turnId === turnId) return e.text;
  }
  return '';
}
