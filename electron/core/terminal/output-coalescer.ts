/**
 * Gathers a terminal's output into few pushes. Output after a quiet spell goes out at once
 * (an echoed keystroke must not wait); what follows within TERMINAL_FLUSH_MS is batched
 * into one push at the end of that window, or sooner when TERMINAL_FLUSH_BYTES are waiting.
 * A `yes` in the shell would otherwise mean one WebSocket message per read. The buffer
 * never holds more than one push, so a renderer that is gone cannot make it grow.
 */
import { TERMINAL_FLUSH_BYTES, TERMINAL_FLUSH_MS } from '../../../shared/limits.js';

export class OutputCoalescer {
  private chunks: string[] = [];
  private bytes = 0;
  /** Set while a batching window is open (something was pushed less than TERMINAL_FLUSH_MS ago). */
  private window: NodeJS.Timeout | null = null;

  constructor(private readonly flushTo: (data: string) => void) {}

  add(data: string): void {
    if (data === '') return;
    const size = Buffer.byteLength(data);
    // Keep each push within the flush size when the reads allow it.
    if (this.bytes > 0 && this.bytes + size > TERMINAL_FLUSH_BYTES) this.push();
    this.chunks.push(data);
    this.bytes += size;
    if (!this.window || this.bytes >= TERMINAL_FLUSH_BYTES) this.push();
  }

  /** Pushes whatever is waiting now (the shell exited). */
  flush(): void {
    if (this.window) clearTimeout(this.window);
    this.window = null;
    this.push();
  }

  private push(): void {
    if (this.chunks.length > 0) {
      const data = this.chunks.join('');
      this.chunks = [];
      this.bytes = 0;
      this.flushTo(data);
    }
    if (this.window) clearTimeout(this.window);
    this.window = setTimeout(() => this.endWindow(), TERMINAL_FLUSH_MS);
  }

  private endWindow(): void {
    this.window = null;
    // Something arrived during the window: push it and batch again; else the next read goes out at once.
    if (this.chunks.length > 0) this.push();
  }
}
