/**
 * Streamed markdown cut into finished blocks and a live tail, so a frame re-parses only the
 * tail. A cut is a blank line outside any ``` / ~~~ fence. A cut is not made where the next
 * line is indented or starts a list item: there the blank line may continue a list item or an
 * indented code block, or make the list loose, and parsing the two sides apart would change
 * the result. Being cautious only costs speed (a bigger tail), never correctness.
 */
export interface StreamBlocks {
  /** Finished blocks, each ending just before a cut: they never change as text streams on. */
  blocks: string[];
  /** Everything after the last cut: still growing. */
  tail: string;
}

const FENCE = /^\s*(`{3,}|~{3,})/;
const CONTINUES = /^(\s|[-*+]\s|\d{1,9}[.)]\s)/;
const MAY_CONTINUE = /^[-*+\d]/;

export function splitStreamBlocks(text: string): StreamBlocks {
  const lines = text.split('\n');
  const blocks: string[] = [];
  let fence: string | null = null;
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const marker = FENCE.exec(line)?.[1];
    if (marker) {
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      continue;
    }
    if (fence !== null || line.trim() !== '' || i + 1 >= lines.length) continue;
    const next = lines[i + 1] as string;
    if (next.trim() === '' || CONTINUES.test(next)) continue;
    // A line still streaming that might yet become a list item or indented: judge it once complete.
    if (i + 2 >= lines.length && MAY_CONTINUE.test(next)) continue;
    if (i > start) blocks.push(lines.slice(start, i).join('\n'));
    start = i + 1;
  }
  return { blocks, tail: lines.slice(start).join('\n') };
}
