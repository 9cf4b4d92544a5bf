/**
 * The last bytes a server wrote to its stderr: shown in Settings when it fails to start or
 * stops, so the person sees why. A fixed bound, however much it writes.
 */
import { MCP_STDERR_TAIL_BYTES } from '../../../shared/limits.js';

export class StderrTail {
  private chunks: Buffer[] = [];
  private bytes = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.bytes - (this.chunks[0]?.length ?? 0) >= MCP_STDERR_TAIL_BYTES) {
      this.bytes -= this.chunks.shift()!.length;
    }
  }

  /** The tail as text, cut at a line start when it had to be cut. */
  text(): string {
    const all = Buffer.concat(this.chunks);
    const tail = all.subarray(Math.max(0, all.length - MCP_STDERR_TAIL_BYTES)).toString('utf8');
    if (all.length <= MCP_STDERR_TAIL_BYTES) return tail.trimEnd();
    const firstLine = tail.indexOf('\n');
    return `…${firstLine >= 0 ? tail.slice(firstLine) : tail}`.trimEnd();
  }
}
