/**
 * The one error a chat step throws. `kind` tells the runner what happened without it
 * knowing any provider; `message` is written for the user and never holds an API key.
 */
import type { ContextLimit } from './context-overflow.js';
import type { ErrorKind } from '../error-kind.js';

export type ChatErrorKind =
  /** No usable model configuration or no key: nothing was sent. */
  | 'config'
  /** The provider rejected the key (401/403). Retrying cannot help. */
  | 'auth'
  | 'rate_limit'
  /** 5xx, overload, or a reply the provider garbled. */
  | 'server'
  /** Could not connect, or the connection broke off mid-reply. */
  | 'network'
  | 'aborted'
  /** The provider refused the request itself (other 4xx): retrying the same request cannot help. */
  | 'bad_request'
  /** The request was longer than the model's context window: shrink the context and try again. */
  | 'context_overflow';

export interface ChatErrorOptions {
  /** True when the same request may succeed later. */
  retryable?: boolean;
  /** The HTTP status, when there was one. */
  status?: number;
  /** For context_overflow: what the provider said of the request's size and the window. */
  contextLimit?: ContextLimit;
}

export class ChatError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'ChatError';
  readonly kind: ChatErrorKind;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly contextLimit: ContextLimit | undefined;

  constructor(kind: ChatErrorKind, message: string, options: ChatErrorOptions = {}) {
    super(message);
    this.kind = kind;
    this.retryable = options.retryable ?? false;
    this.status = options.status;
    this.contextLimit = options.contextLimit;
  }

  /** The same error with another message (a note appended, or a secret scrubbed). */
  withMessage(message: string): ChatError {
    return new ChatError(this.kind, message, {
      retryable: this.retryable,
      status: this.status,
      contextLimit: this.contextLimit,
    });
  }

  /** The same error with a note appended, e.g. how many attempts were made. */
  withNote(note: string): ChatError {
    return this.withMessage(`${this.message} ${note}`);
  }
}

export function isChatError(error: unknown): error is ChatError {
  return error instanceof ChatError;
}
