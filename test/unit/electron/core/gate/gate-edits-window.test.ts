/**
 * The window rebuilds an open write card's diff itself as the person types (SPEC §13): the
 * gate hands it the card's other side as text (diffBase), and the window's rebuild is the
 * core's card.preview to the byte. Where the window could not rebuild it exactly (a file on
 * disk that is not UTF-8 text, or too big to send) or the card is no longer open, no side
 * is handed out and card.preview stays the way.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { quickEditPreview } from '../../../../../shared/diff/edit-preview.js';
import { WRITE_MAX_BYTES } from '../../../../../shared/limits.js';
import { GateHarness } from './gate-harness.js';

const BEFORE = 'export function add(a, b) {\r\n  return a + b;\r\n}\r\n';
const PROPOSAL = 'export function sum(a, b) {\r\n  return a + b;\r\n}\r\n';

async function openCard(before: string | Buffer | null, proposal = PROPOSAL) {
  const h = await GateHarness.open();
  if (before !== null) await h.put('math.js', before);
  const s = await h.session();
  const pending = s.start('write_file', { path: 'math.js', content: proposal });
  const card = await pending.card();
  return { h, s, pending, cardId: card.cardId };
}

describe("the window's rebuild of a write card's diff", () => {
  it("is the gate's own preview, byte for byte, for every kind of text the person may type", async () => {
    const { s, cardId } = await openCard(BEFORE);
    const base = s.gate.diffBase(cardId);
    expect(base?.before).toBe(BEFORE);
    const texts = [
      BEFORE.replace('a + b', 'b + a'),
      PROPOSAL,
      BEFORE,
      '',
      BEFORE.replaceAll('\r\n', '\n'),
      `${BEFORE}lone\rcarriage\r\n\u2028 é 😀 \ud83d\r\n`,
      'no final newline',
      'a\0b\n',
      `${'x'.repeat(WRITE_MAX_BYTES)}\n`,
    ];
    for (const text of texts) {
      expect(quickEditPreview(base!, PROPOSAL, text), JSON.stringify(text.slice(0, 40))).toEqual(
        await s.gate.preview(cardId, text),
      );
    }
  });

  it('works from the file not existing yet', async () => {
    const { s, cardId } = await openCard(null);
    const base = s.gate.diffBase(cardId);
    expect(base?.before).toBeNull();
    expect(quickEditPreview(base!, PROPOSAL, 'mine\n')).toEqual(await s.gate.preview(cardId, 'mine\n'));
  });

  it('names the path as the card diff headers do', async () => {
    const { h, s, cardId } = await openCard(BEFORE);
    expect(s.gate.diffBase(cardId)?.path).toBe(await fs.realpath(path.join(h.ws, 'math.js')));
  });

  it('is not offered for a file on disk that is not UTF-8 text: its lines are keyed by their bytes in the core', async () => {
    const { s, cardId } = await openCard(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(s.gate.diffBase(cardId)).toBeUndefined();
    expect((await s.gate.preview(cardId, 'café\n')).diff).toContain('+café\n');
  });

  it('is not offered for a file on disk bigger than a write may be', async () => {
    const { s, cardId } = await openCard(`${'y'.repeat(WRITE_MAX_BYTES)}\n`);
    expect(s.gate.diffBase(cardId)).toBeUndefined();
  });

  it('is not offered once the card is answered', async () => {
    const { s, pending, cardId } = await openCard(BEFORE);
    s.gate.answer(cardId, 'deny');
    await pending.result;
    expect(s.gate.diffBase(cardId)).toBeUndefined();
  });
});
