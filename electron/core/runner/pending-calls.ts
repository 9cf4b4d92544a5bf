/**
 * The turn's tool calls that have no result yet. Every call gets a result in the end,
 * even one never run, so the log stays a whole transcript the model can be shown.
 */
import type { EventPayload, SessionEvent } from '../../../shared/events.js';

export type ToolCallEvent = Extract<SessionEvent, { type: 'tool_call' }>;

/**
 * The current turn's tool calls that have no result yet, in the order they were made. A
 * result closes the latest open call with its id: some servers reuse ids such as call_0.
 */
export function pendingCalls(events: readonly SessionEvent[], turnId: string): ToolCallEvent[] {
  const open: ToolCallEvent[] = [];
  for (const e of events) {
    if (e.type === 'tool_call' && e.turnId === turnId) open.push(e);
    if (e.type === 'tool_result' && e.turnId === turnId) {
      const i = open.findLastIndex((c) => c.toolCallId === e.toolCallId);
      if (i >= 0) open.splice(i, 1);
    }
  }
  return open;
}

/** An error result for each of the turn's calls still without one, so the log stays a whole transcript. */
export function pendingResults(events: readonly SessionEvent[], turnId: string, why: string): EventPayload[] {
  return pendingCalls(events, turnId).map((call) => ({
    type: 'tool_result',
    turnId,
    toolCallId: call.toolCallId,
    tool: call.tool,
    ok: false,
    output: why,
  }));
}
