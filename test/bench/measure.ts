/**
 * Shared helpers for benchmarks. A benchmark prints a ratio of our code against a
 * reference measured in the same run on the same machine, never an absolute target in a
 * test: machines are noisy, ratios much less so.
 */
import { performance } from 'node:perf_hooks';

export interface Timing {
  /** Median milliseconds per iteration. */
  p50: number;
  p99: number;
  mean: number;
  iterations: number;
}

/** Runs fn `warmup` times unmeasured, then `iterations` times, and returns per-call timings. */
export async function measure(
  fn: () => unknown,
  iterations: number,
  warmup = Math.min(5, iterations),
): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const pick = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? NaN;
  return { p50: pick(0.5), p99: pick(0.99), mean: samples.reduce((a, b) => a + b, 0) / samples.length, iterations };
}

/** Prints one line: ours against the reference, the ratio, and whether it meets the target. */
export function reportRatio(name: string, ours: number, reference: number, target: number, unit = 'ms'): boolean {
  const ratio = ours / reference;
  const ok = ratio <= target;
  console.log(
    `${name}: ours ${ours.toFixed(3)} ${unit}, reference ${reference.toFixed(3)} ${unit}, ratio ${ratio.toFixed(2)}x (target <= ${target}x) ${ok ? 'MEETS' : 'MISSES'}`,
  );
  return ok;
}

/** Prints one line for an absolute figure with its bound (memory, a pathological case). */
export function reportValue(name: string, value: number, bound: number, unit: string): boolean {
  const ok = value <= bound;
  console.log(`${name}: ${value.toFixed(2)} ${unit} (bound <= ${bound} ${unit}) ${ok ? 'MEETS' : 'MISSES'}`);
  return ok;
}
