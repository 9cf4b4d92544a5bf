/**
 * An apply stopped by SIGKILL in the middle (SPEC §15): the next start settles it from what
 * is on disk. Every file is whole (the place's version) or untouched (the person's), none
 * half-written, no temporary file left, and `place_applied {interrupted}` says which.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../../shared/events.js';
import { createCore, type Core } from '../../../../../electron/core/core.js';
import { NoSandbox } from '../../../../../electron/core/sandbox/no-sandbox.js';
import { STOPPED_BEFORE } from '../../../../../electron/core/places/apply-files.js';
import { git, writeFiles } from './place-fixture.js';

const FILES = 200;
let root: string | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.dispose();
  if (root) await fs.rm(root, { recursive: true, force: true });
  core = root = undefined;
});

const boot = (dataDir: string, home: string) =>
  createCore({
    dataDir,
    home,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    cipher: null,
    agents: null,
    sandbox: new NoSandbox('not needed by this test'),
  });

it('settles an apply killed half-way: each file applied or not, never half', { timeout: 120_000 }, async () => {
  root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-apply-kill-'));
  const [dataDir, home, repo] = ['data', 'home', 'proj'].map((d) => path.join(root!, d)) as [string, string, string];
  await fs.mkdir(home, { recursive: true });
  const name = (i: number) => `f/${String(i).padStart(3, '0')}.txt`;
  const before = Object.fromEntries(Array.from({ length: FILES }, (_, i) => [name(i), `old ${i}\n`]));
  await writeFiles(repo, before);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');

  core = await boot(dataDir, home);
  const opened = await core.host.call('sessions.open', { workspace: repo, title: 'many', place: {} });
  if (!opened.ok) throw new Error(opened.error);
  const { id, place } = opened.data as { id: string; place: { path: string } };
  // The session's change: every file, each new version large enough to be more than one write.
  const after = (i: number) => `new ${i}\n`.repeat(20_000);
  await writeFiles(place.path, Object.fromEntries(Array.from({ length: FILES }, (_, i) => [name(i), after(i)])));
  await core.dispose();
  core = undefined;

  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'apply-child.ts'), dataDir, home, id],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const log = path.join(dataDir, 'sessions', id, 'events.jsonl');
  // Stopped once the apply is logged and some files are written, well before the last.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`the child never got going: ${stderr}`);
    const logged = (await fs.readFile(log, 'utf8')).includes('"place_apply"');
    const written = logged ? await countNew(repo, name) : 0;
    if (written >= 20) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');

  core = await boot(dataDir, home);
  const state = await core.host.call('session.state', { id });
  if (!state.ok) throw new Error(state.error);
  const events = (state.data as { events: SessionEvent[] }).events;
  const settled = events.find((e) => e.type === 'place_applied');
  if (settled?.type !== 'place_applied') throw new Error('no place_applied was logged at the restart');
  expect(settled.interrupted).toBe(true);
  expect(settled.conflicts).toEqual([]);
  expect(settled.applied.length).toBeGreaterThanOrEqual(20);
  expect(settled.applied.length).toBeLessThan(FILES);
  expect(settled.applied.length + settled.failed.length).toBe(FILES);
  expect(new Set(settled.failed.map((f) => f.reason))).toEqual(new Set([STOPPED_BEFORE]));
  const applied = new Set(settled.applied);
  for (let i = 0; i < FILES; i++) {
    const text = await fs.readFile(path.join(repo, name(i)), 'utf8');
    expect(text).toBe(applied.has(name(i)) ? after(i) : `old ${i}\n`);
  }
  // No temporary file left beside any of them.
  expect((await fs.readdir(path.join(repo, 'f'))).length).toBe(FILES);
});

async function countNew(repo: string, name: (i: number) => string): Promise<number> {
  let n = 0;
  for (let i = 0; i < FILES; i++) {
    const text = await fs.readFile(path.join(repo, name(i)), 'utf8').catch(() => '');
    if (text.startsWith('new')) n++;
  }
  return n;
}
