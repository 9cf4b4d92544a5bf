/**
 * Deterministic file pairs for the diff tests and the diff benchmark: source-like text
 * (functions with unique body lines, shared closing braces and blank lines) and an edited
 * copy where a given fraction of lines was changed, deleted or followed by a new line.
 */

/** mulberry32: a small seeded generator, so a failing pair can be regenerated exactly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Source-like lines ending in "\n", about `bytes` long in all. */
export function sourceLines(bytes: number, random: () => number): string[] {
  const lines: string[] = [];
  let size = 0;
  for (let fn = 0; size < bytes; fn++) {
    const body = [`function f${fn}(a, b) {`];
    const statements = 2 + Math.floor(random() * 8);
    for (let s = 0; s < statements; s++)
      body.push(`  const v${fn}_${s} = a * ${Math.floor(random() * 1e6)} + b; // ${word(random)}`);
    body.push(`  return v${fn}_0;`, '}', '');
    for (const line of body) {
      lines.push(`${line}\n`);
      size += line.length + 1;
    }
  }
  return lines;
}

/** A copy of `lines` with about `fraction` of them edited: changed, deleted, or followed by an inserted line. */
export function editedLines(lines: string[], fraction: number, random: () => number): string[] {
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (random() >= fraction) {
      out.push(line);
      return;
    }
    const roll = random();
    if (roll < 0.6) out.push(`  changed(${i}, ${Math.floor(random() * 1e9)});\n`);
    else if (roll < 0.8) out.push(line, `  inserted(${i}, ${Math.floor(random() * 1e9)});\n`);
    // else: deleted
  });
  return out;
}

export function generatedPair(bytes: number, fraction: number, seed: number): { before: string; after: string } {
  const random = seededRandom(seed);
  const lines = sourceLines(bytes, random);
  return { before: lines.join(''), after: editedLines(lines, fraction, random).join('') };
}

function word(random: () => number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let w = '';
  for (let n = 3 + Math.floor(random() * 20); n > 0; n--) w += letters[Math.floor(random() * letters.length)];
  return w;
}
