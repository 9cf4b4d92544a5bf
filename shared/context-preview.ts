/**
 * "What the model sees": the exact context of a session's next model step, part by part,
 * with token counts. Built by electron/core/context from the same view the next request
 * is made from, and shown read-only by the window.
 */

export interface ContextPart {
  /** system: the system prompt; tools: one tool's definition; summary: a compaction; message: a turn of the conversation. */
  kind: 'system' | 'tool' | 'summary' | 'message';
  /** user, assistant or tool (for kind message). */
  role?: 'user' | 'assistant' | 'tool';
  /** A short name for the part: the tool's name, "user message", "read_file result"... */
  label: string;
  /** The part's text as sent (JSON for tool definitions, calls and schemas); cut past PREVIEW_PART_MAX_CHARS. */
  text: string;
  /** The whole text's length in bytes, also when `text` is cut. */
  bytes: number;
  /** Estimated tokens (the provider's reported tokens per byte times the bytes). */
  tokens: number;
  /** Replaced by a stub because it is old; the stub is what is sent. */
  masked?: boolean;
  /** A cache breakpoint ends on this part (Anthropic). */
  breakpoint?: boolean;
  /** The log events this part comes from. */
  seqs?: [number, number];
}

export interface ContextPreview {
  /** provider:modelId, or null when no model is configured. */
  model: string | null;
  window: number;
  /** Kept free for the model's reply. */
  outputReserve: number;
  /** Estimated tokens of the whole request. */
  tokens: number;
  /** Tokens per byte used for the estimate, and whether it came from the provider's own counts. */
  tokensPerByte: number;
  calibrated: boolean;
  parts: ContextPart[];
  /** Set when the next step would first mask or summarise; the parts show the context before that. */
  pending: string | null;
}

/** A part's text is cut to this many characters in the preview (its token count is the whole part's). */
export const PREVIEW_PART_MAX_CHARS = 16 * 1024;
