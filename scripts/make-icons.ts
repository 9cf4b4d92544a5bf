/**
 * Draws the app's icons (build/icon.png, build/tray/tray.png and tray@2x.png) with nothing
 * but Node: a gatehouse — a crenellated wall with an arched gate — on a rounded square,
 * rasterised with 4×4 supersampling and written as PNG through zlib. Run it again after
 * changing the drawing: `node --import tsx scripts/make-icons.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

type Rgba = [number, number, number, number];

const BACKGROUND: Rgba = [31, 41, 55, 255];
const GATE: Rgba = [245, 158, 11, 255];

/** Inside the rounded square, in unit coordinates. */
function inBackground(x: number, y: number): boolean {
  const r = 0.18;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** The wall with three merlons on top and an arched gate cut out of it. */
function inGatehouse(x: number, y: number): boolean {
  const wall = x >= 0.2 && x <= 0.8 && y >= 0.36 && y <= 0.8;
  const merlon = y >= 0.22 && y < 0.36 && [0.2, 0.44, 0.68].some((left) => x >= left && x <= left + 0.12);
  const gateHalf = 0.12;
  const gateTop = 0.56;
  const inGate =
    Math.abs(x - 0.5) <= gateHalf && (y >= gateTop || (x - 0.5) ** 2 + (y - gateTop) ** 2 <= gateHalf ** 2) && y <= 0.8;
  return (wall || merlon) && !inGate;
}

function pixel(x: number, y: number): Rgba {
  if (!inBackground(x, y)) return [0, 0, 0, 0];
  return inGatehouse(x, y) ? GATE : BACKGROUND;
}

function render(size: number): Buffer {
  const samples = 4;
  const rows: Buffer[] = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const [r, g, b, a] = pixel((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size);
          // Premultiplied, so transparent samples do not darken the edges.
          sum[0]! += (r * a) / 255;
          sum[1]! += (g * a) / 255;
          sum[2]! += (b * a) / 255;
          sum[3]! += a;
        }
      }
      const n = samples * samples;
      const alpha = sum[3]! / n;
      const unpremultiply = (c: number) => (alpha === 0 ? 0 : Math.round(((c / n) * 255) / alpha));
      row.set([unpremultiply(sum[0]!), unpremultiply(sum[1]!), unpremultiply(sum[2]!), Math.round(alpha)], 1 + px * 4);
    }
    rows.push(row);
  }
  return png(size, size, Buffer.concat(rows));
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGBA PNG of already filtered rows (filter byte 0 at the start of each). */
function png(width: number, height: number, rows: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const build = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'build');
mkdirSync(path.join(build, 'tray'), { recursive: true });
writeFileSync(path.join(build, 'icon.png'), render(512));
writeFileSync(path.join(build, 'tray', 'tray.png'), render(16));
writeFileSync(path.join(build, 'tray', 'tray@2x.png'), render(32));
console.log(`icons written to ${build}`);
