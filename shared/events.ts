/**
 * The events of a session log (events.jsonl), defined once. Each line on disk is one
 * SessionEvent. The main process and the renderer fold them with shared/reducer.ts.
 */
import type { CardEdits } from './card-edits.js';
import type { SessionAgent } from './agents.js';
import type { Answer, CardBody, Grant } from './cards.js';
import type { ChangedFile, Restoration, Skipped } from './checkpoints.js';
import type { PlaceApplyFile, PlaceApplyOutcome, SessionPlace } from './places.js';

export type TurnEndReason = 'finished' | 'cancelled' | 'error' | 'interrupted';

/** Fields every event carries. seq starts at 1 and grows by one; ts is ISO-8601. */
export interface EventBase {
  seq: number;
  ts: string;
}

export type EventPayload =
  /** A message the user sent that starts (or started) a turn. */
  | { type: 'user_message'; messageId: string; text: string }
  /** A message sent during a live turn; it waits in the FIFO queue. */
  | { type: 'queued'; messageId: string; text: string }
  /** Queued messages handed back to the composer (on cancel); they leave the queue. */
  | { type: 'queue_returned'; messageIds: string[] }
  /** A queued message the user took out before its turn started. */
  | { type: 'queue_removed'; messageId: string }
  /** The composer took back these returned messages; they leave `returned`. */
  | { type: 'returned_taken'; messageIds: string[] }
  | { type: 'turn_started'; turnId: string; messageId: string }
  /** The text of one model step, whole (deltas are UI-only pushes, never logged). */
  | { type: 'assistant_text'; turnId: string; text: string }
  /** args is inline, or in a blob (argsBlob) when larger than EVENT_INLINE_MAX_BYTES. */
  | { type: 'tool_call'; turnId: string; toolCallId: string; tool: string; args?: unknown; argsBlob?: string }
  | {
      type: 'tool_result';
      turnId: string;
      toolCallId: string;
      tool: string;
      ok: boolean;
      /** What the model reads back. */
      output: string;
      details?: Record<string, unknown>;
    }
  | {
      type: 'card';
      turnId: string;
      toolCallId: string;
      cardId: string;
      body: CardBody;
      /** The grant allow_session would record, and the same in words. */
      grant: Grant;
      scope: string;
      /**
       * Set when this card re-asks after a stale answer. `edits`: the person's edits the
       * stale answer carried, kept for this card's editor (SPEC §13).
       */
      reasked?: { previousCardId: string; reason: string; edits?: CardEdits };
    }
  /** `edited`: allowed with the person's edits (always allow_once); they are what was written. */
  | { type: 'card_answer'; cardId: string; answer: Answer; edited?: CardEdits }
  /** The answer arrived but the file or path changed since the card went up; it is dropped (its edits kept for the next card). */
  | { type: 'card_stale'; cardId: string; answer: Answer; reason: string; edited?: CardEdits }
  | { type: 'card_withdrawn'; cardId: string; reason: string }
  | { type: 'question'; turnId: string; toolCallId: string; questionId: string; question: string; options?: string[] }
  | { type: 'question_answer'; questionId: string; text: string }
  | { type: 'question_withdrawn'; questionId: string; reason: string }
  /** toolCallId is the finish call the hook ran for; absent when a plain-text step finished. */
  | {
      type: 'hook_run';
      turnId: string;
      toolCallId?: string;
      argv: string[];
      ok: boolean;
      exitCode: number | null;
      output: string;
    }
  | { type: 'result'; turnId: string; summary: string }
  | { type: 'turn_ended'; turnId: string; reason: TurnEndReason; message?: string }
  | { type: 'error'; turnId?: string; message: string }
  /**
   * What one model call cost, as the provider reported it (AI SDK usage). inputTokens
   * includes the cached ones; null where the provider reported nothing.
   */
  | ({ type: 'usage'; turnId?: string; purpose: 'step' | 'compaction' } & StepUsageRecord)
  /**
   * Older tool results (and large arguments of older calls) the model no longer sees in
   * full: every tool_result at or below throughSeq larger than the stub that replaces it.
   */
  | {
      type: 'context_masked';
      turnId?: string;
      throughSeq: number;
      /** How many results this step newly masked. */
      results: number;
      /** The context's estimated size before and after, in tokens. */
      tokensBefore: number;
      tokensAfter: number;
    }
  /** Events fromSeq..toSeq reach the model only as this summary from now on. */
  | {
      type: 'compaction';
      turnId?: string;
      fromSeq: number;
      toSeq: number;
      summary: string;
      trigger: CompactionTrigger;
      /** What the person asked the summary to keep (Compact now). */
      instructions?: string;
      tokensBefore: number;
      tokensAfter: number;
    }
  /** The provider said the model's real window; the session uses it from now on. */
  | {
      type: 'context_window';
      turnId?: string;
      /** provider:modelId the window belongs to. */
      model: string;
      tokens: number;
      reason: string;
      /** The refused request's size as the provider counted it, and in bytes: a calibration like a usage report. */
      requestTokens?: number;
      requestBytes?: number;
    }
  /**
   * An MCP server changed a tool that the session had allowed calls to (SPEC §10 pinning):
   * those grants are void from here on, and the next call's card shows the change.
   */
  | { type: 'mcp_tool_changed'; server: string; tool: string; voided: number }
  /**
   * The workspace was snapshotted around one step that could change it (an allowed write,
   * command, Stop hook or MCP call; SPEC §12). before and after are snapshot ids in the
   * workspace's checkpoint store; changed is what differs between them. skipped is set
   * when what the snapshot left out differs from the session's previous checkpoint.
   */
  | {
      type: 'checkpoint';
      turnId: string;
      toolCallId: string;
      before: string;
      after: string;
      changed: ChangedFile[];
      skipped?: Skipped;
    }
  /** The person took back a turn's changes (or some files of it: `paths`). */
  | ({ type: 'undo'; turnId: string; paths?: string[] } & Restoration)
  /** The person brought back what the undo at undoSeq took back. */
  | ({ type: 'redo'; undoSeq: number } & Restoration)
  /**
   * The person rewound to the user message at messageSeq. With "conversation" or "both" the
   * model's context skips events messageSeq..(this event) and the message goes back to the
   * composer; with "code" or "both" the workspace went back to before that message's turn.
   */
  | { type: 'rewind'; messageSeq: number; restore: RewindRestore; code?: Restoration }
  /**
   * An external agent's plan for the turn (ACP `plan` update, SPEC §14): the whole list
   * each time, the later replacing the earlier.
   */
  | { type: 'plan'; turnId: string; entries: PlanEntry[] }
  /**
   * The external agent's own session this Gatehouse session talks to: after a restart the
   * driver asks the agent to load it, where the agent can.
   */
  | { type: 'agent_session'; agent: SessionAgent; agentSessionId: string }
  /** The session's place of its own (SPEC §15): logged when made, and again when discarded. */
  | { type: 'place'; place: SessionPlace }
  /**
   * An apply to the person's folder began: every file it will write, with the digest each
   * must still have. Logged before the first write, so a restart knows what was under way.
   */
  | { type: 'place_apply'; applyId: string; as: 'files' | 'commit'; files: PlaceApplyFile[]; message?: string }
  /** How that apply ended; `interrupted`: the app stopped mid-apply and the restart checked each file. */
  | ({ type: 'place_applied'; applyId: string; interrupted?: true } & PlaceApplyOutcome);

/** One step of an agent's plan, as ACP words it. */
export interface PlanEntry {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  priority: 'high' | 'medium' | 'low';
}

/** What a rewind takes back. */
export type RewindRestore = 'code' | 'conversation' | 'both';

/** Why the history was summarised: it was near the budget, the provider refused it as too long, or the person asked. */
export type CompactionTrigger = 'budget' | 'overflow' | 'user';

export interface StepUsageRecord {
  /** provider:modelId */
  model: string;
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  /** The request's size in bytes as the context measured it: with inputTokens, the provider's tokens per byte. */
  requestBytes: number;
  /** The window the request was budgeted against. */
  contextWindow: number;
  /** USD at the price table's rates (or the config's), null when the model has no prices. */
  cost: number | null;
}

export type SessionEvent = EventBase & EventPayload;
export type EventType = SessionEvent['type'];
