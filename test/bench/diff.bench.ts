/**
 * Card diffs (electron/core/diff) against `git diff --no-index -U3` on the same 256 KiB
 * pair with a tenth of its lines edited, git timed as a whole process (what a user pays
 * for it). Then pathological pairs, each of which must settle under a second.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { computeCardDiff } from '../../electron/core/diff/bytes-card-diff.js';
import { CardDiffer } from '../../electron/core/diff/card-differ.js';
import { generatedPair, seededRandom, sourceLines } from '../unit/electron/core/diff/generated-pairs.js';
import { measure, reportRatio, reportValue } from './measure.js';

const KIB_256 = 256 * 1024;
const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-diff-bench-'));
const differ = new CardDiffer();

try {
  await compareWithGit();
  await pathological();
} finally {
  await differ.dispose();
  rmSync(dir, { recursive: true, force: true });
}

async function compareWithGit(): Promise<void> {
  const { before, after } = generatedPair(KIB_256, 0.1, 1);
  writeFileSync(path.join(dir, 'before'), before);
  writeFileSync(path.join(dir, 'after'), after);
  const sides = { path: path.join(dir, 'after'), before: Buffer.from(before), after: Buffer.from(after) };

  const cold = performance.now();
  await differ.diff(sides);
  reportValue('card diff, first call (starts the worker thread)', performance.now() - cold, 1000, 'ms');

  const git = await measure(() => gitDiff(['before', 'after']), 20);
  const worker = await measure(() => differ.diff(sides), 20);
  const inPlace = await measure(() => computeCardDiff(sides), 20);
  reportRatio('card diff via worker vs git diff --no-index, 256 KiB, 10% lines edited (p50)', worker.p50, git.p50, 2);
  reportRatio('card diff in place (no worker) vs git diff --no-index, same pair (p50)', inPlace.p50, git.p50, 2);
}

async function pathological(): Promise<void> {
  const random = seededRandom(2);
  const lines = sourceLines(KIB_256, random);
  const rewritten = lines.map((_, i) => `  rewritten(${i}, ${Math.floor(random() * 1e9)});\n`);
  const shuffled = () =>
    Array.from({ length: KIB_256 / 2 }, () => ['a\n', 'b\n', '\n', '}\n'][Math.floor(random() * 4)]).join('');
  const cases: Array<[string, string, string]> = [
    ['every line changed, 256 KiB', lines.join(''), rewritten.join('')],
    ['single line, 256 KiB each side', 'x'.repeat(KIB_256), 'y'.repeat(KIB_256)],
    ['lines reversed, 256 KiB', lines.join(''), [...lines].reverse().join('')],
    ['4 recurring lines shuffled, 256 KiB', shuffled(), shuffled()],
  ];
  for (const [name, before, after] of cases) {
    const sides = { path: 'x', before: Buffer.from(before), after: Buffer.from(after) };
    const timing = await measure(() => differ.diff(sides), 5, 1);
    const note = (await differ.diff(sides)).note ? ' [simplified, with a note]' : '';
    reportValue(`pathological: ${name}${note} (worst of 5)`, timing.p99, 1000, 'ms');
  }
}

function gitDiff(files: string[]): void {
  const run = spawnSync('git', ['diff', '--no-index', '--no-color', '-U3', ...files], {
    cwd: dir,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: dir },
  });
  if (run.status !== 1) throw new Error(`git diff exited with ${run.status}: ${run.stderr.toString()}`);
}
