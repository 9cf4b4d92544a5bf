/**
 * The process stopped at a bad moment for a place (SPEC §15), as the log and the disk are
 * left then, and the next start: a discard stopped half-way is finished (the session reads
 * as one whose place was discarded, and says why, not as one whose folder is missing); a
 * session made but stopped before its place was logged works in its place.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../../shared/events.js';
import type { SessionPlace } from '../../../../../shared/places.js';
import { createCore, type Core } from '../../../../../electron/core/core.js';
import { SessionStore } from '../../../../../electron/core/log/session-store.js';
import { NoSandbox } from '../../../../../electron/core/sandbox/no-sandbox.js';
import { git, writeFiles } from './place-fixture.js';

let root: string;
let dataDir: string;
let home: string;
let repo: string;
let core: Core | undefined;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-place-stopped-'));
  [dataDir, home, repo] = ['data', 'home', 'proj'].map((d) => path.join(root, d)) as [string, string, string];
  await fs.mkdir(home, { recursive: true });
  await writeFiles(repo, { 'a.txt': 'a\n' });
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
});
afterEach(async () => {
  await core?.dispose();
  core = undefined;
  await fs.rm(root, { recursive: true, force: true });
});

const boot = async () => {
  core = await createCore({
    dataDir,
    home,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    cipher: null,
    agents: null,
    sandbox: new NoSandbox('not needed by this test'),
  });
  return core;
};

async function call<T>(name: string, request: unknown): Promise<T> {
  const reply = await core!.host.call(name as never, request as never);
  if (!reply.ok) throw new Error(reply.error);
  return reply.data as T;
}

/** A session in a place of its own, its base taken; then the app stops. */
async function sessionInPlace(): Promise<{ id: string; place: SessionPlace }> {
  await boot();
  const opened = await call<{ id: string; place: SessionPlace }>('sessions.open', {
    workspace: repo,
    title: 'job',
    place: {},
  });
  await call('session.review', { id: opened.id });
  await core!.dispose();
  core = undefined;
  return opened;
}

/** Appends to a stopped session's log as the core would have. */
async function logged(id: string, place: SessionPlace): Promise<void> {
  const store = new SessionStore({ dataDir });
  const record = await store.open(id);
  await record.log.append({ type: 'place', place });
  await store.dispose();
}

it('finishes a discard the app stopped in, and the session says so', { timeout: 60_000 }, async () => {
  const { id, place } = await sessionInPlace();
  // Stopped after the discard was logged and git had removed the place's files, before the branch went.
  await logged(id, { ...place, discarding: { keepBranch: false } });
  await fs.rm(place.path, { recursive: true, force: true });

  await boot();
  const { summary } = await call<{ summary: { place?: SessionPlace } }>('session.state', { id });
  expect(summary.place).toMatchObject({ state: 'discarded', path: place.path });
  expect(summary.place?.discarding).toBeUndefined();
  await expect(call('session.send', { id, text: 'go on' })).rejects.toThrow(
    /stopped while discarding its place and finished the discard/,
  );
  // Nothing of the place is left: no worktree, no branch, no folder in the data folder.
  expect(git(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  expect(git(repo, 'branch', '--list', place.branch!)).toBe('');
  await expect(fs.access(path.dirname(place.path))).rejects.toThrow();
  expect(await call('places.list', {})).toEqual({ places: [] });
});

it('keeps the branch when the discard that stopped was asked to', { timeout: 60_000 }, async () => {
  const { id, place } = await sessionInPlace();
  await logged(id, { ...place, discarding: { keepBranch: true } });

  await boot();
  const { summary } = await call<{ summary: { place?: SessionPlace } }>('session.state', { id });
  expect(summary.place?.state).toBe('discarded');
  expect(git(repo, 'branch', '--list', place.branch!).trim()).toBe(place.branch);
  await expect(fs.access(place.path)).rejects.toThrow();
});

it('a session made but stopped before its place was logged works in its place', { timeout: 60_000 }, async () => {
  const { id, place } = await sessionInPlace();
  // As store.create leaves it: the log empty, meta.json naming the place as the workspace.
  await fs.writeFile(path.join(dataDir, 'sessions', id, 'events.jsonl'), '');

  await boot();
  const { summary, events } = await call<{
    summary: { workspace: string; place?: SessionPlace };
    events: SessionEvent[];
  }>('session.state', { id });
  expect(summary.workspace).toBe(place.path);
  expect(summary.place).toMatchObject({ state: 'active', kind: 'worktree', branch: place.branch });
  expect(events.filter((e) => e.type === 'error')).toEqual([]);
  await writeFiles(place.path, { 'b.txt': 'b\n' });
  const review = await call<{ files: { path: string }[] }>('session.review', { id });
  expect(review.files.map((f) => f.path)).toEqual(['b.txt']);
});

it('a discard logs what it is about to do before it removes anything', { timeout: 60_000 }, async () => {
  const { id, place } = await sessionInPlace();
  await boot();
  await call('session.discardPlace', { id });
  const { events } = await call<{ events: SessionEvent[] }>('session.state', { id });
  const places = events.flatMap((e) => (e.type === 'place' ? [e.place] : []));
  expect(places.slice(-2)).toEqual([
    { ...place, baseSnapshot: expect.any(String), discarding: { keepBranch: false } },
    { ...place, baseSnapshot: expect.any(String), state: 'discarded' },
  ]);
});
