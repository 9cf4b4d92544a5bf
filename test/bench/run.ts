/**
 * `npm run bench`: runs every test/bench/*.bench.ts in its own process, one after the
 * other (so they do not compete for the two cores), and prints their report lines.
 * `npm run bench -- grep` runs only benches whose file name contains "grep".
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();

let failed = 0;
for (const file of benches) {
  console.log(`\n== ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, file)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`${file} exited with ${r.status ?? r.signal}`);
  }
}
console.log(`\n${benches.length} benchmarks run, ${failed} crashed`);
process.exit(failed > 0 ? 1 : 0);
