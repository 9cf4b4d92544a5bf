/**
 * Polls a condition until it holds, with no fixed sleeps in the tests themselves. Plain
 * code, not vitest's expect.poll, so the benchmarks (plain scripts) drive the page with
 * the same helpers as the specs.
 */
export async function waitUntil<T>(
  probe: () => T | Promise<T>,
  holds: (value: T) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: unknown;
  for (let pause = 20; ; pause = Math.min(250, pause * 2)) {
    try {
      last = await probe();
      if (holds(last)) return last;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const seen = lastError ? `error: ${String(lastError)}` : `last value: ${JSON.stringify(last)}`;
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what} (${seen})`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Awaits a promise (a fake model's hold, say), or fails after `timeoutMs` saying what it was. */
export async function within<T>(promise: Promise<T>, what: string, timeoutMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
