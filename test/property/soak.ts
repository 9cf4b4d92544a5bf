/**
 * The long run: `npm run soak -- --histories 100000`. Worker processes (--jobs, default 4)
 * each check their share of histories in chunks of fast-check runs; this process adds up
 * their progress and prints histories per second and violations found. A failure prints
 * the shrunk history as steps and as a replayable seed, and writes it as JSON.
 *
 *   --histories N     how many histories in all (default 100000)
 *   --seed S          the run's seed (default: the clock); worker j, chunk k use S + j*1e6 + k
 *   --jobs J          worker processes (default 4: a history mostly waits on the disk)
 *   --crash-share F   share of histories run in a host process with a kill -9 (default 0.02)
 *   --mcp-share F     share of histories whose workspaces name the test MCP server (default 0.1)
 *   --racer-share F   share of histories beside a confined racer swapping links (default 0.05)
 *   --replay FILE     run one history from a failure's JSON and print both logs
 *   --replay-seed S --path P   replay a shrunk failure through fast-check
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { historyArbitrary } from './history-arbitrary.js';
import { checkHistory } from './history-check.js';
import { runHistory } from './history-runner.js';
import { describeHistory, type History } from './history.js';

interface Progress {
  histories: number;
  steps: number;
  kills: number;
  violations: number;
}

const CHUNK = 100;
const args = parseArgs(process.argv.slice(2));

if (args.replay) await replayFile(args.replay);
else if (args['replay-seed']) await replaySeed(Number(args['replay-seed']), args.path ?? '');
else if (args.worker)
  await worker(Number(args.histories), Number(args.seed), {
    crashShare: Number(args['crash-share']),
    mcpShare: Number(args['mcp-share']),
    racerShare: Number(args['racer-share']),
  });
else await coordinate();

function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i]!.replace(/^--/, '');
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) out[key] = 'true';
    else out[key] = argv[++i]!;
  }
  return out;
}

async function coordinate(): Promise<void> {
  const total = Number(args.histories ?? 100_000);
  const jobs = Number(args.jobs ?? 4);
  const seed = Number(args.seed ?? Date.now() % 1_000_000_000);
  const share = args['crash-share'] ?? '0.02';
  const mcpShare = args['mcp-share'] ?? '0.1';
  const racerShare = args['racer-share'] ?? '0.05';
  const started = Date.now();
  console.log(
    `soak: ${total} histories, seed ${seed}, ${jobs} workers, crash share ${share}, MCP share ${mcpShare}, racer share ${racerShare}`,
  );
  const sums = new Map<number, Progress>();
  const report = () => printProgress(sum([...sums.values()]), started);
  const timer = setInterval(report, 10_000);
  const script = fileURLToPath(import.meta.url);
  await Promise.all(
    Array.from({ length: jobs }, (_, j) => {
      const share_j = Math.floor(total / jobs) + (j < total % jobs ? 1 : 0);
      const child = spawn(
        process.execPath,
        [
          ...process.execArgv,
          script,
          '--worker',
          '--histories',
          String(share_j),
          '--seed',
          String(seed + j * 1e6),
          '--crash-share',
          share,
          '--mcp-share',
          mcpShare,
          '--racer-share',
          racerShare,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line.startsWith('{"progress"')) sums.set(j, (JSON.parse(line) as { progress: Progress }).progress);
        else console.log(line);
      });
      return new Promise((r) => child.on('exit', r));
    }),
  );
  clearInterval(timer);
  const final = sum([...sums.values()]);
  console.log('soak finished');
  printProgress(final, started);
  process.exitCode = final.violations > 0 ? 1 : 0;
}

function sum(all: Progress[]): Progress {
  return all.reduce(
    (a, p) => ({
      histories: a.histories + p.histories,
      steps: a.steps + p.steps,
      kills: a.kills + p.kills,
      violations: a.violations + p.violations,
    }),
    { histories: 0, steps: 0, kills: 0, violations: 0 },
  );
}

function printProgress(p: Progress, started: number): void {
  const secs = (Date.now() - started) / 1000;
  console.log(
    `[${new Date().toISOString()}] ${p.histories} histories, ${p.steps} steps, ${p.kills} kills, ` +
      `${p.violations} violations found; ${(p.histories / secs).toFixed(1)} histories/s; wall ${secs.toFixed(0)} s`,
  );
}

async function worker(
  total: number,
  seed: number,
  shares: { crashShare: number; mcpShare: number; racerShare: number },
): Promise<void> {
  const progress: Progress = { histories: 0, steps: 0, kills: 0, violations: 0 };
  const arbitrary = historyArbitrary(shares);
  for (let done = 0, k = 0; done < total; done += CHUNK, k++) {
    const chunkSeed = seed + k;
    let found: string[] = [];
    const property = fc.asyncProperty(arbitrary, async (h) => {
      const r = await checkHistory(h);
      if (r.violations.length > 0) found = r.violations;
      progress.histories++;
      progress.steps += r.steps;
      progress.kills += r.reached.kills ?? 0;
      if (progress.histories % 10 === 0) process.stdout.write(`${JSON.stringify({ progress })}\n`);
      return r.violations.length === 0;
    });
    const details = await fc.check(property, { seed: chunkSeed, numRuns: Math.min(CHUNK, total - done) });
    if (details.failed && details.counterexample) {
      progress.violations++;
      await reportFailure(details.counterexample[0], chunkSeed, details.counterexamplePath ?? '', found);
    }
    process.stdout.write(`${JSON.stringify({ progress })}\n`);
  }
}

/** `found`: what the shrunk history broke when it failed; it is run once more to see whether it fails again. */
async function reportFailure(history: History, seed: number, path: string, found: string[]): Promise<void> {
  const again = await checkHistory(history);
  const file = `/tmp/gatehouse-soak-failure-${seed}.json`;
  await fs.writeFile(file, JSON.stringify(history, null, 2));
  console.log(
    [
      '',
      `VIOLATION (seed ${seed}, path ${path})`,
      `replay: npm run soak -- --replay-seed ${seed} --path ${path} --crash-share ${args['crash-share'] ?? 0} --mcp-share ${args['mcp-share'] ?? 0} --racer-share ${args['racer-share'] ?? 0}`,
      `    or: npm run soak -- --replay ${file}`,
      describeHistory(history),
      ...found.map((v) => `  ! ${v}`),
      again.violations.length > 0 ? '  (fails again when replayed)' : '  (passed when replayed: timing-dependent)',
      '',
    ].join('\n'),
  );
}

async function replayFile(file: string): Promise<void> {
  const history = JSON.parse(await fs.readFile(file, 'utf8')) as History;
  console.log(describeHistory(history));
  const r = history.crash ? await checkHistory(history) : await runHistory(history, { dump: true });
  console.log(r.violations.length ? r.violations.join('\n') : 'no violation');
  process.exitCode = r.violations.length ? 1 : 0;
}

async function replaySeed(seed: number, path: string): Promise<void> {
  const arbitrary = historyArbitrary({
    crashShare: Number(args['crash-share'] ?? 0),
    mcpShare: Number(args['mcp-share'] ?? 0),
    racerShare: Number(args['racer-share'] ?? 0),
  });
  const property = fc.asyncProperty(arbitrary, async (h) => (await checkHistory(h)).violations.length === 0);
  const details = await fc.check(property, { seed, path, numRuns: 1 });
  if (!details.counterexample) return console.log('no violation');
  console.log(describeHistory(details.counterexample[0]));
  const r = await runHistory(details.counterexample[0], { dump: true });
  console.log(r.violations.join('\n'));
  process.exitCode = 1;
}
