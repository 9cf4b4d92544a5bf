/**
 * Reading the frames a resident sandbox's server writes (resident-server-source.ts): its
 * standard output arrives in chunks that split frames anywhere, so bytes are kept until a
 * whole frame is there.
 */
import { FRAME_HEADER_BYTES } from './resident-server-source.js';

export interface Frame {
  kind: number;
  id: number;
  payload: Buffer;
}

export class FrameReader {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly onFrame: (frame: Frame) => void) {}

  feed(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let at = 0;
    while (this.pending.length - at >= FRAME_HEADER_BYTES) {
      const length = this.pending.readUInt32BE(at + 5);
      const end = at + FRAME_HEADER_BYTES + length;
      if (this.pending.length < end) break;
      const frame = {
        kind: this.pending.readUInt8(at),
        id: this.pending.readUInt32BE(at + 1),
        payload: this.pending.subarray(at + FRAME_HEADER_BYTES, end),
      };
      at = end;
      this.onFrame(frame);
    }
    this.pending = this.pending.subarray(at);
  }
}
