/**
 * How transient failures are retried. The SDK's own retry is turned off (its delays are
 * fixed at seconds and it cannot see a stream that breaks mid-reply), so one policy
 * covers every transient failure and tests can make the delays tiny.
 */
import { APICallError } from 'ai';

export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  initialDelayMs: number;
  /** Also caps a provider's retry-after hint. */
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxRetries: 3, initialDelayMs: 1_000, maxDelayMs: 30_000 };

/** The provider's own hint (retry-after-ms, or retry-after in seconds), when it gave one. */
function retryAfterMs(error: unknown): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const headers = error.responseHeaders ?? {};
  const ms = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const seconds = Number.parseFloat(headers['retry-after'] ?? '');
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1_000;
  return undefined;
}

/** The wait before retry number `retry` (1-based): exponential, or the provider's hint. */
export function retryDelayMs(policy: RetryPolicy, retry: number, error: unknown): number {
  const backoff = policy.initialDelayMs * 2 ** (retry - 1);
  return Math.min(policy.maxDelayMs, retryAfterMs(error) ?? backoff);
}
