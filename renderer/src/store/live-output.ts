/**
 * A running command's live output as the renderer keeps it: the newest characters only,
 * so a command that prints gigabytes cannot grow the page's memory. The tool's result
 * (head and tail, capped by the core) is the record; this is only the live view.
 */
export interface LiveOutput {
  text: string;
  /** Characters dropped from the front to keep `text` bounded. */
  droppedChars: number;
}

/** About 2,000 lines of 128 characters: more than the DOM shows, little memory. */
export const LIVE_OUTPUT_KEEP_CHARS = 256 * 1024;

export function appendLiveOutput(prev: LiveOutput | undefined, chunk: string): LiveOutput {
  const text = (prev?.text ?? '') + chunk;
  const over = text.length - LIVE_OUTPUT_KEEP_CHARS;
  if (over <= 0) return { text, droppedChars: prev?.droppedChars ?? 0 };
  return { text: text.slice(over), droppedChars: (prev?.droppedChars ?? 0) + over };
}
