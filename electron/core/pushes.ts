/**
 * The core's one channel of pushes (events, changed sessions, terminal output) to
 * whoever listens: the shells' windows and the tray. It is made first, so the parts that
 * push take it in their constructors instead of reaching back to the Host made after
 * them.
 */
import type { Push } from '../../shared/contract.js';

export class Pushes {
  private readonly listeners = new Set<(push: Push) => void>();

  /** @param onUnexpected where a listener's throw goes; the other listeners still get the push. */
  constructor(private readonly onUnexpected?: (err: unknown) => void) {}

  subscribe(listener: (push: Push) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(push: Push): void {
    for (const listener of this.listeners) {
      try {
        listener(push);
      } catch (err) {
        this.onUnexpected?.(err);
      }
    }
  }
}
