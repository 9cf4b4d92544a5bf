/**
 * Undo, redo and rewind through the contract (SPEC §12), on a whole core with the fake
 * model: every allowed write and command is snapshotted, a turn comes back byte for byte,
 * a file the person changed since is named and left alone, and the person's `.git` is
 * never touched.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../../shared/events.js';
import { startHarness, type Harness } from '../core-harness.js';
import { unconfined } from '../../../../support/unconfined.js';
import { allowEveryCard, hashTree, runTurn } from './checkpoint-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const noSandbox = () => unconfined().sandbox;

/** Two writes, then a command that adds, modifies and deletes, one file of which no write touched. */
function scriptTurn(harness: Harness): void {
  harness.fake.enqueue(
    { toolCalls: [{ name: 'write_file', input: { path: 'a.txt', content: 'new file\n' } }] },
    { toolCalls: [{ name: 'write_file', input: { path: 'mod.txt', content: 'changed by a write\n' } }] },
    {
      toolCalls: [
        {
          name: 'run',
          input: { argv: ['sh', '-c', 'echo made > made.txt; echo more >> other.txt; rm gone.txt; chmod +x tool.sh'] },
        },
      ],
    },
    { text: 'done' },
  );
}

async function seedWorkspace(ws: string): Promise<void> {
  await fs.writeFile(path.join(ws, 'mod.txt'), 'original\n');
  await fs.writeFile(path.join(ws, 'other.txt'), 'other\n');
  await fs.writeFile(path.join(ws, 'gone.txt'), 'to be deleted\n');
  await fs.writeFile(path.join(ws, 'tool.sh'), '#!/bin/sh\necho hi\n', { mode: 0o644 });
  await fs.mkdir(path.join(ws, 'src'));
  await fs.writeFile(path.join(ws, 'src', 'keep.ts'), 'export {};\n');
}

/** A core over the seeded workspace whose first turn (scriptTurn, every card allowed) has ended. */
async function seededTurnDone(): Promise<{ h: Harness; id: string; turnId: string }> {
  const started = await startHarness(undefined, { sandboxFor: noSandbox });
  h = started;
  await seedWorkspace(started.workspace);
  allowEveryCard(started);
  scriptTurn(started);
  const id = await started.open();
  return { h: started, id, turnId: await runTurn(started, id, 'go') };
}

function checkpoints(events: SessionEvent[]) {
  return events.flatMap((e) => (e.type === 'checkpoint' ? [e] : []));
}

describe('a turn is snapshotted around every step that can change the workspace', () => {
  it('logs what each write and the command changed, including files no write touched', async () => {
    h = await startHarness(undefined, { sandboxFor: noSandbox });
    await seedWorkspace(h.workspace);
    allowEveryCard(h);
    scriptTurn(h);
    const id = await h.open();
    await runTurn(h, id, 'go');
    const cps = checkpoints(await h.events(id));
    expect(cps.map((c) => c.changed)).toEqual([
      [{ path: 'a.txt', change: 'added', bytes: 9 }],
      [{ path: 'mod.txt', change: 'modified', bytes: 19 }],
      [
        { path: 'gone.txt', change: 'deleted', bytes: 14 },
        { path: 'made.txt', change: 'added', bytes: 5 },
        { path: 'other.txt', change: 'modified', bytes: 11 },
        { path: 'tool.sh', change: 'modified', bytes: 18 },
      ],
    ]);
    const state = await h.call('session.state', { id });
    expect(state.events.some((e) => e.type === 'checkpoint')).toBe(true);
  });

  it('says a command that changed nothing changed no files', async () => {
    h = await startHarness(undefined, { sandboxFor: noSandbox });
    allowEveryCard(h);
    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['true'] } }] }, { text: 'ok' });
    const id = await h.open();
    await runTurn(h, id, 'go');
    expect(checkpoints(await h.events(id)).map((c) => c.changed)).toEqual([[]]);
  });
});

describe('steps that cannot change the workspace take no checkpoint', () => {
  it('a read, a denied write and a write outside the workspace are not snapshotted', async () => {
    h = await startHarness(undefined, { sandboxFor: noSandbox });
    await seedWorkspace(h.workspace);
    const id = await h.open();
    const unsubscribe = h.core.host.subscribe((push) => {
      if (push.name !== 'session.event' || push.payload.event.type !== 'card') return;
      const { cardId, body } = push.payload.event;
      const answer = body.kind === 'write' && body.inside ? 'deny' : 'allow_once';
      void h!.core.host.call('card.answer', { id, cardId, answer });
    });
    h.fake.enqueue(
      { toolCalls: [{ name: 'read_file', input: { path: 'mod.txt' } }] },
      { toolCalls: [{ name: 'write_file', input: { path: 'mod.txt', content: 'denied\n' } }] },
      { toolCalls: [{ name: 'write_file', input: { path: path.join(h.outside, 'o.txt'), content: 'out\n' } }] },
      { text: 'done' },
    );
    await runTurn(h, id, 'go');
    unsubscribe();
    expect(await fs.readFile(path.join(h.outside, 'o.txt'), 'utf8')).toBe('out\n');
    expect(checkpoints(await h.events(id))).toEqual([]);
  });
});

describe('undo and redo of a whole turn', () => {
  it('brings the workspace back byte for byte, and redo brings the turn back', async () => {
    h = await startHarness(undefined, { sandboxFor: noSandbox });
    await seedWorkspace(h.workspace);
    const before = await hashTree(h.workspace);
    allowEveryCard(h);
    scriptTurn(h);
    const id = await h.open();
    const turnId = await runTurn(h, id, 'go');
    const after = await hashTree(h.workspace);
    expect(after).not.toEqual(before);

    const undone = await h.call('session.undo', { id, turnId });
    expect(undone.kept).toEqual([]);
    expect(undone.restored.map((f) => f.path)).toEqual([
      'a.txt',
      'gone.txt',
      'made.txt',
      'mod.txt',
      'other.txt',
      'tool.sh',
    ]);
    expect(await hashTree(h.workspace)).toEqual(before);

    const view = await h.call('session.changes', { id, turnId });
    expect(view.undoneBy).toBe(undone.seq);
    expect(view.files.filter((f) => f.changedSince)).toEqual([]);

    await h.call('session.redo', { id });
    expect(await hashTree(h.workspace)).toEqual(after);
    const kinds = (await h.events(id)).map((e) => e.type).filter((t) => t === 'undo' || t === 'redo');
    expect(kinds).toEqual(['undo', 'redo']);
  });

  it('leaves a file the person changed since alone, names it, and overwrites it only when ticked', async () => {
    const { h, id, turnId } = await seededTurnDone();
    await fs.writeFile(path.join(h.workspace, 'mod.txt'), 'the person edited this\n');

    const view = await h.call('session.changes', { id, turnId });
    expect(view.files.find((f) => f.path === 'mod.txt')?.changedSince).toBe('changed_since');
    expect(view.files.find((f) => f.path === 'a.txt')?.diff).toContain('+new file');

    const undone = await h.call('session.undo', { id, turnId });
    expect(undone.kept).toEqual([{ path: 'mod.txt', why: 'changed_since' }]);
    expect(await fs.readFile(path.join(h.workspace, 'mod.txt'), 'utf8')).toBe('the person edited this\n');
    await expect(fs.access(path.join(h.workspace, 'a.txt'))).rejects.toThrow();

    await h.call('session.undo', { id, turnId, paths: ['mod.txt'], overwrite: ['mod.txt'] });
    expect(await fs.readFile(path.join(h.workspace, 'mod.txt'), 'utf8')).toBe('original\n');
  });

  it('overwrites only the ticked one of two files the person changed since', async () => {
    const { h, id, turnId } = await seededTurnDone();
    await fs.writeFile(path.join(h.workspace, 'mod.txt'), 'the person edited this\n');
    await fs.writeFile(path.join(h.workspace, 'other.txt'), 'and this\n');

    const undone = await h.call('session.undo', { id, turnId, overwrite: ['mod.txt'] });
    expect(undone.kept).toEqual([{ path: 'other.txt', why: 'changed_since' }]);
    expect(await fs.readFile(path.join(h.workspace, 'mod.txt'), 'utf8')).toBe('original\n');
    expect(await fs.readFile(path.join(h.workspace, 'other.txt'), 'utf8')).toBe('and this\n');
  });

  it('reverts one file and leaves the rest of the turn', async () => {
    const { h, id, turnId } = await seededTurnDone();
    const reverted = await h.call('session.undo', { id, turnId, paths: ['other.txt'] });
    expect(reverted.restored).toEqual([{ path: 'other.txt', change: 'modified', bytes: 6 }]);
    expect(await fs.readFile(path.join(h.workspace, 'other.txt'), 'utf8')).toBe('other\n');
    expect(await fs.readFile(path.join(h.workspace, 'made.txt'), 'utf8')).toBe('made\n');
  });

  it('tells the model in its next request which files went back', async () => {
    const { h, id, turnId } = await seededTurnDone();
    await h.call('session.undo', { id, turnId });
    h.fake.enqueue({ text: 'noted' });
    await runTurn(h, id, 'what now?');
    const last = h.fake.requests.at(-1)!.rawBody;
    expect(last).toContain('The user undid the changes of an earlier turn: a.txt, gone.txt, made.txt, mod.txt');
  });

  it('refuses a redo with nothing undone, and an undo while a turn runs, changing nothing', async () => {
    h = await startHarness(undefined, { sandboxFor: noSandbox });
    const id = await h.open();
    const redo = await h.raw('session.redo', { id });
    expect(redo).toEqual({ ok: false, error: 'there is no undo to redo' });
    const undo = await h.raw('session.undo', { id, turnId: 'no-such-turn' });
    expect(undo).toEqual({ ok: false, error: 'turn no-such-turn changed no files' });
  });
});

describe("the person's git repository", () => {
  it('keeps .git byte-identical and git status unchanged apart from the restored files', async () => {
    h = await startHarness(undefined, { sandboxFor: noSandbox });
    await seedWorkspace(h.workspace);
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: h!.workspace,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      }).toString();
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
    await fs.writeFile(path.join(h.workspace, 'src', 'keep.ts'), 'export const staged = 1;\n');
    git('add', 'src/keep.ts');
    await fs.writeFile(path.join(h.workspace, 'src', 'keep.ts'), 'export const unstaged = 2;\n');
    const gitBefore = await hashTree(path.join(h.workspace, '.git'));
    const statusBefore = git('--no-optional-locks', 'status', '--porcelain');
    const treeBefore = await hashTree(h.workspace);

    allowEveryCard(h);
    scriptTurn(h);
    const id = await h.open();
    const turnId = await runTurn(h, id, 'go');
    expect(await hashTree(path.join(h.workspace, '.git'))).toEqual(gitBefore);

    await h.call('session.undo', { id, turnId });
    expect(await hashTree(path.join(h.workspace, '.git'))).toEqual(gitBefore);
    expect(git('--no-optional-locks', 'status', '--porcelain')).toBe(statusBefore);
    expect(await hashTree(h.workspace)).toEqual(treeBefore);

    await h.call('session.redo', { id });
    const messageSeq = (await h.events(id)).find((e) => e.type === 'user_message')!.seq;
    await h.call('session.rewind', { id, seq: messageSeq, restore: 'code' });
    expect(await hashTree(path.join(h.workspace, '.git'))).toEqual(gitBefore);
    expect(git('--no-optional-locks', 'status', '--porcelain')).toBe(statusBefore);
    expect(await hashTree(h.workspace)).toEqual(treeBefore);
  });
});

describe('rewind', () => {
  it('"conversation" keeps the files, hands the message back, and the model no longer sees the rewound steps', async () => {
    h = await startHarness(undefined, { sandboxFor: noSandbox });
    await seedWorkspace(h.workspace);
    allowEveryCard(h);
    scriptTurn(h);
    const id = await h.open();
    await runTurn(h, id, 'first message');
    const tree = await hashTree(h.workspace);
    const seq = (await h.events(id)).find((e) => e.type === 'user_message')!.seq;
    await h.call('session.rewind', { id, seq, restore: 'conversation' });
    expect(await hashTree(h.workspace)).toEqual(tree);
    const taken = await h.call('session.takeReturned', { id });
    expect(taken.messages.map((m) => m.text)).toEqual(['first message']);

    h.fake.enqueue({ text: 'fresh start' });
    await runTurn(h, id, 'second message');
    const body = h.fake.requests.at(-1)!.rawBody;
    expect(body).toContain('second message');
    expect(body).not.toContain('first message');
    expect(body).not.toContain('changed by a write');
  });

  it('"both" restores the files as well, and says so to the model', async () => {
    h = await startHarness(undefined, { sandboxFor: noSandbox });
    await seedWorkspace(h.workspace);
    const before = await hashTree(h.workspace);
    allowEveryCard(h);
    scriptTurn(h);
    const id = await h.open();
    await runTurn(h, id, 'first message');
    const seq = (await h.events(id)).find((e) => e.type === 'user_message')!.seq;
    const outcome = await h.call('session.rewind', { id, seq, restore: 'both' });
    expect(outcome.restored.length).toBe(6);
    expect(await hashTree(h.workspace)).toEqual(before);

    h.fake.enqueue({ text: 'ok' });
    await runTurn(h, id, 'again');
    const body = h.fake.requests.at(-1)!.rawBody;
    expect(body).not.toContain('changed by a write');
    expect(body).toContain('rewound the workspace to before their message 1 of this session');
    expect(body).not.toContain('first message');
  });

  it('"both" with every file already back rewinds the conversation alone, where "code" refuses', async () => {
    const { h, id, turnId } = await seededTurnDone();
    const seq = (await h.events(id)).find((e) => e.type === 'user_message')!.seq;
    await h.call('session.undo', { id, turnId });
    const back = await hashTree(h.workspace);

    expect(await h.raw('session.rewind', { id, seq, restore: 'code' })).toEqual({
      ok: false,
      error: 'nothing to take back: the files are already as they were',
    });
    const outcome = await h.call('session.rewind', { id, seq, restore: 'both' });
    expect(outcome).toMatchObject({ restored: [], kept: [] });
    expect(await hashTree(h.workspace)).toEqual(back);
    const taken = await h.call('session.takeReturned', { id });
    expect(taken.messages.map((m) => m.text)).toEqual(['go']);
  });

  it("survives a restart: the rewound range stays out of the model's view", async () => {
    h = await startHarness(undefined, { sandboxFor: noSandbox });
    allowEveryCard(h);
    h.fake.enqueue({ text: 'first answer' });
    const id = await h.open();
    await runTurn(h, id, 'first message');
    const seq = (await h.events(id)).find((e) => e.type === 'user_message')!.seq;
    await h.call('session.rewind', { id, seq, restore: 'conversation' });
    await h.restart();
    const preview = await h.call('session.context', { id });
    expect(JSON.stringify(preview)).not.toContain('first answer');
    const state = await h.call('session.state', { id });
    expect(state.events.filter((e) => e.type === 'rewind')).toHaveLength(1);
  });
});
