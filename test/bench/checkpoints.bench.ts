/**
 * Checkpoints (electron/core/checkpoints/shadow-repo.ts) on a workspace of 20k small text
 * files in nested folders with a 200 MB ignored node_modules, which is also the person's
 * git repository (committed) for the reference:
 *
 * (a) a snapshot when nothing changed, against `git status --porcelain` on the same tree
 *     (what the person's own git pays to say "nothing changed"); target <= 1.5x;
 * (b) a snapshot after a command changed 100 files, against the person's git recording the
 *     same change (`git add -A` and `git commit`);
 * (c) the store's growth over 100 snapshots that each edit one line of a 1 MiB text file,
 *     after the repack policy, against 100 whole copies;
 * (d) the undo of a 100-file turn (80 files edited, 20 made) with the restore confined in
 *     the sandbox's view (issue 31: real bubblewrap, this machine's home), against the same
 *     undo as the app did it before (no sandbox); target <= 1.5x.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { findGit } from '../../electron/core/checkpoints/find-git.js';
import { openCheckpointStore, type ShadowCheckpointStore } from '../../electron/core/checkpoints/shadow-repo.js';
import { StoresState } from '../../electron/core/checkpoints/stores-state.js';
import { BwrapSandbox } from '../../electron/core/sandbox/bwrap-sandbox.js';
import { measure, reportRatio } from './measure.js';

const SMALL_FILES = 20_000;
const NODE_MODULES_BIG = 150; // 1 MiB each
const NODE_MODULES_SMALL = 10_000; // 5 KB each: about 200 MB in all
const MIB = 1024 * 1024;
const WORDS =
  'const let value return function import export from await async if else for while class new this type interface string number boolean null undefined true false'.split(
    ' ',
  );

const root = mkdtempSync('/var/tmp/gatehouse-checkpoints-bench-');
const ws = path.join(root, 'ws');
const git = await findGit();
/** The stores' shared state, as one WorkspaceStores holds it. */
const state = new StoresState();
if (!git.ok) throw new Error(`the checkpoints bench needs git: ${git.reason}`);

try {
  const built = performance.now();
  buildWorkspace();
  await personsGit(['init', '-q']);
  await personsGit(['add', '-A']);
  await personsGit(['commit', '-q', '-m', 'base']);
  console.log(`workspace: ${SMALL_FILES} files + ignored node_modules (~200 MB), built in ${seconds(built)}`);

  const store = await openCheckpointStore({
    storeDir: path.join(root, 'data', 'store'),
    workspaceRoot: ws,
    indexName: 'bench',
    git: git.git,
    state,
  });
  const first = performance.now();
  await store.snapshot();
  console.log(`first snapshot of the workspace (hashes all ${SMALL_FILES} files): ${seconds(first)}`);

  await unchanged(store);
  await hundredChanged(store);
  await undoConfined();
  await growth(store);
} finally {
  rmSync(root, { recursive: true, force: true });
}

async function unchanged(store: ShadowCheckpointStore): Promise<void> {
  const ours: number[] = [];
  const reference: number[] = [];
  // Alternated rounds, so a busy spell of the machine falls on both sides.
  for (let round = 0; round < 4; round++) {
    reference.push((await measure(() => personsGit(['status', '--porcelain']), 8, 2)).p50);
    ours.push((await measure(() => store.snapshot(), 8, 2)).p50);
  }
  reportRatio('(a) snapshot, nothing changed, vs git status --porcelain (p50)', median(ours), median(reference), 1.5);
}

async function hundredChanged(store: ShadowCheckpointStore): Promise<void> {
  const ours: number[] = [];
  const reference: number[] = [];
  for (let round = 0; round < 6; round++) {
    for (let i = 0; i < 100; i++) {
      writeFileSync(path.join(ws, smallFile(round * 157 + i * 193)), `// changed in round ${round}\n`);
    }
    const t0 = performance.now();
    await store.snapshot();
    ours.push(performance.now() - t0);
    // The person's git recording the same change: stage it all and commit.
    const t1 = performance.now();
    await personsGit(['add', '-A']);
    await personsGit(['commit', '-q', '-m', `round ${round}`]);
    reference.push(performance.now() - t1);
  }
  reportRatio(
    '(b) snapshot after a command changed 100 files vs git add -A + git commit (median)',
    median(ours),
    median(reference),
    1.5,
  );
}

async function undoConfined(): Promise<void> {
  const sandbox = new BwrapSandbox({ dataDir: path.join(root, 'data'), home: os.homedir(), env: process.env });
  if (!(await sandbox.availability()).available) throw new Error('the undo bench needs bubblewrap');
  const open = (indexName: string, confined: boolean) =>
    openCheckpointStore({
      storeDir: path.join(root, 'data', 'store'),
      workspaceRoot: ws,
      indexName,
      git: git.ok ? git.git : 'git',
      state,
      ...(confined ? { sandbox } : {}),
    });
  const confined = await open('undo-confined', true);
  const asTheApp = await open('undo-as-the-app', false);
  const ours: number[] = [];
  const reference: number[] = [];
  try {
    for (let round = 0; round < 16; round++) {
      // Each side takes its own snapshots, as a session does: a store knows what its own snapshots left out.
      const before = { ours: await confined.snapshot(), reference: await asTheApp.snapshot() };
      const edited = Array.from({ length: 80 }, (_, i) => smallFile(round * 211 + i * 97));
      const made = Array.from({ length: 20 }, (_, i) => path.join('src', 'made', `r${round}-${i}.ts`));
      for (const p of [...edited, ...made]) {
        mkdirSync(path.dirname(path.join(ws, p)), { recursive: true });
        writeFileSync(path.join(ws, p), `// turn ${round}\n`);
      }
      const after = { ours: await confined.snapshot(), reference: await asTheApp.snapshot() };
      const paths = [...edited, ...made].map((p) => p.split(path.sep).join('/'));
      // Each undo, then the turn put back (unmeasured); who goes first alternates.
      const sides: ['ours' | 'reference', number[], ShadowCheckpointStore][] = [
        ['ours', ours, confined],
        ['reference', reference, asTheApp],
      ];
      if (round % 2 === 1) sides.reverse();
      for (const [side, times, store] of sides) {
        const t0 = performance.now();
        await store.restore(before[side].id, paths);
        times.push(performance.now() - t0);
        await store.restore(after[side].id, paths);
      }
      await asTheApp.restore(before.reference.id, paths);
    }
  } finally {
    await sandbox.dispose();
  }
  reportRatio(
    '(d) undo of a 100-file turn (80 edited, 20 made), confined vs as the app (median)',
    median(ours),
    median(reference),
    1.5,
  );
}

async function growth(store: ShadowCheckpointStore): Promise<void> {
  const lines = Array.from({ length: MIB / 64 }, (_, i) => textLine(i, `${i}`));
  const file = path.join(ws, 'big', 'data.txt');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, lines.join(''));
  await store.snapshot();
  await store.compact(); // from a packed store: a loose object takes a 4 KiB block at least
  const before = await store.size();
  const t0 = performance.now();
  for (let step = 0; step < 100; step++) {
    const at = (step * 7919) % lines.length;
    lines[at] = textLine(at, `edited at step ${step}`);
    writeFileSync(file, lines.join(''));
    await store.snapshot();
  }
  const took = performance.now() - t0;
  await store.idle();
  const asLeft = (await store.size()) - before;
  await store.compact();
  const packed = (await store.size()) - before;
  console.log(`(c) 100 snapshots of a 1 MiB text file, one line edited each: ${(took / 100).toFixed(0)} ms each`);
  reportRatio('(c) store growth as the repack policy left it, vs 100 whole copies', asLeft / MIB, 100, 0.1, 'MiB');
  reportRatio('(c) store growth with everything packed, vs 100 whole copies', packed / MIB, 100, 0.05, 'MiB');
}

/** A 64-byte line of words that compress like source text, not like a repeated pattern. */
function textLine(i: number, tag: string): string {
  let seed = (i + 1) * 2654435761;
  const words: string[] = [];
  while (words.join(' ').length < 48) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    words.push(WORDS[seed % WORDS.length] as string);
  }
  return `${tag} ${words.join(' ')}`.slice(0, 63).padEnd(63, ' ') + '\n';
}

function buildWorkspace(): void {
  for (let i = 0; i < SMALL_FILES; i++) {
    const file = path.join(ws, smallFile(i));
    if (i % 50 === 0) mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `export const value${i} = ${i};\n`.repeat(1 + (i % 20)));
  }
  writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n');
  const big = Buffer.alloc(MIB, 'x');
  for (let i = 0; i < NODE_MODULES_BIG; i++) {
    const dir = path.join(ws, 'node_modules', `big-${i % 10}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `blob-${i}.bin`), big);
  }
  const small = Buffer.alloc(5000, 'y');
  for (let i = 0; i < NODE_MODULES_SMALL; i++) {
    const dir = path.join(ws, 'node_modules', `pkg-${i % 500}`, 'lib');
    if (i < 500) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `m${i}.js`), small);
  }
}

/** The i-th small file: 20 x 20 folders of 50 files. */
function smallFile(i: number): string {
  const n = i % SMALL_FILES;
  return path.join('src', `mod-${Math.floor(n / 1000)}`, `pkg-${Math.floor(n / 50) % 20}`, `file-${n}.ts`);
}

function personsGit(args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(
      'git',
      args,
      {
        cwd: ws,
        maxBuffer: 64 * MIB,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: root,
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          GIT_AUTHOR_NAME: 'Bench',
          GIT_AUTHOR_EMAIL: 'bench@example.com',
          GIT_COMMITTER_NAME: 'Bench',
          GIT_COMMITTER_EMAIL: 'bench@example.com',
        },
      },
      (err) => (err ? reject(err) : resolve()),
    ),
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}
