/**
 * A write card allowed with the person's edits (SPEC §13): their bytes are what lands,
 * checked against the digest like any write; the model's result gives their changes as a
 * diff from its proposal; the log keeps both as blobs; an edited write is allowed once and
 * never becomes a grant; a file changed before the answer asks again and keeps the edits.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WRITE_MAX_BYTES } from '../../../../../shared/limits.js';
import { foldEvents } from '../../../../../shared/reducer.js';
import { GateError } from '../../../../../electron/core/gate/gate-error.js';
import { GateHarness, type GateUnderTest } from './gate-harness.js';

const BEFORE = 'export function add(a, b) {\n  return a + b;\n}\n';
const PROPOSAL = 'export function sum(a, b) {\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n';
const EDITED = 'export function add(a, b) {\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n';

async function world(): Promise<{ h: GateHarness; s: GateUnderTest }> {
  const h = await GateHarness.open();
  await h.put('math.js', BEFORE);
  return { h, s: await h.session() };
}

describe('a write allowed with edits', () => {
  it("writes the person's bytes, logs the proposal and the edits as blobs, and tells the model the difference", async () => {
    const { h, s } = await world();
    const pending = s.start('write_file', { path: 'math.js', content: PROPOSAL });
    const card = await pending.card();

    s.gate.answer(card.cardId, 'allow_once', EDITED);
    const result = await pending.result;

    expect(await h.read('math.js')).toBe(EDITED);
    expect(s.types()).toEqual(['card', 'card_answer']);
    const answer = s.appended[1];
    expect(answer).toMatchObject({ type: 'card_answer', answer: 'allow_once', edited: { bytes: EDITED.length } });
    const edited = answer?.type === 'card_answer' ? answer.edited : undefined;
    expect((await s.record.blobs.get(edited!.blob)).toString()).toBe(EDITED);
    expect(card.body.kind === 'write' && (await s.record.blobs.get(card.body.proposalBlob)).toString()).toBe(PROPOSAL);

    expect(result.ok).toBe(true);
    const output = result.ok ? result.output : '';
    expect(output).toContain(`Wrote math.js (${EDITED.length} bytes, was ${BEFORE.length} bytes).`);
    expect(output).toContain('The user edited your proposal before allowing it');
    // The person's change as a diff from the proposal to what was written.
    expect(output).toContain('-export function sum(a, b) {\n+export function add(a, b) {\n');
    expect(output).toContain('do not undo');
    expect(result.details).toMatchObject({ editedByUser: true });
  });

  it('never becomes a grant: the next write to the same file asks again', async () => {
    const { h, s } = await world();
    const first = s.start('write_file', { path: 'math.js', content: PROPOSAL });
    s.gate.answer((await first.card()).cardId, 'allow_once', EDITED);
    await first.result;
    expect(await s.loggedGrants()).toEqual([]);

    const second = s.start('write_file', { path: 'math.js', content: 'again\n' });
    const card = await second.card();
    expect(card.body).toMatchObject({ kind: 'write' });
    s.gate.answer(card.cardId, 'deny');
    expect(await second.result).toMatchObject({ ok: false });
    expect(await h.read('math.js')).toBe(EDITED);
  });

  it('works for search_replace: the whole edited file lands', async () => {
    const { h, s } = await world();
    const pending = s.start('search_replace', { path: 'math.js', old: 'a + b', new: 'b + a' });
    const card = await pending.card();
    const mine = BEFORE.replace('a + b', 'a + b + 0');
    s.gate.answer(card.cardId, 'allow_once', mine);
    const result = await pending.result;
    expect(await h.read('math.js')).toBe(mine);
    expect(result.ok && result.output).toContain('-  return b + a;\n+  return a + b + 0;\n');
  });

  it('says so when the person left the proposal as it was', async () => {
    const { h, s } = await world();
    const pending = s.start('write_file', { path: 'math.js', content: PROPOSAL });
    s.gate.answer((await pending.card()).cardId, 'allow_once', PROPOSAL);
    const result = await pending.result;
    expect(await h.read('math.js')).toBe(PROPOSAL);
    expect(result.ok && result.output).toContain('(no line differs)');
  });
});

describe('an edited answer refused, changing nothing', () => {
  async function refused(answer: (s: GateUnderTest, cardId: string) => void, message: RegExp): Promise<void> {
    const { h, s } = await world();
    const pending = s.start('write_file', { path: 'math.js', content: PROPOSAL });
    const card = await pending.card();
    expect(() => answer(s, card.cardId)).toThrow(GateError);
    expect(() => answer(s, card.cardId)).toThrow(message);
    // Nothing logged, nothing written, and the card still takes a proper answer.
    expect(s.types()).toEqual(['card']);
    expect(await h.read('math.js')).toBe(BEFORE);
    s.gate.answer(card.cardId, 'allow_once', EDITED);
    await pending.result;
    expect(await h.read('math.js')).toBe(EDITED);
  }

  it('with allow_session', async () => {
    await refused((s, id) => s.gate.answer(id, 'allow_session', EDITED), /allow_once/);
  });

  it('with deny', async () => {
    await refused((s, id) => s.gate.answer(id, 'deny', EDITED), /allow_once/);
  });

  it('over the write limit, counted in UTF-8 bytes', async () => {
    const text = 'é'.repeat(WRITE_MAX_BYTES / 2 + 1); // fewer characters than the limit, more bytes
    await refused((s, id) => s.gate.answer(id, 'allow_once', text), /256 KiB/);
  });

  it('holding a NUL character', async () => {
    await refused((s, id) => s.gate.answer(id, 'allow_once', 'a\0b'), /NUL/);
  });

  it('holding a NUL as its very first byte', async () => {
    await refused((s, id) => s.gate.answer(id, 'allow_once', '\0export const x = 1;\n'), /NUL character \(at byte 0\)/);
  });

  it('on a proposal holding bytes that are not UTF-8, which an editor would not keep (the preview says so too)', async () => {
    const h = await GateHarness.open();
    await h.put('latin1.txt', Buffer.from('caf\xe9 = 1\n', 'latin1'));
    const s = await h.session();
    const pending = s.start('search_replace', { path: 'latin1.txt', old: '1', new: '2' });
    const card = await pending.card();
    // The card says so from the start, so the window offers no editor.
    expect(card.body).toMatchObject({ uneditable: expect.stringMatching(/not UTF-8/) });
    expect((await s.gate.preview(card.cardId, 'café = 2\n')).problem).toMatch(/not UTF-8/);
    expect(() => s.gate.answer(card.cardId, 'allow_once', 'café = 2\n')).toThrow(/not UTF-8/);
    expect(s.types()).toEqual(['card']);
    s.gate.answer(card.cardId, 'allow_once');
    await pending.result;
    expect(await fs.readFile(path.join(h.ws, 'latin1.txt'))).toEqual(Buffer.from('caf\xe9 = 2\n', 'latin1'));
  });

  it('on a command card', async () => {
    const h = await GateHarness.open();
    const s = await h.session();
    const pending = s.start('run', { argv: ['true'] });
    const card = await pending.card();
    expect(() => s.gate.answer(card.cardId, 'allow_once', 'x')).toThrow(/only a write can be allowed with edits/);
    expect(s.types()).toEqual(['card']);
    s.gate.answer(card.cardId, 'deny');
    await pending.result;
  });
});

describe('a file changed before an edited answer', () => {
  it('asks again with the diff as it is now, keeping the edits for the new card, and writes them when allowed', async () => {
    const { h, s } = await world();
    const pending = s.start('write_file', { path: 'math.js', content: PROPOSAL });
    const first = await pending.card();
    await h.put('math.js', `// changed by hand\n${BEFORE}`);

    s.gate.answer(first.cardId, 'allow_once', EDITED);
    const second = await pending.card();

    expect(s.types()).toEqual(['card', 'card_stale', 'card']);
    const stale = s.appended[1];
    expect(stale).toMatchObject({ type: 'card_stale', answer: 'allow_once', edited: { bytes: EDITED.length } });
    const kept = stale?.type === 'card_stale' ? stale.edited : undefined;
    expect(second.reasked).toEqual({
      previousCardId: first.cardId,
      reason: 'the file changed on disk after the card went up',
      edits: kept,
    });
    expect((await s.record.blobs.get(kept!.blob)).toString()).toBe(EDITED);
    expect(await h.read('math.js')).toBe(`// changed by hand\n${BEFORE}`);

    s.gate.answer(second.cardId, 'allow_once', EDITED);
    expect(await pending.result).toMatchObject({ ok: true });
    expect(await h.read('math.js')).toBe(EDITED);
  });

  it('asks again with the edits even when a grant now covers the file', async () => {
    const { h, s } = await world();
    const pending = s.start('write_file', { path: 'math.js', content: PROPOSAL });
    const first = await pending.card();
    // Another call's allow_session grants writes to this file meanwhile.
    const other = s.start('write_file', { path: 'math.js', content: 'other\n' });
    s.gate.answer((await other.card()).cardId, 'allow_session');
    await other.result;

    s.gate.answer(first.cardId, 'allow_once', EDITED);
    const second = await pending.card();
    expect(second.reasked?.edits).toMatchObject({ bytes: EDITED.length });
    expect(await h.read('math.js')).toBe('other\n');
    s.gate.answer(second.cardId, 'deny');
    expect(await pending.result).toMatchObject({ ok: false });
  });
});

describe("the card's diff rebuilt from the person's text", () => {
  it('diffs the bytes on disk when the card went up against the text, and says what blocks it', async () => {
    const { h, s } = await world();
    const pending = s.start('write_file', { path: 'math.js', content: PROPOSAL });
    const card = await pending.card();
    const abs = path.join(h.ws, 'math.js').replace(/^\/+/, '');

    const preview = await s.gate.preview(card.cardId, BEFORE.replace('a + b', 'b + a'));
    expect(preview).toEqual({
      diff: `--- a/${abs}\n+++ b/${abs}\n@@ -1,3 +1,3 @@\n export function add(a, b) {\n-  return a + b;\n+  return b + a;\n }\n`,
      diffTruncated: false,
      diffBytes: expect.any(Number),
      editedBytes: BEFORE.length,
      sameAsProposal: false,
    });
    expect((await s.gate.preview(card.cardId, PROPOSAL)).sameAsProposal).toBe(true);
    expect((await s.gate.preview(card.cardId, 'a\0b')).problem).toMatch(/NUL/);
    expect((await s.gate.preview(card.cardId, '\0b')).problem).toMatch(/NUL character \(at byte 0\)/);
    // Even after the file changed on disk, the preview stays against what the card showed.
    await fs.writeFile(path.join(h.ws, 'math.js'), 'changed\n');
    expect((await s.gate.preview(card.cardId, BEFORE)).diff).toBe('');
    expect(s.types()).toEqual(['card']);

    s.gate.answer(card.cardId, 'deny');
    await pending.result;
    await expect(async () => s.gate.preview(card.cardId, 'x')).rejects.toThrow(/no open card/);
  });
});

describe('a card open across a restart, before its resume', () => {
  it('refuses edits to a command card it expects, and takes its plain answer', async () => {
    const h = await GateHarness.open();
    const s = await h.session();
    const call = s.call('run', { argv: ['true'] });
    const card = await s.startCall(call).card();
    const after = await h.restart(s);
    after.gate.expect(card);
    expect(() => after.gate.answer(card.cardId, 'allow_once', 'x')).toThrow(/only a write can be allowed with edits/);
    after.gate.answer(card.cardId, 'deny');
    expect(await after.gate.resume(card, call)).toMatchObject({ ok: false, error: 'denied by the user' });
  });
});

describe('a re-asked card with kept edits, across a restart', () => {
  it('keeps the edits when the file changed again while the app was closed', async () => {
    const { h, s } = await world();
    const call = s.call('write_file', { path: 'math.js', content: PROPOSAL });
    const pending = s.startCall(call);
    const first = await pending.card();
    await h.put('math.js', 'changed once\n');
    s.gate.answer(first.cardId, 'allow_once', EDITED);
    const second = await pending.card();

    const after = await h.restart(s);
    await h.put('math.js', 'changed twice\n');
    const [open] = foldEvents(await after.record.log.readEvents()).openCards;
    expect(open?.cardId).toBe(second.cardId);
    const resumed = after.pending(after.gate.resume(open!, call));
    const third = await resumed.card();
    expect(third.reasked?.edits).toEqual(second.reasked?.edits);
    after.gate.answer(third.cardId, 'allow_once', EDITED);
    await resumed.result;
    expect(await h.read('math.js')).toBe(EDITED);
  });
});
