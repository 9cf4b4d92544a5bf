/** The words "What the model sees" says about the next request and its parts. */
import type { ContextPart, ContextPreview } from '../../../../shared/context-preview';
import { fullTokens } from './usage-words';

/** "≈ 61,234 of 168,000 tokens for input; 32,000 kept for the reply". */
export function estimateWords(p: ContextPreview): string {
  const input = Math.max(0, p.window - p.outputReserve);
  return `≈ ${fullTokens(p.tokens)} of ${fullTokens(input)} tokens for input; ${fullTokens(p.outputReserve)} kept for the reply`;
}

/** Whether the counts rest on the provider's own or on a guess, in bytes per token (easier to picture). */
export function calibrationWords(p: ContextPreview): string {
  const perToken = p.tokensPerByte > 0 ? (1 / p.tokensPerByte).toFixed(1) : '?';
  return p.calibrated
    ? `Counted at the provider's own rate for this session: about ${perToken} bytes per token.`
    : `Estimated at about ${perToken} bytes per token until the provider reports its own counts.`;
}

/** "system", "tool definition", "summary, sent as user", or the message's role. */
export function partRole(part: ContextPart): string {
  switch (part.kind) {
    case 'system':
      return 'system';
    case 'tool':
      return 'tool definition';
    case 'summary':
      return part.role ? `summary, sent as ${part.role}` : 'summary';
    case 'message':
      return part.role ?? 'message';
  }
}

/** "event 12" or "events 12–40": where in the log a part comes from. */
export function seqWords(seqs: ContextPart['seqs']): string | null {
  if (!seqs) return null;
  const [from, to] = seqs;
  return from === to ? `event ${from}` : `events ${from}–${to}`;
}
