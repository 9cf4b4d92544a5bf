/**
 * The window benches' sample text file: numbered lines of the same length, some marked
 * CHANGED, so a pair of them gives a diff of a known shape and size.
 */
export function sampleLines(count: number, changed: (i: number) => boolean): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const line = `line ${String(i).padStart(4, '0')}: the quick brown fox jumps over the dog`;
    out.push(changed(i) ? `CHANGED ${line}` : line);
  }
  return out.join('\n') + '\n';
}
