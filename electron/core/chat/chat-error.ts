/**
 * The one error a chat step throws. `kind` tells the runner what happened without it
 * knowing any provider; `message` is written for the user and never holds an API key.
 */
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
  | 'bad_request';

export interface ChatErrorOptions {
  /** True when the same request may succeed later. */
  retryable?: boolean;
  /** The HTTP status, when there was one. */
  status?: number;
}

export class ChatError extends Error {
  override readonly name = 'ChatError';
  readonly kind: ChatErrorKind;
  readonly retryable: boolean;
  readonly status: number | undefined;

  constructor(kind: ChatErrorKind, message: string, options: ChatErrorOptions = {}) {
    super(message);
    this.kind = kind;
    this.retryable = options.retryable ?? false;
    this.status = options.status;
  }

  /** The same error with a note appended, e.g. how many attempts were made. */
  withNote(note: string): ChatError {
    return new ChatError(this.kind, `${this.message} ${note}`, { retryable: this.retryable, status: this.status });
  }
}

export function isChatError(error: unknown): error is ChatError {
  return error instanceof ChatError;
}
