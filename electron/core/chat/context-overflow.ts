/**
 * Recognises a provider's "the prompt is longer than the context window" refusal, and
 * reads the numbers it states. The session takes the stated maximum as its window from
 * then on (SPEC §8), so the wording each provider uses is matched here, once.
 *
 * - Anthropic: 400 invalid_request_error "prompt is too long: 201234 tokens > 200000 maximum",
 *   or for input plus max_tokens "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000".
 * - OpenAI: 400 code context_length_exceeded "This model's maximum context length is 128000
 *   tokens. However, your messages resulted in 130000 tokens."
 * - OpenAI-compatible servers mostly echo OpenAI's wording (vLLM, llama.cpp, LiteLLM).
 */
export interface ContextLimit {
  /** The request's size as the provider counted it, when stated. */
  tokens: number | null;
  /** The model's window as the provider stated it. */
  maximum: number | null;
}

const PATTERNS: Array<{ test: RegExp; read: (m: RegExpMatchArray) => ContextLimit }> = [
  { test: /prompt is too long:\s*(\d+)\s*tokens\s*>\s*(\d+)\s*maximum/i, read: (m) => limit(m[1], m[2]) },
  {
    test: /exceed context limit:\s*(\d+)\s*\+\s*(\d+)\s*>\s*(\d+)/i,
    read: (m) => limit(String(Number(m[1]) + Number(m[2])), m[3]),
  },
  {
    test: /maximum context length is\s*(\d+)\s*tokens[^]*?(?:resulted in|requested)\s*(\d+)\s*tokens/i,
    read: (m) => limit(m[2], m[1]),
  },
  { test: /maximum context length is\s*(\d+)\s*tokens/i, read: (m) => limit(undefined, m[1]) },
  { test: /context_length_exceeded|prompt is too long|context window/i, read: () => limit(undefined, undefined) },
];

/** The limit a refusal states, or null when the message is not a context-window refusal. */
export function contextOverflow(message: string): ContextLimit | null {
  for (const { test, read } of PATTERNS) {
    const m = message.match(test);
    if (m) return read(m);
  }
  return null;
}

function limit(tokens: string | undefined, maximum: string | undefined): ContextLimit {
  const n = (v: string | undefined) => (v === undefined || !Number.isFinite(Number(v)) ? null : Number(v));
  return { tokens: n(tokens), maximum: n(maximum) };
}
