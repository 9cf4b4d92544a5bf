/**
 * Gathers a terminal's output into few pushes: one after TERMINAL_FLUSH_MS, or at once
 * when TERMINAL_FLUSH_BYTES are waiting. A `yes` in the shell would otherwise mean one
 * WebSocket message per read. The buffer never holds more than one flush's worth, so a
 * renderer that is gone cannot make it grow.
 */
import { TERMINAL_FLUSH_BYTES, TERMINAL_FLUSH_MS } from '../../../shared/limits.js';

export class OutputCoalescer {
  private chunks: string[] = [];
  private bytes = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly flushTo: (data: string) => void) {}

  add(data: string): void {
    if (data === '') return;
    this.chunks.push(data);
    this.bytes += Buffer.byteLength(data);
    if (this.bytes >= TERMINAL_FLUSH_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), TERMINAL_FLUSH_MS);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.chunks.length === 0) return;
    const data = this.chunks.join('');
    this.chunks = [];
    this.bytes = 0;
    this.flushTo(data);
  }
}
