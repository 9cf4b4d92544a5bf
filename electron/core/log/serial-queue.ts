/**
 * Runs async jobs one at a time, in the order they were handed in. The log uses it so
 * that seq order is file order, and meta updates never interleave. A failed job rejects
 * only its own caller; the next job still runs.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T>): Promise<T> {
    const result = this.tail.then(job);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
