/**
 * allow_session (SPEC §3): one exact grant, for this session only. The same call passes
 * without a card afterwards; anything else still asks.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Answer } from '../../../../../shared/cards.js';
import type { CardEvent } from '../../../../../shared/reducer.js';
import { DENIED } from '../../../../../electron/core/gate/permission-gate.js';
import type { ToolResult } from '../../../../../electron/core/tools/tool-def.js';
import { GateHarness, metaWithGrants, type GateUnderTest } from './gate-harness.js';

async function world(): Promise<GateHarness> {
  const h = await GateHarness.open();
  await h.put('a.txt', 'alpha\n');
  await h.put('b.txt', 'beta\n');
  await h.put('sub/c.txt', 'gamma\n');
  await h.put(path.join(h.outside, 'notes', 'one.txt'), 'outside one\n');
  await h.put(path.join(h.outside, 'notes', 'two.txt'), 'outside two\n');
  return h;
}

/** Runs a call to its card, answers it, and returns the card and the result. */
async function answered(
  s: GateUnderTest,
  tool: string,
  args: unknown,
  answer: Answer,
): Promise<{ card: CardEvent; result: ToolResult }> {
  const pending = s.start(tool, args);
  const card = await pending.card();
  s.gate.answer(card.cardId, answer);
  return { card, result: await pending.result };
}

/** Whether a call asks: it is denied at its card, if one comes, so nothing changes either way. */
async function asks(s: GateUnderTest, tool: string, args: unknown): Promise<boolean> {
  const cards = s.types().filter((t) => t === 'card').length;
  const pending = s.start(tool, args);
  const card = await pending.card().catch(() => null);
  if (card) {
    s.gate.answer(card.cardId, 'deny');
    expect(await pending.result).toEqual({ ok: false, error: DENIED });
  } else {
    expect((await pending.result).ok).toBe(true);
  }
  expect(s.types().filter((t) => t === 'card').length).toBe(card ? cards + 1 : cards);
  return card !== null;
}

describe('a write granted for the session', () => {
  it('lets the next write to the same path through without a card', async () => {
    const h = await world();
    const s = await h.session();
    await answered(s, 'write_file', { path: 'a.txt', content: 'first\n' }, 'allow_session');
    const logged = s.appended.length;

    const result = await s.run('write_file', { path: 'a.txt', content: 'second\n' });

    expect(result).toMatchObject({ ok: true, output: 'Wrote a.txt (7 bytes, was 6 bytes).' });
    expect(await h.read('a.txt')).toBe('second\n');
    expect(s.appended.length).toBe(logged);
  });

  it('covers search_replace on the same path', async () => {
    const h = await world();
    const s = await h.session();
    await answered(s, 'write_file', { path: 'a.txt', content: 'first\n' }, 'allow_session');

    expect(await asks(s, 'search_replace', { path: 'a.txt', old: 'first', new: 'third' })).toBe(false);
    expect(await h.read('a.txt')).toBe('third\n');
  });

  it('granted from search_replace, covers write_file on the same path', async () => {
    const h = await world();
    const s = await h.session();
    await answered(s, 'search_replace', { path: 'a.txt', old: 'alpha', new: 'ALPHA' }, 'allow_session');

    expect(await asks(s, 'write_file', { path: 'a.txt', content: 'whole\n' })).toBe(false);
    expect(await h.read('a.txt')).toBe('whole\n');
  });

  it('covers the same real file reached by another spelling of its path', async () => {
    const h = await world();
    const s = await h.session();
    await answered(s, 'write_file', { path: 'sub/c.txt', content: 'first\n' }, 'allow_session');

    expect(await asks(s, 'write_file', { path: path.join(h.ws, 'sub', 'c.txt'), content: 'abs\n' })).toBe(false);
    expect(await asks(s, 'write_file', { path: 'sub/../sub/c.txt', content: 'dots\n' })).toBe(false);
    expect(await h.read('sub/c.txt')).toBe('dots\n');
  });

  it('still asks for a different path, even in the same folder', async () => {
    const h = await world();
    const s = await h.session();
    await answered(s, 'write_file', { path: 'a.txt', content: 'first\n' }, 'allow_session');

    expect(await asks(s, 'write_file', { path: 'b.txt', content: 'x\n' })).toBe(true);
    expect(await asks(s, 'search_replace', { path: 'b.txt', old: 'beta', new: 'x' })).toBe(true);
    expect(await asks(s, 'write_file', { path: 'a.txt.bak', content: 'x\n' })).toBe(true);
    expect(await h.read('b.txt')).toBe('beta\n');
    expect(await h.read('a.txt.bak')).toBeNull();
  });

  it('does not let an outside read of the same path through', async () => {
    const h = await world();
    const s = await h.session();
    const target = path.join(h.outside, 'notes', 'one.txt');
    await answered(s, 'write_file', { path: target, content: 'mine\n' }, 'allow_session');

    expect(await asks(s, 'read_file', { path: target })).toBe(true);
  });
});

describe('allow_once', () => {
  it('grants nothing: the same write asks again', async () => {
    const h = await world();
    const s = await h.session();
    const metaBefore = await s.metaBytes();
    await answered(s, 'write_file', { path: 'a.txt', content: 'first\n' }, 'allow_once');

    expect(await asks(s, 'write_file', { path: 'a.txt', content: 'second\n' })).toBe(true);
    expect(await s.metaBytes()).toEqual(metaBefore);
  });
});

describe('a command granted for the session', () => {
  const argv = ['node', '-e', 'process.exit(0)'];

  it('lets the same argv in the same folder through without a card', async () => {
    const h = await world();
    const s = await h.session();
    await answered(s, 'run', { argv, cwd: 'sub' }, 'allow_session');

    expect(await asks(s, 'run', { argv, cwd: 'sub' })).toBe(false);
    expect(await asks(s, 'run', { argv, cwd: './sub/' })).toBe(false);
  });

  it('still asks for the same argv in another folder', async () => {
    const h = await world();
    const s = await h.session();
    await answered(s, 'run', { argv, cwd: 'sub' }, 'allow_session');

    expect(await asks(s, 'run', { argv })).toBe(true);
  });

  it('still asks for a different argv, even one that only adds an argument', async () => {
    const h = await world();
    const s = await h.session();
    await answered(s, 'run', { argv }, 'allow_session');

    expect(await asks(s, 'run', { argv: [...argv, 'extra'] })).toBe(true);
    expect(await asks(s, 'run', { argv: argv.slice(0, 2) })).toBe(true);
    expect(await asks(s, 'run', { argv: ['node', '-e', 'process.exit(1)'] })).toBe(true);
  });

  it('records the exact argv and real folder in meta.json', async () => {
    const h = await world();
    const s = await h.session();
    const metaBefore = await s.metaBytes();
    await answered(s, 'run', { argv, cwd: 'sub' }, 'allow_session');

    const grant = { kind: 'command', argv, cwd: path.join(h.ws, 'sub') } as const;
    expect((await s.metaBytes()).toString()).toBe(metaWithGrants(metaBefore, [{ ...grant, argv: [...argv] }]));
  });
});

describe('a command granted for the session is exact in its flags (SPEC §9)', () => {
  it('an allow given confined never covers the same argv unconfined or with network, nor the reverse', async () => {
    const h = await world();
    const s = await h.session();
    const { card } = await answered(s, 'run', { argv: ['true'] }, 'allow_session');
    expect(card.body).toMatchObject({ sandbox: { confined: true, network: false } });
    expect(card.grant).toEqual({ kind: 'command', argv: ['true'], cwd: h.ws });

    expect(await asks(s, 'run', { argv: ['true'] })).toBe(false);
    expect(await asks(s, 'run', { argv: ['true'], unconfined: true })).toBe(true);
    expect(await asks(s, 'run', { argv: ['true'], network: true })).toBe(true);

    const loose = await answered(s, 'run', { argv: ['true'], unconfined: true }, 'allow_session');
    expect(loose.card.grant).toEqual({ kind: 'command', argv: ['true'], cwd: h.ws, unconfined: true });
    expect(loose.card.scope).toContain('(unconfined)');
    expect(await asks(s, 'run', { argv: ['true'], unconfined: true })).toBe(false);
    expect(await asks(s, 'run', { argv: ['true'], unconfined: true, network: true })).toBe(true);
    // The flags survive in meta.json.
    expect((await s.metaBytes()).toString()).toContain('"unconfined": true');
  });
});

describe('an outside read granted for the session', () => {
  it('covers that exact path with that tool only: listing a folder does not let grep read the files under it', async () => {
    const h = await world();
    const s = await h.session();
    const dir = path.join(h.outside, 'notes');
    await answered(s, 'list_dir', { path: dir }, 'allow_session');

    expect(await asks(s, 'list_dir', { path: dir })).toBe(false);
    expect(await asks(s, 'grep', { pattern: 'outside', path: dir })).toBe(true);
    expect(await asks(s, 'read_file', { path: path.join(dir, 'one.txt') })).toBe(true);
  });

  it('covers no other path: not a file in the granted folder, not its sibling, not its parent', async () => {
    const h = await world();
    const s = await h.session();
    const one = path.join(h.outside, 'notes', 'one.txt');
    await answered(s, 'read_file', { path: one }, 'allow_session');

    expect(await asks(s, 'read_file', { path: one })).toBe(false);
    expect(await asks(s, 'read_file', { path: path.join(h.outside, 'notes', 'two.txt') })).toBe(true);
    expect(await asks(s, 'list_dir', { path: path.join(h.outside, 'notes') })).toBe(true);
    expect(await asks(s, 'grep', { pattern: 'one', path: path.join(h.outside, 'notes') })).toBe(true);
  });

  it('does not let a write to that path through', async () => {
    const h = await world();
    const s = await h.session();
    const one = path.join(h.outside, 'notes', 'one.txt');
    await answered(s, 'read_file', { path: one }, 'allow_session');

    expect(await asks(s, 'write_file', { path: one, content: 'x\n' })).toBe(true);
    expect(await fs.readFile(one, 'utf8')).toBe('outside one\n');
  });
});

describe('grants belong to one session', () => {
  it('a second session on the same workspace asks, and its meta.json holds no grant', async () => {
    const h = await world();
    const first = await h.session();
    await answered(first, 'write_file', { path: 'a.txt', content: 'first\n' }, 'allow_session');
    await answered(first, 'run', { argv: ['true'] }, 'allow_session');
    await answered(first, 'read_file', { path: path.join(h.outside, 'notes', 'one.txt') }, 'allow_session');

    const second = await h.session();
    const secondMeta = await second.metaBytes();

    expect(await asks(second, 'write_file', { path: 'a.txt', content: 'second\n' })).toBe(true);
    expect(await asks(second, 'run', { argv: ['true'] })).toBe(true);
    expect(await asks(second, 'read_file', { path: path.join(h.outside, 'notes', 'one.txt') })).toBe(true);
    expect(await h.read('a.txt')).toBe('first\n');
    expect(await second.metaBytes()).toEqual(secondMeta);
    expect(JSON.parse((await second.metaBytes()).toString()).grants).toEqual([]);
    expect(JSON.parse((await first.metaBytes()).toString()).grants).toHaveLength(3);
    // The first session's grants still hold there.
    expect(await asks(first, 'write_file', { path: 'a.txt', content: 'again\n' })).toBe(false);
  });
});
