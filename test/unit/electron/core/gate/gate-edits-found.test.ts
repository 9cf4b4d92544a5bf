/**
 * Found by the property suite (test/property, edited answers): a write card open across a
 * restart takes a plain answer as soon as the session expects it (SPEC §6: "an answer that
 * arrives while the resume is still planning is taken rather than refused"), but refused
 * an allow_once with the person's edits until the resume had planned the call again ("is
 * not an open write card"). The person, who sees the card open, could not allow it with
 * their edits in that window (with an MCP server starting beside it, for as long as its
 * start card was open). And when the file had changed meanwhile, the card asked again must
 * keep the edits given before the resume, as it keeps an edited answer dropped as stale.
 *
 * The suite's history, as JSON for `npm run soak -- --replay FILE` (it failed three runs in
 * three: "refused an allow_once with edits it must take: ... is not an open write card"):
 * {"second":"nested","hooks":false,"crash":null,"steps":[
 *  {"kind":"call","s":0,"tool":"search_replace","args":{"path":"link-in/b.txt","old":"three\n","new":"two"}},
 *  {"kind":"call","s":1,"tool":"run","args":{"argv":["sh","-c","pwd -P >> \"$0\"","<mk>/m2"],"cwd":"sub"}},
 *  {"kind":"restart","answer":"allow_once","edit":{"kind":"splice","at":35,"del":3,"text":"x"}}]}
 */
import { describe, expect, it } from 'vitest';
import type { CardEvent } from '../../../../../shared/reducer.js';
import type { ToolCall } from '../../../../../electron/core/gate/permission-gate.js';
import { GateHarness, type GateUnderTest } from './gate-harness.js';

const EDITED = 'new, as the person wrote it\n';

async function stoppedAtCard(h: GateHarness): Promise<{ card: CardEvent; call: ToolCall; after: GateUnderTest }> {
  await h.put('a.txt', 'old\n');
  const before = await h.session();
  const call = before.call('write_file', { path: 'a.txt', content: 'new\n' });
  const card = await before.startCall(call).card();
  const after = await h.restart(before);
  return { card, call, after };
}

describe('an allow_once with edits on a write card open across a restart', () => {
  it('is taken after expect() and before the resume, and the resume writes the edits', async () => {
    const h = await GateHarness.open();
    const { card, call, after } = await stoppedAtCard(h);

    after.gate.expect(card);
    after.gate.answer(card.cardId, 'allow_once', EDITED);
    expect(after.appended).toEqual([]);

    expect(await after.gate.resume(card, call)).toMatchObject({ ok: true });
    expect(after.types()).toEqual(['card_answer']);
    expect(after.appended[0]).toMatchObject({ answer: 'allow_once', edited: { bytes: EDITED.length } });
    expect(await h.read('a.txt')).toBe(EDITED);
  });

  it('is taken while the resume is still planning', async () => {
    const h = await GateHarness.open();
    const { card, call, after } = await stoppedAtCard(h);

    const result = after.gate.resume(card, call);
    after.gate.answer(card.cardId, 'allow_once', EDITED);

    expect(await result).toMatchObject({ ok: true });
    expect(await h.read('a.txt')).toBe(EDITED);
  });

  it('is kept for the card asked again when the file changed meanwhile', async () => {
    const h = await GateHarness.open();
    const { card, call, after } = await stoppedAtCard(h);
    await h.put('a.txt', 'changed\n');

    after.gate.expect(card);
    after.gate.answer(card.cardId, 'allow_once', EDITED);
    const pending = after.pending(after.gate.resume(card, call));
    const second = await pending.card();

    expect(after.types()).toEqual(['card_withdrawn', 'card']);
    expect(second.reasked).toMatchObject({ previousCardId: card.cardId, edits: { bytes: EDITED.length } });
    const kept = await after.record.blobs.get(second.reasked!.edits!.blob);
    expect(kept.toString()).toBe(EDITED);
    expect(await h.read('a.txt')).toBe('changed\n');

    after.gate.answer(second.cardId, 'allow_once', EDITED);
    await pending.result;
    expect(await h.read('a.txt')).toBe(EDITED);
  });

  it('is still refused with anything but allow_once, or with a NUL', async () => {
    const h = await GateHarness.open();
    const { card, after } = await stoppedAtCard(h);

    after.gate.expect(card);
    expect(() => after.gate.answer(card.cardId, 'allow_session', EDITED)).toThrow(/only with allow_once/);
    expect(() => after.gate.answer(card.cardId, 'allow_once', 'a\0b')).toThrow(/NUL/);
    expect(after.appended).toEqual([]);
  });
});
