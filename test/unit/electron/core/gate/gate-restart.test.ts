/**
 * A card open when the process stopped is open again after the restart (SPEC §6): the
 * new gate finds it in the log and waits on it again; a write card re-checks its digest
 * first and, if the file changed meanwhile, is withdrawn and asked again.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { foldEvents, type CardEvent } from '../../../../../shared/reducer.js';
import { DENIED, type ToolCall } from '../../../../../electron/core/gate/permission-gate.js';
import { GateError } from '../../../../../electron/core/gate/gate-error.js';
import { GateHarness, metaWithGrants, type GateUnderTest } from './gate-harness.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const header = (abs: string) => abs.replace(/^\/+/, '');

/** A call left waiting at its card when the "process" stops, and the session reopened. */
async function stoppedAtCard(
  h: GateHarness,
  tool: string,
  args: unknown,
): Promise<{ before: GateUnderTest; card: CardEvent; call: ToolCall; after: GateUnderTest }> {
  const before = await h.session();
  const call = before.call(tool, args);
  const card = await before.startCall(call).card();
  const after = await h.restart(before);
  return { before, card, call, after };
}

/** The open cards, as the reopened session folds them from its log. */
async function openCards(s: GateUnderTest): Promise<CardEvent[]> {
  return foldEvents(await s.record.log.readEvents()).openCards;
}

describe('a write card open across a restart', () => {
  it('is the same card when nothing changed, and answering it executes the write', async () => {
    const h = await GateHarness.open();
    await h.put('a.txt', 'old\n');
    const { card, call, after } = await stoppedAtCard(h, 'write_file', { path: 'a.txt', content: 'new\n' });
    const [open] = await openCards(after);
    expect(open).toEqual(card);

    const pending = after.pending(after.gate.resume(open!, call));
    expect(after.gate.isWaiting(card.cardId)).toBe(true);
    expect(await h.read('a.txt')).toBe('old\n');

    after.gate.answer(card.cardId, 'allow_once');

    expect(await pending.result).toMatchObject({ ok: true, output: 'Wrote a.txt (4 bytes, was 4 bytes).' });
    expect(after.types()).toEqual(['card_answer']);
    expect(after.appended[0]).toMatchObject({ cardId: card.cardId, answer: 'allow_once' });
    expect(await h.read('a.txt')).toBe('new\n');
    expect(await openCards(after)).toEqual([]);
  });

  it('takes an answer as soon as it is resumed', async () => {
    const h = await GateHarness.open();
    await h.put('a.txt', 'old\n');
    const { card, call, after } = await stoppedAtCard(h, 'write_file', { path: 'a.txt', content: 'new\n' });

    const result = after.gate.resume(card, call);
    after.gate.answer(card.cardId, 'allow_once');

    expect(await result).toMatchObject({ ok: true });
    expect(await h.read('a.txt')).toBe('new\n');
  });

  it('keeps an answer given after expect() and before the resume, and acts on it then', async () => {
    const h = await GateHarness.open();
    await h.put('a.txt', 'old\n');
    const { card, call, after } = await stoppedAtCard(h, 'write_file', { path: 'a.txt', content: 'new\n' });

    after.gate.expect(card);
    after.gate.answer(card.cardId, 'allow_once');
    expect(after.appended).toEqual([]);
    expect(await h.read('a.txt')).toBe('old\n');
    expect(() => after.gate.answer(card.cardId, 'deny')).toThrow(/no longer open \(answered allow_once\)/);

    expect(await after.gate.resume(card, call)).toMatchObject({ ok: true });
    expect(after.types()).toEqual(['card_answer']);
    expect(await h.read('a.txt')).toBe('new\n');
  });

  it('drops an answer given before the resume when the file changed meanwhile, and asks again', async () => {
    const h = await GateHarness.open();
    await h.put('a.txt', 'old\n');
    const { card, call, after } = await stoppedAtCard(h, 'write_file', { path: 'a.txt', content: 'new\n' });
    await h.put('a.txt', 'edited\n');

    after.gate.expect(card);
    after.gate.answer(card.cardId, 'allow_session');
    const pending = after.pending(after.gate.resume(card, call));
    const second = await pending.card();

    expect(after.types()).toEqual(['card_withdrawn', 'card']);
    expect(second.reasked?.previousCardId).toBe(card.cardId);
    expect(await after.loggedGrants()).toEqual([]);
    expect(await h.read('a.txt')).toBe('edited\n');
    after.gate.answer(second.cardId, 'deny');
    expect(await pending.result).toEqual({ ok: false, error: DENIED });
    expect(await h.read('a.txt')).toBe('edited\n');
  });

  it('records an allow_session given after the restart in the log and meta.json', async () => {
    const h = await GateHarness.open();
    await h.put('a.txt', 'old\n');
    const { card, call, after } = await stoppedAtCard(h, 'write_file', { path: 'a.txt', content: 'new\n' });
    const metaBefore = await after.metaBytes();

    const result = after.gate.resume(card, call);
    after.gate.answer(card.cardId, 'allow_session');
    await result;

    const grant = { kind: 'write' as const, path: path.join(h.ws, 'a.txt') };
    expect(await after.loggedGrants()).toEqual([grant]);
    expect((await after.metaBytes()).toString()).toBe(metaWithGrants(metaBefore, [grant]));
    // And the grant holds for the next write of this session.
    expect(await after.run('write_file', { path: 'a.txt', content: 'newer\n' })).toMatchObject({ ok: true });
    expect(after.types()).toEqual(['card_answer']);
  });

  it('is withdrawn and asked again with the current diff when the file changed meanwhile', async () => {
    const h = await GateHarness.open();
    await h.put('a.txt', 'old\n');
    const { card, call, after } = await stoppedAtCard(h, 'write_file', { path: 'a.txt', content: 'new\n' });
    await h.put('a.txt', 'edited while the app was closed\n');

    const pending = after.pending(after.gate.resume(card, call));
    const second = await pending.card();

    const reason = 'the file changed on disk after the card went up';
    expect(after.types()).toEqual(['card_withdrawn', 'card']);
    expect(after.appended[0]).toMatchObject({ cardId: card.cardId, reason: `after the restart: ${reason}` });
    expect(second.reasked).toEqual({ previousCardId: card.cardId, reason });
    const abs = path.join(h.ws, 'a.txt');
    expect(second.body).toMatchObject({
      digest: sha256('edited while the app was closed\n'),
      diff: `--- a/${header(abs)}\n+++ b/${header(abs)}\n@@ -1 +1 @@\n-edited while the app was closed\n+new\n`,
    });
    expect((await openCards(after)).map((c) => c.cardId)).toEqual([second.cardId]);
    expect(() => after.gate.answer(card.cardId, 'allow_once')).toThrow(GateError);
    expect(await h.read('a.txt')).toBe('edited while the app was closed\n');

    after.gate.answer(second.cardId, 'allow_once');
    expect(await pending.result).toMatchObject({ ok: true });
    expect(await h.read('a.txt')).toBe('new\n');
  });

  it('is withdrawn with the model told why when search_replace no longer applies', async () => {
    const h = await GateHarness.open();
    await h.put('a.txt', 'old\n');
    const { card, call, after } = await stoppedAtCard(h, 'search_replace', { path: 'a.txt', old: 'old', new: 'new' });
    await h.put('a.txt', 'gone\n');

    const result = await after.gate.resume(card, call);

    const error = 'search_replace: "old" was not found in "a.txt"';
    expect(result).toEqual({ ok: false, error });
    expect(after.types()).toEqual(['card_withdrawn']);
    expect(after.appended[0]).toMatchObject({ cardId: card.cardId, reason: error });
    expect(await openCards(after)).toEqual([]);
    expect(() => after.gate.answer(card.cardId, 'allow_once')).toThrow(/card .* is no longer open \(withdrawn\)/);
    expect(await h.read('a.txt')).toBe('gone\n');
  });
});

describe('other cards open across a restart', () => {
  it('a command card, denied after the restart, never starts the command', async () => {
    const h = await GateHarness.open();
    const argv = [process.execPath, '-e', "require('fs').writeFileSync('ran.txt', 'x')"];
    const { card, call, after } = await stoppedAtCard(h, 'run', { argv });

    const result = after.gate.resume(card, call);
    after.gate.answer(card.cardId, 'deny');

    expect(await result).toEqual({ ok: false, error: DENIED });
    expect(await fs.readdir(h.ws)).toEqual([]);
  });

  it('a command card, allowed after the restart, runs in the folder the card named', async () => {
    const h = await GateHarness.open();
    await fs.mkdir(path.join(h.ws, 'sub'));
    const argv = [process.execPath, '-e', "require('fs').writeFileSync('ran.txt', 'x')"];
    const { card, call, after } = await stoppedAtCard(h, 'run', { argv, cwd: 'sub' });

    const result = after.gate.resume(card, call);
    after.gate.answer(card.cardId, 'allow_once');

    expect(await result).toMatchObject({ ok: true, details: { exitCode: 0 } });
    expect(await h.read('sub/ran.txt')).toBe('x');
  });

  it('keeps the grants given before the restart', async () => {
    const h = await GateHarness.open();
    await h.put('a.txt', 'old\n');
    const first = await h.session();
    const pending = first.start('write_file', { path: 'a.txt', content: 'one\n' });
    first.gate.answer((await pending.card()).cardId, 'allow_session');
    await pending.result;

    const after = await h.restart(first);

    expect(await after.run('write_file', { path: 'a.txt', content: 'two\n' })).toMatchObject({ ok: true });
    expect(after.appended).toEqual([]);
    expect(await h.read('a.txt')).toBe('two\n');
  });
});
