/**
 * propose_apply through the whole core (SPEC §15): the model, in a place of its own,
 * proposes applying its change into the person's folder. The tool is offered only in a
 * place; its card lists what the apply would do and takes only Allow once or Deny; a deny
 * writes nothing; an allow applies exactly the ready files named, as the person's own apply
 * would (logged the same way); a conflict is named and never written; bad input is a clear
 * tool error with no card.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../../shared/events.js';
import { foldEvents } from '../../../../../shared/reducer.js';
import { startHarness, type Harness } from '../core-harness.js';
import { git, writeFiles } from './place-fixture.js';

let h: Harness;
let repo: string;
beforeEach(async () => {
  h = await startHarness(undefined, { base: '/var/tmp' });
  repo = h.workspace;
  git(repo, 'init', '-q', '-b', 'main');
  await writeFiles(repo, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', 'gone.txt': 'gone\n' });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
});
afterEach(() => h.close());

/** A session in a place with a.txt, b.txt and c.txt changed there, gone.txt deleted and new.txt added. */
async function placeWithWork(): Promise<{ id: string; place: string }> {
  const summary = await h.call('sessions.open', { workspace: repo, title: 'work', place: {} });
  await h.call('session.review', { id: summary.id });
  const place = summary.place!.path;
  await writeFiles(place, { 'a.txt': 'a, done\n', 'b.txt': 'b, done\n', 'c.txt': 'c, done\n', 'new.txt': 'new\n' });
  await fs.rm(path.join(place, 'gone.txt'));
  return { id: summary.id, place };
}

/** Sends a message; the model calls propose_apply with `input`, then says "ok". */
async function propose(id: string, input: unknown): Promise<void> {
  h.fake.enqueue({ toolCalls: [{ name: 'propose_apply', input }] }, { text: 'ok' });
  await h.call('session.send', { id, text: 'apply it' });
}

const result = (id: string) => h.event(id, 'tool_result', (e) => e.tool === 'propose_apply');
const read = (rel: string) => fs.readFile(path.join(repo, rel), 'utf8');
const ofType = (events: SessionEvent[], type: SessionEvent['type']) => events.filter((e) => e.type === type);

describe('propose_apply is offered', () => {
  it('only to a session in a place of its own, not in the person folder', async () => {
    const plain = await h.open();
    h.fake.enqueue({ toolCalls: [{ name: 'propose_apply', input: { as: 'files' } }] }, { text: 'ok' });
    await h.call('session.send', { id: plain, text: 'hello' });
    const refused = await result(plain);
    expect(refused).toMatchObject({
      ok: false,
      output: expect.stringContaining('There is no tool named "propose_apply"'),
    });
    expect(h.fake.requests[0]!.rawBody).not.toContain('propose_apply');

    const { id } = await placeWithWork();
    h.fake.enqueue({ text: 'ok' });
    await h.call('session.send', { id, text: 'hello' });
    await h.event(id, 'turn_ended');
    expect(h.fake.requests.at(-1)!.rawBody).toContain('propose_apply');
  });
});

describe('a proposal to apply as files', () => {
  it('puts up a card with the files, their change and status, and the folder it writes into', async () => {
    const { id, place } = await placeWithWork();
    await writeFiles(repo, { 'c.txt': 'c, the person changed it\n' });
    await propose(id, { as: 'files', paths: ['a.txt', 'c.txt', 'new.txt', 'gone.txt'] });
    const card = await h.event(id, 'card');
    expect(card.body).toMatchObject({
      kind: 'place_apply',
      as: 'files',
      origin: repo,
      place,
      files: [
        { path: 'a.txt', change: 'modified', status: 'ready' },
        { path: 'c.txt', change: 'modified', status: 'conflict' },
        { path: 'new.txt', change: 'added', status: 'ready' },
        { path: 'gone.txt', change: 'deleted', status: 'ready' },
      ],
    });
    expect(card.body).not.toHaveProperty('commit');
    expect(card.grant).toEqual({ kind: 'place_apply', origin: repo });
  });

  it('refuses "allow for this session" in words, logging nothing, and the card still takes an answer', async () => {
    const { id } = await placeWithWork();
    await propose(id, { as: 'files' });
    const card = await h.event(id, 'card');
    const before = (await h.events(id)).length;
    const reply = await h.raw('card.answer', { id, cardId: card.cardId, answer: 'allow_session' });
    expect(reply).toMatchObject({ ok: false, error: expect.stringContaining('takes only allow_once or deny') });
    expect((await h.events(id)).length).toBe(before);
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'deny' });
    await h.event(id, 'turn_ended');
    expect(foldEvents(await h.events(id)).grants).toEqual([]);
  });

  it('denied: nothing is written, nothing is logged as applied, and the model is told', async () => {
    const { id } = await placeWithWork();
    await propose(id, { as: 'files' });
    const card = await h.event(id, 'card');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'deny' });
    expect(await result(id)).toMatchObject({ ok: false, output: 'denied by the user' });
    await h.event(id, 'turn_ended');
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(await read('a.txt')).toBe('a\n');
    const events = await h.events(id);
    expect(ofType(events, 'place_apply')).toEqual([]);
    expect(ofType(events, 'place_applied')).toEqual([]);
  });

  it('allowed once: exactly the ready files named are written, the conflict and the unnamed are not, and the apply is logged', async () => {
    const { id } = await placeWithWork();
    await writeFiles(repo, { 'c.txt': 'c, the person changed it\n' });
    await propose(id, { as: 'files', paths: ['a.txt', 'c.txt', 'new.txt', 'gone.txt'] });
    const card = await h.event(id, 'card');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    const done = await result(id);
    expect(done.ok).toBe(true);
    expect(done.output).toContain(`Applied into ${repo}: a.txt, new.txt, gone.txt.`);
    expect(done.output).toContain('(conflicts): c.txt.');
    expect(done.details).toMatchObject({ applied: ['a.txt', 'new.txt', 'gone.txt'], conflicts: ['c.txt'], failed: [] });
    await h.event(id, 'turn_ended');

    expect(await read('a.txt')).toBe('a, done\n');
    expect(await read('new.txt')).toBe('new\n');
    await expect(fs.stat(path.join(repo, 'gone.txt'))).rejects.toThrow();
    expect(await read('b.txt')).toBe('b\n');
    expect(await read('c.txt')).toBe('c, the person changed it\n');

    const events = await h.events(id);
    const started = ofType(events, 'place_apply');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      as: 'files',
      files: [{ path: 'a.txt' }, { path: 'new.txt' }, { path: 'gone.txt' }],
    });
    expect(ofType(events, 'place_applied')).toEqual([
      expect.objectContaining({ applied: ['a.txt', 'new.txt', 'gone.txt'], conflicts: ['c.txt'] }),
    ]);
    // The answer came before the apply's first line, and the apply before the tool's result.
    const seqOf = (type: SessionEvent['type']) => events.find((e) => e.type === type)!.seq;
    expect(seqOf('card_answer')).toBeLessThan(seqOf('place_apply'));
    expect(seqOf('place_applied')).toBeLessThan(seqOf('tool_result'));
  });

  it('a file the person changes while the card is up drops the answer; the card asks again with it as a conflict', async () => {
    const { id } = await placeWithWork();
    await propose(id, { as: 'files', paths: ['a.txt', 'b.txt'] });
    const first = await h.event(id, 'card');
    await writeFiles(repo, { 'b.txt': 'b, the person got there first\n' });
    await h.call('card.answer', { id, cardId: first.cardId, answer: 'allow_once' });
    const again = await h.event(id, 'card', (c) => c.cardId !== first.cardId);
    expect(again.reasked?.reason).toMatch(/changed after the card went up/);
    expect(again.body).toMatchObject({
      files: [
        { path: 'a.txt', status: 'ready' },
        { path: 'b.txt', status: 'conflict' },
      ],
    });
    expect(await read('a.txt')).toBe('a\n');
    await h.call('card.answer', { id, cardId: again.cardId, answer: 'deny' });
    await h.event(id, 'turn_ended');
    expect(await read('a.txt')).toBe('a\n');
  });
});

describe('a proposal open when the app stopped', () => {
  it('stays answerable after the restart; planned again from a fresh review, it applies when allowed', async () => {
    const { id } = await placeWithWork();
    await propose(id, { as: 'files', paths: ['a.txt'] });
    const card = await h.event(id, 'card');
    await h.restart();
    await h.call('session.state', { id });
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    expect(await result(id)).toMatchObject({ ok: true, details: { applied: ['a.txt'] } });
    await h.event(id, 'turn_ended');
    expect(await read('a.txt')).toBe('a, done\n');
    const events = await h.events(id);
    expect(ofType(events, 'card')).toHaveLength(1);
    expect(ofType(events, 'card_withdrawn')).toEqual([]);
  });
});

describe('a proposal to apply as a commit', () => {
  it('shows the exact git commands and the message, and commits on the person branch when allowed', async () => {
    const { id } = await placeWithWork();
    await propose(id, { as: 'commit', paths: ['a.txt', 'new.txt'], message: 'Finish a, add new' });
    const card = await h.event(id, 'card');
    expect(card.body).toMatchObject({ kind: 'place_apply', as: 'commit', message: 'Finish a, add new' });
    const commit = card.body.kind === 'place_apply' ? card.body.commit : undefined;
    expect(commit?.branch).toBe('main');
    expect(commit?.argv.filter((a) => a.includes('commit-tree'))).toEqual([
      expect.arrayContaining(['git', 'commit-tree', '-m', '<message>']),
    ]);
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    const done = await result(id);
    await h.event(id, 'turn_ended');
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    expect(done.output).toContain(`Committed as ${head} on main.`);
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Finish a, add new');
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual([
      'a.txt',
      'new.txt',
    ]);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });
});

describe('bad input is a clear tool error, with no card and nothing written', () => {
  const cases: [string, unknown, RegExp][] = [
    ['a path outside the workspace', { as: 'files', paths: ['../outside.txt'] }, /not a path inside the workspace/],
    ['an absolute path', { as: 'files', paths: ['/etc/passwd'] }, /not a path inside the workspace/],
    [
      'a path the place did not change',
      { as: 'files', paths: ['a.txt', 'nope.txt'] },
      /not changed in the place: "nope.txt"/,
    ],
    ['an unknown way to apply', { as: 'x' }, /as/],
    ['a message without a commit', { as: 'files', message: 'hi' }, /message goes only with as: "commit"/],
    ['a path named twice', { as: 'files', paths: ['a.txt', 'a.txt'] }, /named twice/],
  ];
  it.each(cases)('%s', async (_what, input, words) => {
    const summary = await h.call('sessions.open', { workspace: repo, title: 'work', place: {} });
    await h.call('session.review', { id: summary.id });
    await writeFiles(summary.place!.path, { 'a.txt': 'a, done\n' });
    await propose(summary.id, input);
    const refused = await result(summary.id);
    expect(refused.ok).toBe(false);
    expect(refused.output).toMatch(words);
    await h.event(summary.id, 'turn_ended');
    const events = await h.events(summary.id);
    expect(ofType(events, 'card')).toEqual([]);
    expect(ofType(events, 'place_apply')).toEqual([]);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it("nothing to apply: the person's folder already has the file", async () => {
    const { id } = await placeWithWork();
    await writeFiles(repo, { 'a.txt': 'a, done\n' });
    await propose(id, { as: 'files', paths: ['a.txt'] });
    expect(await result(id)).toMatchObject({
      ok: false,
      output: expect.stringContaining("the user's folder already has every file named"),
    });
    expect(ofType(await h.events(id), 'card')).toEqual([]);
  });

  it('nothing to apply: a place with no change', async () => {
    const summary = await h.call('sessions.open', { workspace: repo, title: 'idle', place: {} });
    await propose(summary.id, { as: 'files' });
    expect(await result(summary.id)).toMatchObject({
      ok: false,
      output: expect.stringContaining('the place has no change'),
    });
  });
});
