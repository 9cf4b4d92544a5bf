/**
 * The runner's view of a model: one step per call. The caller owns the tool loop, so the
 * gate can step in between steps.
 */
import type { AssistantModelMessage, FinishReason, ModelMessage } from 'ai';
import type { ChatError } from './chat-error.js';
import type { ToolSpec } from './sdk-tool-set.js';

export interface RetryNotice {
  /** 1 for the first retry. */
  retry: number;
  delayMs: number;
  /** The failure being retried. */
  error: ChatError;
  /**
   * Text already passed to onTextDelta by the failed attempt. It is void: drop it, because
   * the next attempt streams the step's text afresh. Empty when nothing had been delivered.
   */
  discardedText: string;
}

/**
 * Where prompt-cache breakpoints end, as positions: after the system prompt (the tools
 * come before it, so it covers them too) and after these messages. The client writes
 * them in its provider's wire format; a provider that caches on its own gets none.
 */
export interface CacheBreakpoints {
  system: boolean;
  /** Indices into `messages`, ascending. */
  messages: readonly number[];
}

export interface StepRequest {
  system: string;
  /** The conversation so far, including earlier tool calls and tool results. */
  messages: ModelMessage[];
  cacheBreakpoints?: CacheBreakpoints;
  tools: Readonly<Record<string, ToolSpec>>;
  /** The reply's cap, kept free in the context window; the config's maxOutputTokens when absent. */
  maxOutputTokens?: number;
  /** Groups requests for the provider's prompt cache (OpenAI's prompt_cache_key): the session id. */
  cacheKey?: string;
  /** Aborting stops the HTTP stream at once; step() then rejects with kind 'aborted'. */
  signal: AbortSignal;
  /** Text as it streams in, for the UI. The step's result holds the authoritative text. */
  onTextDelta?: (delta: string) => void;
  /** Called before each retry of a transient failure. */
  onRetry?: (notice: RetryNotice) => void;
}

export interface StepToolCall {
  toolCallId: string;
  toolName: string;
  /**
   * The parsed arguments. For malformed JSON this is the raw text the model sent; when
   * sending the call back as history, use `assistantMessage`, which has it made safe.
   */
  input: unknown;
  /** Set when the call is unusable (unknown tool, malformed JSON, schema mismatch): a message for the model. */
  error?: string;
}

/** As the provider reported it. inputTokens includes the cached tokens (read and written). */
export interface StepUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  cacheReadTokens?: number | undefined;
  cacheWriteTokens?: number | undefined;
}

export interface StepResult {
  text: string;
  toolCalls: StepToolCall[];
  /** 'stop', 'tool-calls', 'length', 'content-filter' or 'other'. */
  finishReason: FinishReason;
  usage?: StepUsage;
  /** The step as the provider needs to see it in the next request's history. */
  assistantMessage: AssistantModelMessage;
}

export interface ChatClient {
  /** One model step. Rejects only with a ChatError. */
  step(request: StepRequest): Promise<StepResult>;
}
