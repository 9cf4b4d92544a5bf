/**
 * Maps whatever the AI SDK and its providers throw (or put in the stream as an error part)
 * onto a ChatError, deciding what is worth retrying. Every message passes through
 * `redact`, because SDK errors may quote request details.
 */
import {
  APICallError,
  InvalidPromptError,
  InvalidResponseDataError,
  JSONParseError,
  StreamProviderError,
  TypeValidationError,
} from 'ai';
import { ChatError, type ChatErrorKind } from './chat-error.js';
import { contextOverflow } from './context-overflow.js';
import { providerLabel, type ModelConfig } from './model-config.js';

export interface FailureContext {
  config: ModelConfig;
  /** The key that was sent, to be scrubbed from any message. */
  secret: string | undefined;
  /** The caller's signal had fired: whatever the error says, this was a cancel. */
  aborted: boolean;
}

const keyHint: Record<ModelConfig['provider'], string> = {
  anthropic: 'in Settings or ANTHROPIC_API_KEY',
  openai: 'in Settings or OPENAI_API_KEY',
  'openai-compatible': 'for this server in Settings',
};

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Below this length a "key" is a placeholder (local servers accept anything, e.g. "ollama"),
// and replacing every occurrence of it would garble the message instead of protecting anything.
const minSecretLength = 8;

function redact(text: string, secret: string | undefined): string {
  const keyless = secret && secret.length >= minSecretLength ? text.replaceAll(secret, '[redacted]') : text;
  // A base URL may carry credentials of its own (user:pass@host, ?api-key=...).
  return keyless
    .replace(/(\bhttps?:\/\/)[^\s/@]+@/gi, '$1[redacted]@')
    .replace(/([?&](?:api[-_]?key|key|token|access_token|auth)=)[^&\s]+/gi, '$1[redacted]');
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function causeMessage(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? cause.message : error.message;
}

/** `body` is the raw error body, read only to recognise a context-window refusal by its code. */
function fromStatus(status: number, retryable: boolean, detail: string, ctx: FailureContext, body = ''): ChatError {
  const label = providerLabel(ctx.config);
  const said = `HTTP ${status}: ${detail}`;
  const make = (kind: ChatErrorKind, message: string, canRetry: boolean): ChatError =>
    new ChatError(kind, message, { status, retryable: canRetry });
  if (status === 401 || status === 403) {
    return make(
      'auth',
      `${capitalized(label)} rejected the API key (${said}). Check your key ${keyHint[ctx.config.provider]}.`,
      false,
    );
  }
  if (status === 429) return make('rate_limit', `${capitalized(label)} is rate-limiting requests (${said}).`, true);
  if (status === 408 || status === 409 || status >= 500) {
    return make('server', `${capitalized(label)} had a server error (${said}).`, retryable);
  }
  const overflow = status === 400 || status === 413 ? contextOverflow(`${detail}\n${body}`) : null;
  if (overflow) {
    return new ChatError('context_overflow', `The conversation is longer than the model's context window (${said}).`, {
      status,
      contextLimit: overflow,
    });
  }
  return make('bad_request', `${capitalized(label)} refused the request (${said}).`, false);
}

function fromApiCall(error: APICallError, ctx: FailureContext): ChatError {
  const label = providerLabel(ctx.config);
  const status = error.statusCode;
  if (status === undefined) {
    return new ChatError('network', `Could not reach ${label}: ${causeMessage(error)}.`, {
      retryable: error.isRetryable,
    });
  }
  if (status >= 200 && status < 300) {
    // The response had started well; reading it failed. A dropped socket is retryable.
    return error.isRetryable
      ? new ChatError('network', `The reply from ${label} broke off mid-stream (${causeMessage(error)}).`, {
          retryable: true,
        })
      : new ChatError('server', `${capitalized(label)} sent a reply that could not be read (${causeMessage(error)}).`);
  }
  return fromStatus(status, error.isRetryable, error.message, ctx, error.responseBody);
}

function classify(error: unknown, ctx: FailureContext): ChatError {
  const label = providerLabel(ctx.config);
  if (ctx.aborted || isAbort(error)) return new ChatError('aborted', 'The model call was cancelled.');
  if (error instanceof ChatError) return error;
  if (APICallError.isInstance(error)) return fromApiCall(error, ctx);
  if (StreamProviderError.isInstance(error)) {
    if (error.statusCode !== undefined) return fromStatus(error.statusCode, error.isRetryable, error.message, ctx);
    return new ChatError('server', `${capitalized(label)} reported an error mid-reply: ${error.message}`, {
      retryable: error.isRetryable,
    });
  }
  if (
    InvalidResponseDataError.isInstance(error) ||
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error)
  ) {
    // Garbled or truncated stream data: a fresh attempt usually reads fine.
    return new ChatError('server', `${capitalized(label)} sent a reply that could not be read: ${error.message}`, {
      retryable: true,
    });
  }
  if (InvalidPromptError.isInstance(error)) {
    // Our own history was malformed before anything was sent: a runner bug, not the provider's.
    return new ChatError('bad_request', `The request to ${label} was malformed: ${error.message}`);
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new ChatError('server', `The call to ${label} failed: ${detail}`);
}

export function toChatError(error: unknown, ctx: FailureContext): ChatError {
  const chatError = classify(error, ctx);
  const message = redact(chatError.message, ctx.secret);
  if (message === chatError.message) return chatError;
  return chatError.withMessage(message);
}
