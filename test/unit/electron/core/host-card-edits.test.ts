/**
 * Editing on the card through the contract (SPEC §13): card.preview as the person types,
 * card.answer with `edited` (allow_once only, a write card only), the next request to the
 * model carrying the person's changes, card.edits for the transcript, and card.proposal
 * handing the editor the card's other side while it is open, and a re-asked card the edits
 * it keeps.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const BEFORE = 'const greeting = "hi";\nexport default greeting;\n';
const PROPOSAL = 'const salutation = "hello";\nexport default salutation;\n';
const EDITED = 'const greeting = "hello";\nexport default greeting;\n';

async function writeCard(): Promise<{ id: string; cardId: string }> {
  h = await startHarness();
  await fs.writeFile(path.join(h.workspace, 'greet.ts'), BEFORE);
  h.fake.enqueue(
    { toolCalls: [{ name: 'write_file', input: { path: 'greet.ts', content: PROPOSAL } }] },
    { text: 'ok' },
  );
  const id = await h.open();
  await h.call('session.send', { id, text: 'say hello' });
  const card = await h.event(id, 'card');
  return { id, cardId: card.cardId };
}

describe('a write card allowed with edits, through the contract', () => {
  it("hands the editor the card's other side while the card is open, and not after", async () => {
    const { id, cardId } = await writeCard();
    const open = await h!.call('card.proposal', { id, cardId });
    expect(open.diffBase).toEqual({ path: await fs.realpath(path.join(h!.workspace, 'greet.ts')), before: BEFORE });
    await h!.call('card.answer', { id, cardId, answer: 'deny' });
    await h!.event(id, 'turn_ended');
    const answered = await h!.call('card.proposal', { id, cardId });
    expect(answered).toEqual({ path: path.join(h!.workspace, 'greet.ts'), text: PROPOSAL, bytes: PROPOSAL.length });
  });

  it('previews, writes the edits, tells the model, and shows the proposal against what was written', async () => {
    const { id, cardId } = await writeCard();
    const preview = await h!.call('card.preview', { id, cardId, text: EDITED });
    expect(preview).toMatchObject({ sameAsProposal: false, editedBytes: EDITED.length, diffTruncated: false });
    expect(preview.diff).toContain('-const greeting = "hi";\n+const greeting = "hello";\n');

    expect(await h!.call('card.answer', { id, cardId, answer: 'allow_once', edited: EDITED })).toEqual({
      cardId,
      answer: 'allow_once',
      edited: true,
    });
    await h!.event(id, 'turn_ended');
    expect(await fs.readFile(path.join(h!.workspace, 'greet.ts'), 'utf8')).toBe(EDITED);

    // The next request carries the tool result with the person's changes as a diff from the proposal.
    const next = h!.fake.requests.at(-1)!.rawBody;
    expect(next).toContain('The user edited your proposal before allowing it');
    expect(next).toContain(JSON.stringify('-const salutation = "hello";\n').slice(1, -1));
    expect(h!.fake.requests[0]!.rawBody).toContain('The user may edit your proposed write');

    const edits = await h!.call('card.edits', { id, cardId });
    expect(edits).toMatchObject({ proposalBytes: PROPOSAL.length, editedBytes: EDITED.length, diffTruncated: false });
    expect(edits.diff).toContain('-const salutation = "hello";\n-export default salutation;\n');
    expect(edits.diff).toContain('+const greeting = "hello";\n+export default greeting;\n');
  });

  it('refuses edits with any answer but allow_once, at the contract, logging nothing', async () => {
    const { id, cardId } = await writeCard();
    const before = await h!.events(id);
    for (const answer of ['allow_session', 'deny']) {
      const reply = await h!.raw('card.answer', { id, cardId, answer, edited: EDITED });
      expect(reply).toMatchObject({ ok: false, error: expect.stringContaining('edits go only with allow_once') });
    }
    expect(await h!.raw('card.answer', { id, cardId, answer: 'allow_once', edited: 42 })).toMatchObject({ ok: false });
    expect(await h!.events(id)).toEqual(before);
    await h!.call('card.answer', { id, cardId, answer: 'deny' });
    await h!.event(id, 'turn_ended');
    expect(await fs.readFile(path.join(h!.workspace, 'greet.ts'), 'utf8')).toBe(BEFORE);
  });

  it('refuses card.edits for a card answered without edits, and card.preview for a closed one', async () => {
    const { id, cardId } = await writeCard();
    await h!.call('card.answer', { id, cardId, answer: 'allow_once' });
    await h!.event(id, 'turn_ended');
    expect(await h!.raw('card.edits', { id, cardId })).toEqual({
      ok: false,
      error: `card ${cardId} was not allowed with your edits`,
    });
    expect(await h!.raw('card.preview', { id, cardId, text: 'x' })).toEqual({
      ok: false,
      error: `no open card with id ${cardId} in this session`,
    });
  });

  it('refuses edits on a command card', async () => {
    h = await startHarness();
    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['true'] } }] });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    expect(await h.raw('card.answer', { id, cardId: card.cardId, answer: 'allow_once', edited: 'x' })).toEqual({
      ok: false,
      error: `card ${card.cardId} asks to run a command; only a write card can be edited`,
    });
    expect(await h.raw('card.preview', { id, cardId: card.cardId, text: 'x' })).toMatchObject({ ok: false });
    await h.call('session.cancel', { id });
    await h.event(id, 'turn_ended');
  });

  it('hands a card asked again after the file changed the edits it keeps', async () => {
    const { id, cardId } = await writeCard();
    await fs.writeFile(path.join(h!.workspace, 'greet.ts'), `// by hand\n${BEFORE}`);
    await h!.call('card.answer', { id, cardId, answer: 'allow_once', edited: EDITED });
    const second = await h!.event(id, 'card', (c) => c.cardId !== cardId);
    expect(await h!.call('card.proposal', { id, cardId: second.cardId })).toEqual({
      path: path.join(h!.workspace, 'greet.ts'),
      text: PROPOSAL,
      bytes: PROPOSAL.length,
      edited: { text: EDITED, bytes: EDITED.length },
      // The new card's other side is the file as it is now, for the editor's own diff.
      diffBase: { path: await fs.realpath(path.join(h!.workspace, 'greet.ts')), before: `// by hand\n${BEFORE}` },
    });
    await h!.call('card.answer', { id, cardId: second.cardId, answer: 'deny' });
    await h!.event(id, 'turn_ended');
  });
});
