/**
 * Runs async jobs one at a time, in the order they were handed in. The log uses it so
 * that seq order is file order and meta updates never interleave; a session's checkpoint
 * operations, a context's requests and an MCP server's tool refreshes go through one too.
 * A failed job rejects only its own caller; the next job still runs.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  run<T>(job: () => Promise<T>): Promise<T> {
    this.waiting += 1;
    const result = this.tail.then(job).finally(() => {
      this.waiting -= 1;
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Whether no job is queued or running: a keyed set of queues lets an idle one go. */
  get idle(): boolean {
    return this.waiting === 0;
  }
}
