/**
 * Answers the gate must refuse (GateError, and nothing changes), and a cancel while a
 * card waits (the card is withdrawn, the wait rejects, nothing runs).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Answer } from '../../../../../shared/cards.js';
import { foldEvents } from '../../../../../shared/reducer.js';
import { CancelledError, GateError } from '../../../../../electron/core/gate/gate-error.js';
import { GateHarness, type GateUnderTest } from './gate-harness.js';

async function world(): Promise<GateHarness> {
  const h = await GateHarness.open();
  await h.put('a.txt', 'old\n');
  return h;
}

/** Everything an answer could change: the log on disk, meta.json, the workspace. */
async function everything(h: GateHarness, s: GateUnderTest) {
  return {
    log: await s.record.log.readEvents(),
    meta: await s.metaBytes(),
    files: await h.snapshot(),
  };
}

function gateError(fn: () => void): GateError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(GateError);
    return err as GateError;
  }
  throw new Error('expected a GateError, and nothing was thrown');
}

describe('an answer the gate refuses', () => {
  it('names an unknown card id, changes nothing, and leaves the open card waiting', async () => {
    const h = await world();
    const s = await h.session();
    const pending = s.start('write_file', { path: 'a.txt', content: 'new\n' });
    const card = await pending.card();
    const before = await everything(h, s);

    const err = gateError(() => s.gate.answer('no-such-card', 'allow_session'));

    expect(err.message).toBe('no open card with id no-such-card');
    expect(await everything(h, s)).toEqual(before);
    expect(s.gate.isWaiting(card.cardId)).toBe(true);
    s.gate.answer(card.cardId, 'allow_once');
    expect(await pending.result).toMatchObject({ ok: true });
  });

  it('says a card was already answered, and how, without acting twice', async () => {
    const h = await world();
    const s = await h.session();
    const pending = s.start('write_file', { path: 'a.txt', content: 'new\n' });
    const card = await pending.card();
    s.gate.answer(card.cardId, 'allow_once');
    await pending.result;
    await h.put('a.txt', 'edited by hand afterwards\n');
    const before = await everything(h, s);

    const err = gateError(() => s.gate.answer(card.cardId, 'allow_session'));

    expect(err.message).toBe(`card ${card.cardId} is no longer open (answered allow_once)`);
    expect(await everything(h, s)).toEqual(before);
    expect(await s.loggedGrants()).toEqual([]);
  });

  it('refuses a second answer given before the first one is acted on', async () => {
    const h = await world();
    const s = await h.session();
    const pending = s.start('write_file', { path: 'a.txt', content: 'new\n' });
    const card = await pending.card();

    s.gate.answer(card.cardId, 'deny');
    const err = gateError(() => s.gate.answer(card.cardId, 'allow_session'));
    await pending.result;

    expect(err.message).toBe(`card ${card.cardId} is no longer open (answered deny)`);
    expect(s.types()).toEqual(['card', 'card_answer']);
    expect(s.appended[1]).toMatchObject({ answer: 'deny' });
    expect(await h.read('a.txt')).toBe('old\n');
    expect(await s.loggedGrants()).toEqual([]);
  });

  it.each(['yes', 'allow', 'ALLOW_ONCE', '', undefined])(
    'refuses the answer word %j, lists the valid ones, and keeps the card open',
    async (word) => {
      const h = await world();
      const s = await h.session();
      const pending = s.start('write_file', { path: 'a.txt', content: 'new\n' });
      const card = await pending.card();
      const before = await everything(h, s);

      const err = gateError(() => s.gate.answer(card.cardId, word as Answer));

      expect(err.message).toBe(`unknown answer "${String(word)}": expected one of allow_once, allow_session, deny`);
      expect(await everything(h, s)).toEqual(before);
      expect(s.gate.isWaiting(card.cardId)).toBe(true);
      s.gate.answer(card.cardId, 'deny');
      await pending.result;
      expect(await h.read('a.txt')).toBe('old\n');
    },
  );

  it('refuses an unknown answer word even for an unknown card, with the word named first', async () => {
    const h = await world();
    const s = await h.session();

    const err = gateError(() => s.gate.answer('no-such-card', 'maybe' as Answer));

    expect(err.message).toContain('unknown answer "maybe"');
    expect(await s.record.log.readEvents()).toEqual([]);
  });
});

describe('cancelling while a card waits', () => {
  it('withdraws a write card, rejects with CancelledError and writes nothing', async () => {
    const h = await world();
    const s = await h.session();
    const metaBefore = await s.metaBytes();
    const files = await h.snapshot();
    const controller = new AbortController();
    const pending = s.start('write_file', { path: 'a.txt', content: 'new\n' }, { signal: controller.signal });
    const card = await pending.card();

    controller.abort();

    await expect(pending.result).rejects.toBeInstanceOf(CancelledError);
    expect(s.types()).toEqual(['card', 'card_withdrawn']);
    expect(s.appended[1]).toMatchObject({ cardId: card.cardId, reason: 'the turn was cancelled' });
    expect(foldEvents(await s.record.log.readEvents()).openCards).toEqual([]);
    expect(await h.snapshot()).toEqual(files);
    expect(await s.metaBytes()).toEqual(metaBefore);
    expect(s.gate.isWaiting(card.cardId)).toBe(false);
    const err = gateError(() => s.gate.answer(card.cardId, 'allow_once'));
    expect(err.message).toBe(`card ${card.cardId} is no longer open (withdrawn)`);
    expect(await h.read('a.txt')).toBe('old\n');
  });

  it('withdraws a command card and the command never starts', async () => {
    const h = await world();
    const s = await h.session();
    const controller = new AbortController();
    const argv = [process.execPath, '-e', "require('fs').writeFileSync('ran.txt', 'x')"];
    const pending = s.start('run', { argv }, { signal: controller.signal });
    await pending.card();

    controller.abort();

    await expect(pending.result).rejects.toBeInstanceOf(CancelledError);
    expect(s.types()).toEqual(['card', 'card_withdrawn']);
    expect(await h.read('ran.txt')).toBeNull();
  });

  it('withdraws the re-asked card when the cancel comes after a stale answer', async () => {
    const h = await world();
    const s = await h.session();
    const controller = new AbortController();
    const pending = s.start('write_file', { path: 'a.txt', content: 'new\n' }, { signal: controller.signal });
    const first = await pending.card();
    await h.put('a.txt', 'changed\n');
    s.gate.answer(first.cardId, 'allow_session');
    const second = await pending.card();

    controller.abort();

    await expect(pending.result).rejects.toBeInstanceOf(CancelledError);
    expect(s.types()).toEqual(['card', 'card_stale', 'card', 'card_withdrawn']);
    expect(s.appended[3]).toMatchObject({ cardId: second.cardId });
    expect(await h.read('a.txt')).toBe('changed\n');
    expect(await s.loggedGrants()).toEqual([]);
  });

  it('with the signal already aborted, runs nothing and leaves no card open', async () => {
    const h = await world();
    const s = await h.session();
    const files = await h.snapshot();

    const result = s.gate.run(s.call('write_file', { path: 'a.txt', content: 'new\n' }), {
      signal: AbortSignal.abort(),
    });

    await expect(result).rejects.toBeInstanceOf(CancelledError);
    expect(foldEvents(await s.record.log.readEvents()).openCards).toEqual([]);
    expect(await h.snapshot()).toEqual(files);
  });

  it('leaves a card on another session’s gate waiting', async () => {
    const h = await world();
    const one = await h.session();
    const two = await h.session();
    const controller = new AbortController();
    const cancelled = one.start(
      'write_file',
      { path: path.join(h.ws, 'a.txt'), content: 'one\n' },
      {
        signal: controller.signal,
      },
    );
    const other = two.start('write_file', { path: 'a.txt', content: 'two\n' });
    await cancelled.card();
    const otherCard = await other.card();

    controller.abort();
    await expect(cancelled.result).rejects.toBeInstanceOf(CancelledError);

    expect(two.gate.isWaiting(otherCard.cardId)).toBe(true);
    two.gate.answer(otherCard.cardId, 'allow_once');
    expect(await other.result).toMatchObject({ ok: true });
    expect(await h.read('a.txt')).toBe('two\n');
  });
});
