/**
 * Prints the top self-time functions of a V8 .cpuprofile (from `node --cpu-prof`), so a
 * bench's profile can be quoted in a few lines:
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx test/bench/read-file.bench.ts
 *   node --import tsx test/bench/profile-summary.ts /tmp/prof/CPU.*.cpuprofile [top=10]
 * Self time is counted from the samples (each sample is one node's self tick), and nodes
 * are merged by function, file and line, since V8 splits one function over many call paths.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url === '' ? '' : ` ${path.basename(url)}:${lineNumber + 1}`;
  return `${functionName || '(anonymous)'}${where}`;
}

function selfTimes(profile: CpuProfile): { byLabel: Map<string, number>; totalUs: number } {
  const labels = new Map(profile.nodes.map((n) => [n.id, label(n)]));
  const byLabel = new Map<string, number>();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    // A sample's time is the gap to the next one; the first delta is the gap before it.
    const us = profile.timeDeltas[i + 1] ?? 0;
    totalUs += us;
    const key = labels.get(id) ?? '?';
    byLabel.set(key, (byLabel.get(key) ?? 0) + us);
  });
  return { byLabel, totalUs };
}

const [file, topArg] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 10);
const { byLabel, totalUs } = selfTimes(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
console.log(`${path.basename(file)}: ${(totalUs / 1000).toFixed(0)} ms sampled`);
for (const [name, us] of [...byLabel].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
}
