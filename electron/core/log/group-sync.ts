/**
 * Group commit for fsync. A caller asks for a sync after its write has returned; it is
 * answered by the first sync that *starts* after its request. Callers that arrive while a
 * sync runs share the one queued behind it, so n concurrent appends cost about two syncs
 * rather than n, and nobody is acknowledged by a sync that may have missed their bytes.
 */
export class GroupSync {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(private readonly sync: () => Promise<void>) {}

  request(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    const startNext = (): Promise<void> => {
      this.queued = null;
      return this.start();
    };
    this.queued = this.running.then(startNext, startNext);
    return this.queued;
  }

  private start(): Promise<void> {
    const run = this.sync();
    this.running = run;
    const clear = (): void => {
      if (this.running === run) this.running = null;
    };
    run.then(clear, clear);
    return run;
  }
}
