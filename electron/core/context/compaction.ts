/**
 * Compaction: the older history becomes a summary the model writes, so the context is
 * system + summary + the latest events. The summary is asked to keep every user message,
 * the decisions, the files touched and what is left; the parts that can be known without
 * the model (the person's messages, the files the tools named) are appended verbatim, so
 * a weak summary cannot lose them.
 */
import { COMPACT_KEEP_SHARE, SUMMARY_USER_MESSAGE_MAX_BYTES } from '../../../shared/limits.js';
import { capText } from '../text/output-cap.js';

export const SUMMARY_REQUEST = [
  'Stop here: do not call any tool. Instead, write a summary of this session so far, for yourself, to continue the work from it alone.',
  'The older history will be replaced by your summary, so keep everything needed to go on:',
  '- every request the user made, in their words where it matters, and what they decided or answered;',
  '- the decisions taken and why, and approaches that failed;',
  '- the files read, created or changed, and what matters about each;',
  '- commands run and their outcomes, errors met and how they were solved;',
  '- the state of the work now, and exactly what is left to do next.',
  'Write plain text with short headed sections. Be specific (paths, names, numbers); leave out pleasantries.',
].join('\n');

export function summaryRequest(instructions?: string): string {
  return instructions
    ? `${SUMMARY_REQUEST}\n\nThe user asks this summary to keep in particular:\n${instructions}`
    : SUMMARY_REQUEST;
}

export interface TailItem {
  seq: number;
  lastSeq: number;
  tokens: number;
  /** A step whose calls do not all have results yet: it stays, or its results would have nowhere to go. */
  open: boolean;
}

/**
 * How many of the latest entries stay whole: as many as fit in COMPACT_KEEP_SHARE of the
 * room, counted back from the newest, and always an open step. Returns the index of the
 * first entry kept (items.length when none is).
 */
export function tailStart(items: readonly TailItem[], room: number, keepShare = COMPACT_KEEP_SHARE): number {
  let start = items.length;
  let tokens = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (!item.open && tokens + item.tokens > room * keepShare) break;
    tokens += item.tokens;
    start = i;
  }
  return start;
}

export interface KnownFacts {
  userMessages: ReadonlyArray<{ seq: number; text: string }>;
  /** Paths the tools were asked to read or change, with how. */
  files: ReadonlyMap<string, Set<string>>;
}

/** The verbatim part of a summary: what the log itself says, in case the model's summary left it out. */
export function knownFacts({ userMessages, files }: KnownFacts): string {
  const out: string[] = [];
  if (userMessages.length > 0) {
    out.push("The user's messages so far, verbatim (long ones cut; the log keeps them whole):");
    for (const m of userMessages) out.push(`- [seq ${m.seq}] ${capText(m.text, SUMMARY_USER_MESSAGE_MAX_BYTES)}`);
  }
  if (files.size > 0) {
    out.push('', 'Files the tools named (path: how):');
    for (const [path, how] of [...files.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      out.push(`- ${path}: ${[...how].sort().join(', ')}`);
    }
  }
  return out.join('\n');
}

export function withKnownFacts(summary: string, facts: string): string {
  const written = summary.trim() || '(The model wrote no summary text.)';
  return facts ? `${written}\n\n---\n${facts}` : written;
}
