/**
 * The digest rule (SPEC §3) and its twin for paths (SPEC §2): when the file, or where a
 * path lands, changed between the card and the answer, the answer is dropped (its
 * allow_session with it) and the card asked again as things are now.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../../../../shared/reducer.js';
import { GateError } from '../../../../../electron/core/gate/gate-error.js';
import { GateHarness } from './gate-harness.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const header = (abs: string) => abs.replace(/^\/+/, '');

async function world(): Promise<GateHarness> {
  const h = await GateHarness.open();
  await h.put('a.txt', 'one\ntwo\nthree\n');
  return h;
}

describe('a write whose file changed before the answer', () => {
  it('drops an allow_session, records no grant, and asks again with the diff as it is now', async () => {
    const h = await world();
    const s = await h.session();
    const metaBefore = await s.metaBytes();
    const pending = s.start('write_file', { path: 'a.txt', content: 'one\nTWO\nthree\n' });
    const first = await pending.card();

    await h.put('a.txt', 'one\ntwo\nthree\nfour\n');
    s.gate.answer(first.cardId, 'allow_session');
    const second = await pending.card();

    const reason = 'the file changed on disk after the card went up';
    expect(s.types()).toEqual(['card', 'card_stale', 'card']);
    expect(s.appended[1]).toMatchObject({ type: 'card_stale', cardId: first.cardId, answer: 'allow_session', reason });
    expect(second.reasked).toEqual({ previousCardId: first.cardId, reason });
    expect(second.cardId).not.toBe(first.cardId);
    const abs = path.join(h.ws, 'a.txt');
    expect(second.body).toMatchObject({
      kind: 'write',
      path: abs,
      creates: false,
      digest: sha256('one\ntwo\nthree\nfour\n'),
      beforeBytes: 19,
      diff: `--- a/${header(abs)}\n+++ b/${header(abs)}\n@@ -1,4 +1,3 @@\n one\n-two\n+TWO\n three\n-four\n`,
    });
    // The grant went with the dropped answer: not in the log's fold, not in meta.json.
    expect(await s.loggedGrants()).toEqual([]);
    expect(await s.metaBytes()).toEqual(metaBefore);
    expect(await h.read('a.txt')).toBe('one\ntwo\nthree\nfour\n');
    expect(foldEvents(await s.record.log.readEvents()).openCards.map((c) => c.cardId)).toEqual([second.cardId]);

    s.gate.answer(second.cardId, 'allow_once');
    expect(await pending.result).toMatchObject({ ok: true });
    expect(await h.read('a.txt')).toBe('one\nTWO\nthree\n');
    expect(await s.metaBytes()).toEqual(metaBefore);
  });

  it('refuses a second answer to the dropped card, saying why it closed', async () => {
    const h = await world();
    const s = await h.session();
    const pending = s.start('write_file', { path: 'a.txt', content: 'new\n' });
    const first = await pending.card();
    await h.put('a.txt', 'changed\n');
    s.gate.answer(first.cardId, 'allow_once');
    const second = await pending.card();
    const logged = s.appended.length;

    expect(() => s.gate.answer(first.cardId, 'allow_once')).toThrow(GateError);
    expect(() => s.gate.answer(first.cardId, 'allow_once')).toThrow(/no longer open.*dropped.*changed on disk/);
    expect(s.appended.length).toBe(logged);

    s.gate.answer(second.cardId, 'deny');
    await pending.result;
    expect(await h.read('a.txt')).toBe('changed\n');
  });

  it('asks again as a create when the file was deleted meanwhile', async () => {
    const h = await world();
    const s = await h.session();
    const pending = s.start('write_file', { path: 'a.txt', content: 'new\n' });
    const first = await pending.card();

    await fs.rm(path.join(h.ws, 'a.txt'));
    s.gate.answer(first.cardId, 'allow_once');
    const second = await pending.card();

    expect(s.appended[1]).toMatchObject({ type: 'card_stale', reason: 'the file was deleted after the card went up' });
    expect(second.body).toMatchObject({
      creates: true,
      digest: 'absent',
      beforeBytes: null,
      diff: `--- /dev/null\n+++ b/${header(path.join(h.ws, 'a.txt'))}\n@@ -0,0 +1 @@\n+new\n`,
    });
    expect(await h.read('a.txt')).toBeNull();

    s.gate.answer(second.cardId, 'allow_once');
    expect(await pending.result).toMatchObject({ ok: true });
    expect(await h.read('a.txt')).toBe('new\n');
  });

  it('asks again with a diff when the card said "creates" and the file appeared meanwhile', async () => {
    const h = await world();
    const s = await h.session();
    const pending = s.start('write_file', { path: 'fresh.txt', content: 'mine\n' });
    const first = await pending.card();
    expect(first.body).toMatchObject({ creates: true, digest: 'absent' });

    await h.put('fresh.txt', 'theirs\n');
    s.gate.answer(first.cardId, 'allow_session');
    const second = await pending.card();

    expect(s.appended[1]).toMatchObject({ type: 'card_stale', reason: 'the file was created after the card went up' });
    const abs = path.join(h.ws, 'fresh.txt');
    expect(second.body).toMatchObject({
      creates: false,
      digest: sha256('theirs\n'),
      diff: `--- a/${header(abs)}\n+++ b/${header(abs)}\n@@ -1 +1 @@\n-theirs\n+mine\n`,
    });
    expect(await s.loggedGrants()).toEqual([]);

    s.gate.answer(second.cardId, 'deny');
    await pending.result;
    expect(await h.read('fresh.txt')).toBe('theirs\n');
  });

  it('lets the answer stand when the file was rewritten with the same bytes', async () => {
    const h = await world();
    const s = await h.session();
    const pending = s.start('write_file', { path: 'a.txt', content: 'new\n' });
    const card = await pending.card();

    await h.put('a.txt', 'one\ntwo\nthree\n');
    s.gate.answer(card.cardId, 'allow_once');

    expect(await pending.result).toMatchObject({ ok: true });
    expect(s.types()).toEqual(['card', 'card_answer']);
    expect(await h.read('a.txt')).toBe('new\n');
  });
});

describe('search_replace whose file changed before the answer', () => {
  it('re-applies the replacement to the new content and asks again with that diff', async () => {
    const h = await world();
    const s = await h.session();
    const pending = s.start('search_replace', { path: 'a.txt', old: 'two', new: 'TWO' });
    const first = await pending.card();

    await h.put('a.txt', 'zero\none\ntwo\nthree\n');
    s.gate.answer(first.cardId, 'allow_once');
    const second = await pending.card();

    expect(second.reasked?.previousCardId).toBe(first.cardId);
    const abs = path.join(h.ws, 'a.txt');
    expect(second.body).toMatchObject({
      tool: 'search_replace',
      digest: sha256('zero\none\ntwo\nthree\n'),
      diff: `--- a/${header(abs)}\n+++ b/${header(abs)}\n@@ -1,4 +1,4 @@\n zero\n one\n-two\n+TWO\n three\n`,
    });
    s.gate.answer(second.cardId, 'allow_once');
    expect(await pending.result).toMatchObject({ ok: true });
    expect(await h.read('a.txt')).toBe('zero\none\nTWO\nthree\n');
  });

  it('gives the model the error, and no new card, when "old" no longer matches', async () => {
    const h = await world();
    const s = await h.session();
    const metaBefore = await s.metaBytes();
    const pending = s.start('search_replace', { path: 'a.txt', old: 'two', new: 'TWO' });
    const card = await pending.card();

    await h.put('a.txt', 'one\n2\nthree\n');
    s.gate.answer(card.cardId, 'allow_session');
    const result = await pending.result;

    const error = 'search_replace: "old" was not found in "a.txt"';
    expect(result).toEqual({ ok: false, error });
    expect(s.types()).toEqual(['card', 'card_stale']);
    expect(s.appended[1]).toMatchObject({ cardId: card.cardId, answer: 'allow_session', reason: error });
    expect(await h.read('a.txt')).toBe('one\n2\nthree\n');
    expect(await s.loggedGrants()).toEqual([]);
    expect(await s.metaBytes()).toEqual(metaBefore);
    expect(foldEvents(await s.record.log.readEvents()).openCards).toEqual([]);
  });

  it('gives the model the error when the file was deleted meanwhile', async () => {
    const h = await world();
    const s = await h.session();
    const pending = s.start('search_replace', { path: 'a.txt', old: 'two', new: 'TWO' });
    const card = await pending.card();

    await fs.rm(path.join(h.ws, 'a.txt'));
    s.gate.answer(card.cardId, 'allow_once');

    expect(await pending.result).toEqual({
      ok: false,
      error: 'search_replace: "a.txt" does not exist; use write_file to create it',
    });
    expect(s.types()).toEqual(['card', 'card_stale']);
    expect(await h.read('a.txt')).toBeNull();
  });
});

describe('a path that lands elsewhere by the time of the answer', () => {
  it('asks again naming the new target when a link was swapped meanwhile', async () => {
    const h = await world();
    await h.put('v1.txt', 'version one\n');
    await h.put('v2.txt', 'version two\n');
    const link = path.join(h.ws, 'current.txt');
    await fs.symlink('v1.txt', link);
    const s = await h.session();
    const pending = s.start('write_file', { path: 'current.txt', content: 'version three\n' });
    const first = await pending.card();
    expect(first.body).toMatchObject({ path: path.join(h.ws, 'v1.txt') });

    await fs.rm(link);
    await fs.symlink('v2.txt', link);
    s.gate.answer(first.cardId, 'allow_session');
    const second = await pending.card();

    const reason = `the path now lands at ${path.join(h.ws, 'v2.txt')} instead of ${path.join(h.ws, 'v1.txt')}`;
    expect(s.appended[1]).toMatchObject({ type: 'card_stale', answer: 'allow_session', reason });
    expect(second.reasked).toEqual({ previousCardId: first.cardId, reason });
    expect(second.body).toMatchObject({ path: path.join(h.ws, 'v2.txt'), digest: sha256('version two\n') });
    expect(second.grant).toEqual({ kind: 'write', path: path.join(h.ws, 'v2.txt') });
    expect(await s.loggedGrants()).toEqual([]);

    s.gate.answer(second.cardId, 'allow_once');
    expect(await pending.result).toMatchObject({ ok: true });
    expect(await h.read('v1.txt')).toBe('version one\n');
    expect(await h.read('v2.txt')).toBe('version three\n');
    expect(await fs.readlink(link)).toBe('v2.txt');
  });

  it('gives the model the refusal when a swapped link now points out of the workspace', async () => {
    const h = await world();
    await h.put('v1.txt', 'version one\n');
    const victim = await h.put(path.join(h.outside, 'victim.txt'), 'keep me\n');
    const link = path.join(h.ws, 'current.txt');
    await fs.symlink('v1.txt', link);
    const s = await h.session();
    const pending = s.start('write_file', { path: 'current.txt', content: 'overwrite\n' });
    const card = await pending.card();

    await fs.rm(link);
    await fs.symlink(victim, link);
    s.gate.answer(card.cardId, 'allow_once');
    const result = await pending.result;

    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain('goes through a symlink that points out of the workspace');
    expect(s.types()).toEqual(['card', 'card_stale']);
    expect(await fs.readFile(victim, 'utf8')).toBe('keep me\n');
    expect(await h.read('v1.txt')).toBe('version one\n');
  });

  it('asks again when an outside read’s link was swapped meanwhile', async () => {
    const h = await world();
    await h.put(path.join(h.outside, 'one.txt'), 'one\n');
    await h.put(path.join(h.outside, 'two.txt'), 'two\n');
    const link = path.join(h.outside, 'pointer.txt');
    await fs.symlink('one.txt', link);
    const s = await h.session();
    const pending = s.start('read_file', { path: link });
    const first = await pending.card();
    expect(first.body).toEqual({ kind: 'read', tool: 'read_file', path: path.join(h.outside, 'one.txt') });

    await fs.rm(link);
    await fs.symlink('two.txt', link);
    s.gate.answer(first.cardId, 'allow_once');
    const second = await pending.card();

    expect(second.body).toEqual({ kind: 'read', tool: 'read_file', path: path.join(h.outside, 'two.txt') });
    expect(second.reasked?.previousCardId).toBe(first.cardId);
    s.gate.answer(second.cardId, 'allow_once');
    expect(await pending.result).toMatchObject({ ok: true, output: 'two\n' });
  });

  it('asks again when a command’s working folder now lands elsewhere, and runs nothing meanwhile', async () => {
    const h = await world();
    await fs.mkdir(path.join(h.ws, 'd1'));
    await fs.mkdir(path.join(h.ws, 'd2'));
    const link = path.join(h.ws, 'here');
    await fs.symlink('d1', link);
    const s = await h.session();
    const argv = [process.execPath, '-e', "require('fs').writeFileSync('ran.txt', 'x')"];
    const pending = s.start('run', { argv, cwd: 'here' });
    const first = await pending.card();
    expect(first.body).toMatchObject({ cwd: path.join(h.ws, 'd1') });

    await fs.rm(link);
    await fs.symlink('d2', link);
    s.gate.answer(first.cardId, 'allow_session');
    const second = await pending.card();

    expect(s.appended[1]).toMatchObject({ type: 'card_stale', answer: 'allow_session' });
    expect(second.body).toMatchObject({ cwd: path.join(h.ws, 'd2') });
    expect(await s.loggedGrants()).toEqual([]);
    expect(await fs.readdir(path.join(h.ws, 'd1'))).toEqual([]);
    expect(await fs.readdir(path.join(h.ws, 'd2'))).toEqual([]);

    s.gate.answer(second.cardId, 'deny');
    await pending.result;
    expect(await fs.readdir(path.join(h.ws, 'd2'))).toEqual([]);
  });
});
