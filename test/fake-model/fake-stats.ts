/**
 * Totals over every request a fake model server received, for benchmarks: what a long
 * session sent, what the cache saved, and the largest single request. A request is counted
 * when it arrives, before its body is dropped (keepBodies: false).
 */

export interface FakeModelStats {
  /** Requests in a provider's wire format. */
  requests: number;
  /** Of those, refused as the real API would (over the context window, too many breakpoints). */
  refused: number;
  /** Input tokens over all requests (cached or not, refused ones included). */
  inputTokens: number;
  /** What the prompt caches read and wrote for answered requests (also under a scripted usage). */
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Output tokens the server reported (a scripted usage's when given). */
  outputTokens: number;
  /** The largest counted input of a single request. */
  peakInputTokens: number;
}

export function emptyStats(): FakeModelStats {
  return {
    requests: 0,
    refused: 0,
    inputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    peakInputTokens: 0,
  };
}
