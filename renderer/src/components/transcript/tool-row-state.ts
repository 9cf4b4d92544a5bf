/**
 * A tool call's state and answer in words, for its one row (one call, one row): whether it
 * waits for the person, runs, is done, failed or never ran, and what the person answered
 * its card. Pure, from the transcript item alone.
 */
import type { TranscriptItem } from '../../../../shared/reducer';
import { outcomeWords } from '../cards/CardRecord';
import { filesWord } from '../changes/change-words';

export type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

export type ToolState = 'waiting' | 'running' | 'done' | 'failed' | 'not_run';

export const STATE_WORDS: Record<ToolState, string> = {
  waiting: 'waiting for you — answer the card above the composer',
  running: 'running…',
  done: 'done',
  failed: 'failed',
  not_run: 'not run',
};

/** Never colour alone: each state has its mark. */
export const STATE_MARKS: Record<ToolState, string> = {
  waiting: '…',
  running: '',
  done: '✓',
  failed: '✗',
  not_run: '–',
};

export function toolState(item: ToolItem): ToolState {
  const last = item.cards?.at(-1)?.outcome;
  if (last?.state === 'open') return 'waiting';
  // A denied or withdrawn call never ran: its error result says so, but it did not fail.
  if (last?.state === 'withdrawn' || (last?.state === 'answered' && last.answer === 'deny')) return 'not_run';
  if (!item.result) return 'running';
  return item.result.ok ? 'done' : 'failed';
}

/**
 * What the person answered the call's latest card ("Allowed once", "Allowed once, edited by
 * you", "Denied", "Dropped: …"); null for a call that asked nothing, or whose card is still
 * open (its state says so).
 */
export function answerWords(item: ToolItem): string | null {
  const last = item.cards?.at(-1);
  if (!last || last.outcome.state === 'open') return null;
  return outcomeWords(last.card, last.outcome);
}

/** "changed 2 files", "changed no files"; null for a call that took no checkpoint. */
export function changedWords(item: ToolItem): string | null {
  if (!item.changed) return null;
  return `changed ${filesWord(item.changed.length)}`;
}
