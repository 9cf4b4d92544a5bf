import { afterAll, describe, expect, it } from 'vitest';
import { computeCardDiff } from '../../../../../electron/core/diff/bytes-card-diff.js';
import { CardDiffer, INLINE_MAX_BYTES } from '../../../../../electron/core/diff/card-differ.js';
import { NOTES } from '../../../../../shared/diff/unified-diff.js';
import { generatedPair, seededRandom, sourceLines } from './generated-pairs.js';
import { FROM_WORKER } from './marker-worker.js';

const sides = (before: string, after: string, path = 'x') => ({
  path,
  before: Buffer.from(before),
  after: Buffer.from(after),
});
const markerUrl = new URL('./marker-worker.js', import.meta.url);

/** A small pair whose exact diff costs far more than the in-place budget. */
function scrambledSmallPair() {
  const random = seededRandom(3);
  const text = () => Array.from({ length: 3000 }, () => ['a\n', 'b\n', '\n'][Math.floor(random() * 3)]).join('');
  return sides(text(), text());
}

describe('CardDiffer', () => {
  const real = new CardDiffer();
  const marked = new CardDiffer({ workerUrl: markerUrl });
  afterAll(async () => {
    await Promise.all([real.dispose(), marked.dispose()]);
  });

  it('diffs a small pair in place, without the worker', async () => {
    const d = await marked.diff(sides('a\n', 'b\n'));
    expect(d.diff).toBe('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n');
  });

  it('sends a pair larger than the in-place limit to the worker', async () => {
    const big = 'x\n'.repeat(INLINE_MAX_BYTES);
    expect((await marked.diff(sides(big, `${big}y\n`))).diff).toBe(FROM_WORKER);
  });

  it('sends a small pair that is expensive to line up to the worker', async () => {
    const pair = scrambledSmallPair();
    expect(pair.before.length + pair.after.length).toBeLessThanOrEqual(INLINE_MAX_BYTES);
    expect((await marked.diff(pair)).diff).toBe(FROM_WORKER);
  });

  it('gives, from its worker, the same card diff as computing it directly', async () => {
    const { before, after } = generatedPair(256 * 1024, 0.1, 11);
    const pair = sides(before, after, '/work/src/big.ts');
    expect(await real.diff(pair)).toEqual(computeCardDiff(pair));
  });

  it('leaves the event loop free while the worker lines up a scrambled pair', async () => {
    const lines = sourceLines(256 * 1024, seededRandom(12));
    const pair = sides(lines.join(''), lines.reverse().join(''));
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const d = await real.diff(pair);
    clearInterval(ticker);
    expect(d.note).toBe(NOTES.simplified);
    expect(turns).toBeGreaterThan(0);
  });

  it('answers several diffs in flight, each with its own result', async () => {
    const pairs = [1, 2, 3].map((seed) => {
      const { before, after } = generatedPair(48 * 1024, 0.1, seed);
      return sides(before, after, `f${seed}.ts`);
    });
    const results = await Promise.all(pairs.map((p) => real.diff(p)));
    expect(results).toEqual(pairs.map((p) => computeCardDiff(p)));
  });

  it('still answers, in place, when its worker cannot be loaded', async () => {
    const broken = new CardDiffer({ workerUrl: new URL('./no-such-worker.js', import.meta.url) });
    const pair = scrambledSmallPair();
    expect(await broken.diff(pair)).toEqual(computeCardDiff(pair));
    await broken.dispose();
  });

  it('refuses work once closed', async () => {
    const differ = new CardDiffer();
    await differ.dispose();
    await expect(differ.diff(sides('a\n', 'b\n'))).rejects.toThrow(/closed/);
  });
});
