/**
 * Editing a write card's proposal (SPEC §13, UI.md card rule 11): the editor opens on the
 * whole proposal, the diff follows the person's text (built in the window when it can,
 * else through card.preview, coalesced), a fourth answer "Allow with my edits" appears once
 * the text differs, typing never answers, Reset returns to the proposal, and a problem with
 * the text disables the edited answer.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditorView } from '@codemirror/view';
import { describe, expect, it } from 'vitest';
import type { EditPreview } from '../../../../../shared/card-edits';
import type { CallRequest, CallResponses } from '../../../../../shared/contract';
import type { CardEvent, CardOutcome } from '../../../../../shared/reducer';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { PermissionCard } from '../../../../../renderer/src/components/cards/PermissionCard';
import { createFakeApi } from '../../fake-api';
import { stubLayout } from '../layout-stub';
import { SESSION, WORKSPACE, cardOf, writeBody } from './card-fixtures';

stubLayout();

// CodeMirror measures text with Range rects, which jsdom does not lay out.
const noRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getClientRects ??= noRects;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();

const OPEN: CardOutcome = { state: 'open' };
const PROPOSAL = 'import { run } from "./run";\nconst limit = 20;\n\nrun(limit);\n';
const LABEL = 'Permission: write src/app.ts';

/** A preview as the core would build it: a one-hunk diff naming the person's version's lines. */
function previewOf(text: string, extra: Partial<EditPreview> = {}): EditPreview {
  const lines = text.split('\n').slice(0, -1);
  const diff = [
    '--- a/src/app.ts',
    '+++ b/src/app.ts',
    `@@ -1,1 +1,${lines.length} @@`,
    '-old',
    ...lines.map((l) => `+${l}`),
    '',
  ].join('\n');
  return {
    diff,
    diffTruncated: false,
    diffBytes: diff.length,
    editedBytes: new TextEncoder().encode(text).length,
    sameAsProposal: text === PROPOSAL,
    ...extra,
  };
}

function setup(card: CardEvent = cardOf(writeBody())) {
  const fake = createFakeApi();
  fake.reply('card.proposal', { path: `${WORKSPACE}/src/app.ts`, text: PROPOSAL, bytes: PROPOSAL.length });
  fake.respond('card.preview', (req) => ({ ok: true, data: previewOf(req.text) }));
  const view = render(
    <ApiProvider api={fake.api}>
      <textarea aria-label="Message" />
      <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={card} outcome={OPEN} pinned />
    </ApiProvider>,
  );
  return { fake, card, view, region: screen.getByRole('region', { name: LABEL }) };
}

/** A write card whose card.preview replies wait until the test lets each one go (`done`). */
function setupHeldPreviews(proposal: CallResponses['card.proposal']) {
  const fake = createFakeApi();
  fake.reply('card.proposal', proposal);
  const waiting: { req: CallRequest<'card.preview'>; done: () => void }[] = [];
  fake.respond(
    'card.preview',
    (req) =>
      new Promise((resolve) => waiting.push({ req, done: () => resolve({ ok: true, data: previewOf(req.text) }) })),
  );
  render(
    <ApiProvider api={fake.api}>
      <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={cardOf(writeBody())} outcome={OPEN} pinned />
    </ApiProvider>,
  );
  return { fake, waiting, region: screen.getByRole('region', { name: LABEL }) };
}

const waitOutArming = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 550)));

/** The editor's text area (CodeMirror's content element), by its accessible name. */
async function editorArea(): Promise<HTMLElement> {
  return screen.findByRole('textbox', { name: 'Your version of src/app.ts' }, { timeout: 5000 });
}

/** Replaces the editor's whole text, as typing would (jsdom has no real text input for contenteditable). */
function typeInto(area: HTMLElement, text: string) {
  const view = EditorView.findFromDOM(area)!;
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
}

async function openEditor(): Promise<HTMLElement> {
  await userEvent.click(screen.getByRole('button', { name: 'Edit the proposal' }));
  return editorArea();
}

describe('editing a write card', () => {
  it('opens the editor on the whole proposal, labelled with the path, and takes focus when asked', async () => {
    const { fake, card } = setup();
    const area = await openEditor();
    expect(fake.requestsOf('card.proposal')).toEqual([{ id: SESSION, cardId: card.cardId }]);
    expect(EditorView.findFromDOM(area)!.state.doc.toString()).toBe(PROPOSAL);
    expect(area).toHaveFocus();
    // Not edited yet: three answers, and nothing asked of the core.
    expect(screen.queryByRole('button', { name: 'Allow with my edits' })).toBeNull();
    expect(fake.requestsOf('card.preview')).toEqual([]);
  });

  it('shows the fourth answer once the text differs, and the diff follows the edits', async () => {
    const { fake, card, region } = setup();
    const area = await openEditor();
    const mine = PROPOSAL.replace('limit = 20', 'limit = 25');
    typeInto(area, mine);
    expect(fake.requestsOf('card.preview')).toEqual([{ id: SESSION, cardId: card.cardId, text: mine }]);
    await within(region).findByText('The file on disk → your version:');
    expect(within(region.querySelector<HTMLElement>('.diff-view')!).getByText('const limit = 25;')).toBeInTheDocument();
    expect(region).toHaveTextContent('The file on disk → your version');
    const edited = screen.getByRole('button', { name: 'Allow with my edits' });
    expect(edited).toHaveAttribute('aria-keyshortcuts', 'E');
    expect(region).toHaveTextContent(
      "You edited the proposal: allow your version once, or deny. To allow the model's proposal as it was, reset to the proposal first.",
    );
    // Nothing else moved: the three answers are still there, in order, after the fourth.
    const names = within(region)
      .getAllByRole('button')
      .filter((b) => b.classList.contains('card-answer'))
      .map((b) => b.getAttribute('aria-keyshortcuts'));
    expect(names).toEqual(['E', 'A', 'S', 'D']);
  });

  it("never drops the person's edits: while the text differs, Allow once and Allow for this session answer nothing", async () => {
    const { fake, region } = setup();
    const area = await openEditor();
    typeInto(area, PROPOSAL.replace('limit = 20', 'limit = 21'));
    await screen.findByRole('button', { name: 'Allow with my edits' });
    await waitOutArming();
    const once = within(region).getByRole('button', { name: /^Allow once/ });
    const session = within(region).getByRole('button', { name: /^Allow for this session/ });
    expect(once).toHaveAttribute('aria-disabled', 'true');
    expect(session).toHaveAttribute('aria-disabled', 'true');
    expect(once).toHaveAccessibleDescription(/reset to the proposal first/);
    await userEvent.click(once);
    await userEvent.click(session);
    for (const key of ['a', 's']) fireEvent.keyDown(region, { key });
    await act(async () => {});
    expect(fake.requestsOf('card.answer')).toEqual([]);
    // Deny still answers.
    fireEvent.keyDown(region, { key: 'd' });
    await act(async () => {});
    expect(fake.requestsOf('card.answer')).toMatchObject([{ answer: 'deny' }]);
  });

  it('keeps the diff layout the person chose when the diff starts following their text', async () => {
    const { region } = setup();
    await userEvent.click(within(region).getByRole('button', { name: 'Line by line' }));
    const area = await openEditor();
    typeInto(area, PROPOSAL.replace('limit = 20', 'limit = 26'));
    await within(region).findByText('The file on disk → your version:');
    expect(within(region).getByRole('button', { name: 'Line by line' })).toHaveAttribute('aria-pressed', 'true');
    expect(region.querySelectorAll('.diff-view-pair')).toHaveLength(0);
  });

  it('allows with the edits from its button, armed 0.5 s after the diff of the latest text', async () => {
    const { fake, card } = setup();
    const area = await openEditor();
    const mine = PROPOSAL.replace('run(limit)', 'run(limit * 2)');
    typeInto(area, mine);
    const edited = await screen.findByRole('button', { name: 'Allow with my edits' });
    await act(async () => {});
    expect(edited).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(edited);
    await act(async () => {});
    expect(fake.requestsOf('card.answer')).toEqual([]);
    await waitOutArming();
    expect(edited).toHaveAttribute('aria-disabled', 'false');
    await userEvent.click(edited);
    expect(fake.requestsOf('card.answer')).toEqual([
      { id: SESSION, cardId: card.cardId, answer: 'allow_once', edited: mine },
    ]);
  });

  it('answers E from the card itself, but no key typed in the editor ever answers', async () => {
    const { fake, card, region } = setup();
    const area = await openEditor();
    const mine = `${PROPOSAL}// sade\n`;
    typeInto(area, mine);
    await screen.findByRole('button', { name: 'Allow with my edits' });
    await waitOutArming();
    for (const key of ['a', 's', 'd', 'e', 'A', 'S', 'D', 'E', 'Enter']) fireEvent.keyDown(area, { key });
    await act(async () => {});
    expect(fake.requestsOf('card.answer')).toEqual([]);
    // Enter is the editor's own key (a new line): the text changed, so the edited answer re-arms.
    const now = EditorView.findFromDOM(area)!.state.doc.toString();
    expect(now).not.toBe(mine);
    await waitOutArming();
    fireEvent.keyDown(region, { key: 'e' });
    await act(async () => {});
    expect(fake.requestsOf('card.answer')).toEqual([
      { id: SESSION, cardId: card.cardId, answer: 'allow_once', edited: now },
    ]);
  });

  it('sends one preview at a time, and the latest text goes next', async () => {
    const { waiting } = setupHeldPreviews({ path: `${WORKSPACE}/src/app.ts`, text: PROPOSAL, bytes: PROPOSAL.length });
    const area = await openEditor();
    typeInto(area, `${PROPOSAL}1`);
    typeInto(area, `${PROPOSAL}12`);
    typeInto(area, `${PROPOSAL}123`);
    expect(waiting.map((w) => w.req.text)).toEqual([`${PROPOSAL}1`]);
    await act(async () => waiting[0]!.done());
    expect(waiting.map((w) => w.req.text)).toEqual([`${PROPOSAL}1`, `${PROPOSAL}123`]);
    // Behind the text, it says so only once that lasts (no blinking on every keystroke).
    expect(screen.queryByText(/updating…/)).toBeNull();
    await act(() => new Promise<void>((resolve) => setTimeout(resolve, 200)));
    expect(screen.getByText(/updating…/)).toBeInTheDocument();
    await act(async () => waiting[1]!.done());
    expect(waiting).toHaveLength(2);
    expect(screen.queryByText(/updating…/)).toBeNull();
    expect(screen.getByText('123')).toBeInTheDocument();
  });

  it('Reset returns to the proposal: its diff, the three answers, and the text in the editor', async () => {
    const { region } = setup();
    const area = await openEditor();
    typeInto(area, PROPOSAL.replace('20', '30'));
    await screen.findByRole('button', { name: 'Allow with my edits' });
    await userEvent.click(screen.getByRole('button', { name: 'Reset to the proposal' }));
    expect(EditorView.findFromDOM(area)!.state.doc.toString()).toBe(PROPOSAL);
    expect(screen.queryByRole('button', { name: 'Allow with my edits' })).toBeNull();
    const diff = region.querySelector<HTMLElement>('.diff-view')!;
    expect(within(diff).getByText('const limit = 20;')).toBeInTheDocument();
    expect(within(diff).getByText('const limit = 10;')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset to the proposal' })).toBeDisabled();
  });

  it('shows a problem with the text and disables the edited answer with that reason', async () => {
    const { fake, region } = setup();
    fake.respond('card.preview', (req) => ({
      ok: true,
      data: previewOf(req.text, { problem: 'the file holds a NUL character, which a text write cannot carry' }),
    }));
    const area = await openEditor();
    typeInto(area, `${PROPOSAL}\u0000`);
    await within(region).findByText(/Your version cannot be written:/);
    expect(region.querySelector('.card-edit-problem')).toHaveTextContent(
      'Your version cannot be written: the file holds a NUL character',
    );
    await waitOutArming();
    const edited = screen.getByRole('button', { name: 'Allow with my edits' });
    expect(edited).toHaveAttribute('aria-disabled', 'true');
    expect(edited).toHaveAccessibleDescription(/Not allowed as it is: the file holds a NUL character/);
    await userEvent.click(edited);
    fireEvent.keyDown(region, { key: 'e' });
    await act(async () => {});
    expect(fake.requestsOf('card.answer')).toEqual([]);
  });

  it('says when the diff cannot be rebuilt, and allows the edits only once it can', async () => {
    const { fake, region } = setup();
    fake.fail('card.preview', 'the edited file is over 262144 characters; writes are limited to 256 KiB');
    const area = await openEditor();
    typeInto(area, `${PROPOSAL}x`);
    expect(await within(region).findByText(/Could not rebuild the diff from your version:/)).toHaveTextContent(
      'writes are limited to 256 KiB',
    );
    await waitOutArming();
    const edited = screen.getByRole('button', { name: 'Allow with my edits' });
    expect(edited).toHaveAttribute('aria-disabled', 'true');
    expect(edited).toHaveAccessibleDescription(
      /Not allowed until the diff of your version can be shown: the edited file is over 262144 characters/,
    );
    fake.respond('card.preview', (req) => ({ ok: true, data: previewOf(req.text) }));
    typeInto(area, `${PROPOSAL}y`);
    await act(async () => {}); // the rebuilt diff arrives; the edited answer arms 0.5 s after it
    await waitOutArming();
    expect(edited).toHaveAttribute('aria-disabled', 'false');
    expect(within(region).queryByText(/Could not rebuild/)).toBeNull();
  });

  it('keeps the edits of a re-asked card in its editor, says so, and shows their diff without taking focus', async () => {
    const mine = PROPOSAL.replace('limit = 20', 'limit = 21');
    const card = cardOf(writeBody(), {
      reasked: {
        previousCardId: 'card-1',
        reason: 'the file changed on disk after the card went up',
        edits: { blob: 'c'.repeat(64), bytes: mine.length },
      },
    });
    const fake = createFakeApi();
    fake.reply('card.proposal', {
      path: `${WORKSPACE}/src/app.ts`,
      text: PROPOSAL,
      bytes: PROPOSAL.length,
      edited: { text: mine, bytes: mine.length },
    });
    fake.respond('card.preview', (req) => ({ ok: true, data: previewOf(req.text) }));
    render(
      <ApiProvider api={fake.api}>
        <textarea aria-label="Message" />
        <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={card} outcome={OPEN} pinned />
      </ApiProvider>,
    );
    screen.getByRole('textbox', { name: 'Message' }).focus();
    const region = screen.getByRole('region', { name: LABEL });
    expect(within(region).getAllByRole('note')[0]).toHaveTextContent(
      /^Your edits are kept; the file changed on disk, this is the diff as it is now\.$/,
    );
    const area = await editorArea();
    expect(EditorView.findFromDOM(area)!.state.doc.toString()).toBe(mine);
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    expect(fake.requestsOf('card.preview')).toEqual([{ id: SESSION, cardId: card.cardId, text: mine }]);
    await within(region).findByText('The file on disk → your version:');
    expect(within(region.querySelector<HTMLElement>('.diff-view')!).getByText('const limit = 21;')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Allow with my edits' })).toBeInTheDocument();
  });

  it('keeps what the person typed when the card is shown again (another tab, then back)', async () => {
    const card = cardOf(writeBody());
    const first = setup(card);
    const area = await openEditor();
    const mine = PROPOSAL.replace('limit = 20', 'limit = 42');
    typeInto(area, mine);
    await screen.findByRole('button', { name: 'Allow with my edits' });
    first.view.unmount();

    const again = setup(card);
    screen.getByRole('textbox', { name: 'Message' }).focus();
    const restored = await editorArea();
    expect(EditorView.findFromDOM(restored)!.state.doc.toString()).toBe(mine);
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    expect(await screen.findByRole('button', { name: 'Allow with my edits' })).toBeInTheDocument();
    expect(again.fake.requestsOf('card.preview')).toEqual([{ id: SESSION, cardId: card.cardId, text: mine }]);
  });

  it('gives back the line endings it was given: CRLF stays CRLF, and a stray CR stays', async () => {
    for (const proposal of ['one\r\ntwo\r\n', 'one\r\ntwo\nthree\rfour\n']) {
      const fake = createFakeApi();
      fake.reply('card.proposal', { path: `${WORKSPACE}/src/app.ts`, text: proposal, bytes: proposal.length });
      fake.respond('card.preview', (req) => ({ ok: true, data: previewOf(req.text) }));
      const view = render(
        <ApiProvider api={fake.api}>
          <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={cardOf(writeBody())} outcome={OPEN} pinned />
        </ApiProvider>,
      );
      const area = await openEditor();
      const editor = EditorView.findFromDOM(area)!;
      expect(editor.state.sliceDoc()).toBe(proposal);
      act(() => editor.dispatch({ changes: { from: 0, insert: 'zero ' } }));
      expect(fake.requestsOf('card.preview').map((r) => r.text)).toEqual([`zero ${proposal}`]);
      view.unmount();
    }
  });

  it('offers no editor on a proposal the core says cannot be edited, and says why', () => {
    const uneditable = 'the proposal holds bytes that are not UTF-8 text, which an editor cannot keep as they are';
    const { region } = setup(cardOf(writeBody({ uneditable })));
    expect(within(region).queryByRole('button', { name: 'Edit the proposal' })).toBeNull();
    expect(within(region).getByText(`This proposal cannot be edited here: ${uneditable}.`)).toBeTruthy();
  });

  it('offers no editor on a read card, nor in the transcript record', () => {
    const fake = createFakeApi();
    render(
      <ApiProvider api={fake.api}>
        <PermissionCard
          sessionId={SESSION}
          workspace={WORKSPACE}
          card={cardOf(writeBody())}
          outcome={OPEN}
          pinned={false}
        />
      </ApiProvider>,
    );
    expect(screen.queryByRole('button', { name: 'Edit the proposal' })).toBeNull();
  });
});

describe("the diff built in the window, from the card's other side", () => {
  const BEFORE = 'import { run } from "./run";\nconst limit = 10;\n\nrun(limit);\n';

  function setupWithBase(before: string, proposal = PROPOSAL) {
    const path = `${WORKSPACE}/src/app.ts`;
    return setupHeldPreviews({ path, text: proposal, bytes: proposal.length, diffBase: { path, before } });
  }

  it('shows the diff of each keystroke at once, asking nothing of the core, and allows that text', async () => {
    const { fake, region } = setupWithBase(BEFORE);
    const area = await openEditor();
    const mine = PROPOSAL.replace('limit = 20', 'limit = 25');
    typeInto(area, mine);
    // In the same update as the keystroke: no round trip to wait for.
    const diff = region.querySelector<HTMLElement>('.diff-view')!;
    expect(within(diff).getByText('const limit = 25;')).toBeInTheDocument();
    expect(within(diff).getByText('const limit = 10;')).toBeInTheDocument();
    expect(fake.requestsOf('card.preview')).toEqual([]);

    await waitOutArming();
    await userEvent.click(screen.getByRole('button', { name: 'Allow with my edits' }));
    expect(fake.requestsOf('card.answer')).toMatchObject([{ id: SESSION, answer: 'allow_once', edited: mine }]);
  });

  it('says at once what blocks the text, as the core would', async () => {
    const { region } = setupWithBase(BEFORE);
    const area = await openEditor();
    typeInto(area, `${PROPOSAL}\0`);
    expect(within(region).getByText(/Your version cannot be written:/).parentElement).toHaveTextContent(
      `your version contains a NUL character (at byte ${PROPOSAL.length}); only text is written`,
    );
  });

  it('sends the core only a text too scattered to diff at once, and its slower reply never replaces a newer diff', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const shuffled = () => Array.from({ length: 3000 }, () => ['a\n', 'b\n', '\n'][Math.floor(random() * 3)]).join('');
    const before = shuffled();
    const { waiting, region } = setupWithBase(before, `${before}proposed\n`);
    const area = await openEditor();

    const scattered = shuffled();
    typeInto(area, scattered);
    expect(waiting.map((w) => w.req.text)).toEqual([scattered]);
    // The next keystroke diffs at once in the window...
    typeInto(area, `${before}mine\n`);
    expect(within(region.querySelector<HTMLElement>('.diff-view')!).getByText('mine')).toBeInTheDocument();
    // ...and the core's answer for the older text, arriving later, is not shown over it.
    await act(async () => waiting[0]!.done());
    expect(waiting).toHaveLength(1);
    expect(within(region.querySelector<HTMLElement>('.diff-view')!).getByText('mine')).toBeInTheDocument();
    expect(screen.queryByText(/updating…/)).toBeNull();
  });
});
