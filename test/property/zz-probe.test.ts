import { it } from 'vitest';
import fc from 'fast-check';
import { historyArbitrary } from './history-arbitrary.js';
import { checkHistory } from './history-check.js';
import { describeHistory } from './history.js';
import { runHistory } from './history-runner.js';

it('probe', async () => {
  const t0 = Date.now();
  let v: string[] = [];
  const r = await fc.check(fc.asyncProperty(historyArbitrary(), async (h) => { const o = await checkHistory(h); if (o.violations.length) v = o.violations; return o.violations.length === 0; }), { seed: Number(process.env.SEED ?? 11), numRuns: Number(process.env.RUNS ?? 300) });
  console.log(r.failed, r.numRuns, Date.now() - t0, r.counterexample && describeHistory(r.counterexample[0]), v);
  if (r.counterexample && process.env.DUMP) await runHistory(r.counterexample[0], { dump: true });
}, 1900_000);
