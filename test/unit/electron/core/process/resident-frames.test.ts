/**
 * The frames a resident sandbox's server writes arrive in chunks cut anywhere: each is read
 * whole, in order, however the bytes were split.
 */
import { describe, expect, it } from 'vitest';
import { FrameReader, type Frame } from '../../../../../electron/core/process/resident-frames.js';
import { FRAME } from '../../../../../electron/core/process/resident-server-source.js';

function frame(kind: number, id: number, payload: string): Buffer {
  const header = Buffer.alloc(9);
  header.writeUInt8(kind, 0);
  header.writeUInt32BE(id, 1);
  header.writeUInt32BE(Buffer.byteLength(payload), 5);
  return Buffer.concat([header, Buffer.from(payload)]);
}

describe('reading frames', () => {
  it('reads every frame whole, whatever the chunks', () => {
    const bytes = Buffer.concat([
      frame(FRAME.ready, 0, ''),
      frame(FRAME.stdout, 7, 'a.txt:1:needle\n'),
      frame(FRAME.stderr, 7, 'rg: oops\n'),
      frame(FRAME.exit, 7, '{"code":0,"signal":null}'),
    ]);
    for (const size of [1, 2, 5, 9, 10, 64]) {
      const seen: Frame[] = [];
      const reader = new FrameReader((f) => seen.push(f));
      for (let at = 0; at < bytes.length; at += size) reader.feed(bytes.subarray(at, at + size));
      expect(seen.map((f) => [f.kind, f.id, f.payload.toString('utf8')])).toEqual([
        [FRAME.ready, 0, ''],
        [FRAME.stdout, 7, 'a.txt:1:needle\n'],
        [FRAME.stderr, 7, 'rg: oops\n'],
        [FRAME.exit, 7, '{"code":0,"signal":null}'],
      ]);
    }
  });
});
