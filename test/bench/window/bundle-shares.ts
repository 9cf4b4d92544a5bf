/**
 * Which packages the bytes of a built JS file come from, read from its source map: each
 * mapped span of generated code is counted for the source it maps to, and sources are
 * grouped by npm package (or "app: renderer" / "app: shared"). Sizes are minified bytes.
 */
import { promises as fs } from 'node:fs';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes one segment's base64 VLQ fields. */
function decodeSegment(segment: string): number[] {
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return fields;
}

function packageOf(source: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (match) return match[1]!;
  if (source.includes('/shared/')) return 'app: shared';
  if (source.includes('/renderer/')) return 'app: renderer';
  return 'other';
}

/**
 * Minified bytes per package for the JS file at `jsPath` (its map at `jsPath.map`).
 * `groupOf` names the group of a source path instead (one of the app's own files, say).
 */
export async function bundleShares(
  jsPath: string,
  groupOf: (source: string) => string = packageOf,
): Promise<Map<string, number>> {
  const code = await fs.readFile(jsPath, 'utf8');
  const map = JSON.parse(await fs.readFile(`${jsPath}.map`, 'utf8')) as { sources: string[]; mappings: string };
  const lineLengths = code.split('\n').map((line) => line.length);
  const shares = new Map<string, number>();
  let source = 0;
  for (const [lineIndex, line] of map.mappings.split(';').entries()) {
    let column = 0;
    const spans: { column: number; source: number | null }[] = [];
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const fields = decodeSegment(segment);
      column += fields[0]!;
      if (fields.length >= 4) source += fields[1]!;
      spans.push({ column, source: fields.length >= 4 ? source : null });
    }
    for (const [i, span] of spans.entries()) {
      const end = spans[i + 1]?.column ?? lineLengths[lineIndex] ?? span.column;
      const name = span.source === null ? 'unmapped' : groupOf(map.sources[span.source] ?? '');
      shares.set(name, (shares.get(name) ?? 0) + Math.max(0, end - span.column));
    }
  }
  return shares;
}
