/**
 * A step that ends with plain text counts as finishing the turn, so the log holds that text
 * twice: as the assistant message and as the turn's result. The transcript shows it once.
 */
import type { TranscriptItem } from '../../../../shared/reducer';

/** The items without a result that only repeats its turn's last assistant message. */
export function withoutEchoedResults(items: TranscriptItem[]): TranscriptItem[] {
  const lastText = new Map<string, string>();
  let echoed: Set<number> | null = null;
  for (const item of items) {
    if (item.kind === 'assistant') lastText.set(item.turnId, item.text.trim());
    else if (item.kind === 'result' && lastText.get(item.turnId) === item.summary.trim()) {
      (echoed ??= new Set()).add(item.seq);
    }
  }
  // Most transcripts have nothing to drop: keep the same array, so nothing downstream renders again.
  return echoed ? items.filter((item) => !echoed.has(item.seq)) : items;
}
