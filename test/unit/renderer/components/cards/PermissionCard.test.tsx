import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CardEvent, CardOutcome } from '../../../../../shared/reducer';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { PermissionCard } from '../../../../../renderer/src/components/cards/PermissionCard';
import { createFakeApi, type FakeApi } from '../../fake-api';
import { stubLayout } from '../layout-stub';
import { SESSION, WORKSPACE, cardOf, commandBody, readBody, writeBody } from './card-fixtures';

stubLayout();

const OPEN: CardOutcome = { state: 'open' };

function renderCard(fake: FakeApi, card: CardEvent, outcome: CardOutcome = OPEN, pinned = true) {
  return render(
    <ApiProvider api={fake.api}>
      <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={card} outcome={outcome} pinned={pinned} />
    </ApiProvider>,
  );
}

describe('a write card', () => {
  it('names the file relative to the workspace, absolute on hover, with sizes, marker and the diff', () => {
    renderCard(createFakeApi(), cardOf(writeBody()));
    const card = screen.getByRole('region', { name: 'Permission: write src/app.ts' });
    expect(within(card).getByTitle(`${WORKSPACE}/src/app.ts`)).toHaveTextContent('src/app.ts');
    expect(card).toHaveTextContent('1.0 KiB → 1.1 KiB');
    expect(card).toHaveTextContent('inside the workspace');
    expect(card).toHaveTextContent('const limit = 20;');
    expect(card).toHaveTextContent('const limit = 10;');
    const prefixes = [...card.querySelectorAll('.diff-view-prefix')].map((p) => p.textContent);
    expect(prefixes).toContain('+');
    expect(prefixes).toContain('-');
  });

  it('says "new file" for a file that does not exist yet', () => {
    renderCard(createFakeApi(), cardOf(writeBody({ creates: true, beforeBytes: null, proposalBytes: 300 })));
    const card = screen.getByRole('region', { name: 'Permission: write src/app.ts' });
    expect(within(card).getAllByText(/new file/).length).toBeGreaterThan(0);
    expect(card).toHaveTextContent('new file, 300 bytes');
  });

  it('says loudly when the write lands outside the workspace', () => {
    renderCard(createFakeApi(), cardOf(writeBody({ path: '/home/me/.bashrc', inside: false })));
    const card = screen.getByRole('region', { name: 'Permission: write /home/me/.bashrc' });
    expect(within(card).getByRole('note')).toHaveTextContent('OUTSIDE the workspace: /home/me/.bashrc');
  });

  it('shows the diff note when the core gives one', () => {
    renderCard(createFakeApi(), cardOf(writeBody({ diffNote: 'Line endings change from CRLF to LF.' })));
    expect(screen.getByText('Line endings change from CRLF to LF.')).toBeInTheDocument();
  });

  it('shows a <script> in the file as text, never as an element', () => {
    const diff =
      '--- a/x.html\n+++ b/x.html\n@@ -1 +1 @@\n-<p>hi</p>\n+<script>alert(1)</script><img src=x onerror=alert(2)>\n';
    const { container } = renderCard(createFakeApi(), cardOf(writeBody({ diff })));
    expect(screen.getAllByText(/<script>alert\(1\)<\/script><img src=x onerror=alert\(2\)>/).length).toBeGreaterThan(0);
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
  });

  it('says a truncated diff is truncated and loads the whole proposal through the api', async () => {
    const fake = createFakeApi();
    fake.reply('card.proposal', { path: `${WORKSPACE}/src/app.ts`, text: 'line one\n<b>not bold</b>\n', bytes: 25 });
    const card = cardOf(writeBody({ diffTruncated: true, diffBytes: 1_048_576 }));
    renderCard(fake, card);
    expect(screen.getByText(/showing the first 400 lines; the whole change is 1,048,576 bytes/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show the whole proposal' }));
    expect(fake.requestsOf('card.proposal')).toEqual([{ id: SESSION, cardId: card.cardId }]);
    const whole = await screen.findByLabelText('Whole proposed file');
    expect(whole.textContent).toBe('line one\n<b>not bold</b>\n');
    expect(whole.querySelector('b')).toBeNull();
    expect(screen.getByText(/showing the first 400 lines/)).toBeInTheDocument();
  });

  it('says plainly when the whole proposal cannot be loaded', async () => {
    const fake = createFakeApi();
    fake.fail('card.proposal', 'the blob is gone');
    renderCard(fake, cardOf(writeBody({ diffTruncated: true, diffBytes: 70_000 })));
    await userEvent.click(screen.getByRole('button', { name: 'Show the whole proposal' }));
    expect(await screen.findByText(/Could not load the whole proposal: the blob is gone/)).toBeInTheDocument();
  });

  it('says at its top why it asks again, once, when the reason only repeats that the file changed', () => {
    renderCard(
      createFakeApi(),
      cardOf(writeBody(), {
        reasked: { previousCardId: 'card-1', reason: 'the file changed on disk after the card went up' },
      }),
    );
    const card = screen.getByRole('region', { name: 'Permission: write src/app.ts' });
    const note = within(card).getAllByRole('note')[0];
    expect(note).toHaveTextContent(/^The file changed after the last card; this is the diff as it is now\.$/);
    expect(card.firstElementChild).toBe(note);
  });

  it('adds the reason when it says more than that the file changed', () => {
    renderCard(
      createFakeApi(),
      cardOf(writeBody(), {
        reasked: { previousCardId: 'card-1', reason: 'after the restart: the file was deleted after the card went up' },
      }),
    );
    const note = within(screen.getByRole('region', { name: 'Permission: write src/app.ts' })).getAllByRole('note')[0];
    expect(note).toHaveTextContent(
      'The file changed after the last card; this is the diff as it is now. after the restart: the file was deleted after the card went up',
    );
  });

  it('switches between side by side and line by line', async () => {
    const { container } = renderCard(createFakeApi(), cardOf(writeBody()));
    expect(container.querySelectorAll('.diff-view-pair').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Line by line' }));
    expect(screen.getByRole('button', { name: 'Line by line' })).toHaveAttribute('aria-pressed', 'true');
    expect(container.querySelectorAll('.diff-view-pair')).toHaveLength(0);
    expect(container.querySelectorAll('.diff-view-line.d2h-ins')).toHaveLength(1);
  });
});

describe('a command card', () => {
  it('shows the argv as tokens, the folder relative to the workspace, and the timeout', () => {
    renderCard(
      createFakeApi(),
      cardOf(commandBody(['npm', 'run', 'test'], { cwd: `${WORKSPACE}/web`, timeoutS: 600 })),
    );
    const card = screen.getByRole('region', { name: 'Permission: run npm…' });
    const tokens = within(card)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(tokens).toEqual(['npm', 'run', 'test']);
    expect(within(card).getByTitle(`${WORKSPACE}/web`)).toHaveTextContent('web');
    expect(card).toHaveTextContent('timeout: 600 s');
  });
});

describe('a read card', () => {
  it('shows the absolute path, the tool, and that it is outside the workspace', () => {
    renderCard(createFakeApi(), cardOf(readBody({ tool: 'grep', path: '/etc' })));
    const card = screen.getByRole('region', { name: 'Permission: read /etc' });
    expect(card).toHaveTextContent('OUTSIDE the workspace');
    expect(card).toHaveTextContent('grep');
    expect(card).toHaveTextContent('/etc');
  });
});

describe('every open card', () => {
  it('puts the scope in words next to "Allow for this session"', () => {
    const card = cardOf(commandBody(['make']));
    renderCard(createFakeApi(), card);
    const button = screen.getByRole('button', { name: 'Allow for this session' });
    expect(button).toHaveAccessibleDescription(card.scope);
    expect(button.parentElement).toHaveTextContent(card.scope);
  });

  it('has exactly the three agreed buttons', () => {
    renderCard(createFakeApi(), cardOf(readBody()));
    const names = screen.getAllByRole('button').map((b) => b.textContent?.replace(/[ASD]$/, ''));
    expect(names).toEqual(['Allow once', 'Allow for this session', 'Deny']);
  });

  it('is focusable but does not take focus when it appears', () => {
    render(<textarea aria-label="Message" />);
    screen.getByRole('textbox', { name: 'Message' }).focus();
    renderCard(createFakeApi(), cardOf(readBody()));
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    expect(screen.getByRole('region', { name: 'Permission: read /etc/hosts' })).toHaveAttribute('tabindex', '0');
  });

  it('shows a failed answer plainly on the card', async () => {
    const fake = createFakeApi();
    fake.fail('card.answer', 'card card-9 is not open');
    renderCard(fake, cardOf(readBody()));
    await act(() => new Promise((resolve) => setTimeout(resolve, 550)));
    await userEvent.click(screen.getByRole('button', { name: 'Deny' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The answer did not go through: card card-9 is not open',
    );
  });
});

describe('no answer by accident', () => {
  let fake: FakeApi;

  beforeEach(() => {
    fake = createFakeApi();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  // Testing Library's async helpers wait on real timers, so the tests that drive the arming
  // with fake timers use fireEvent; the ones that need user-event's keyboard wait it out.
  const fakeArmingClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const arm = () => act(() => void vi.advanceTimersByTime(500));
  const waitOutArming = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 550)));
  const settle = () => act(async () => {});

  it('keeps every answer inert, and visibly so, for 0.5 s after the card appears', async () => {
    fakeArmingClock();
    const card = cardOf(writeBody());
    renderCard(fake, card);
    const once = screen.getByRole('button', { name: 'Allow once' });
    expect(once).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(once);
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    act(() => void vi.advanceTimersByTime(450));
    fireEvent.click(screen.getByRole('button', { name: 'Allow for this session' }));
    await settle();
    expect(fake.requestsOf('card.answer')).toEqual([]);
    expect(screen.getByText('Arming…')).toBeInTheDocument();

    act(() => void vi.advanceTimersByTime(50));
    expect(once).toHaveAttribute('aria-disabled', 'false');
    fireEvent.click(once);
    await settle();
    expect(fake.requestsOf('card.answer')).toEqual([{ id: SESSION, cardId: card.cardId, answer: 'allow_once' }]);
  });

  it('disarms again when the card changes to a new card', async () => {
    fakeArmingClock();
    const first = cardOf(readBody());
    const { rerender } = renderCard(fake, first);
    arm();
    const second = cardOf(readBody({ path: '/etc/passwd' }));
    rerender(
      <ApiProvider api={fake.api}>
        <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={second} outcome={OPEN} pinned />
      </ApiProvider>,
    );
    const deny = screen.getByRole('button', { name: 'Deny' });
    expect(deny).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(deny);
    await settle();
    expect(fake.requestsOf('card.answer')).toEqual([]);
    arm();
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    await settle();
    expect(fake.requestsOf('card.answer')).toEqual([{ id: SESSION, cardId: second.cardId, answer: 'deny' }]);
  });

  it('answers A, S and D only from the card itself, and only once armed', async () => {
    fakeArmingClock();
    const card = cardOf(commandBody(['ls']));
    render(<textarea aria-label="Message" />);
    renderCard(fake, card);
    const region = screen.getByRole('region', { name: 'Permission: run ls…' });
    fireEvent.keyDown(region, { key: 's' });
    await settle();
    expect(fake.requestsOf('card.answer')).toEqual([]);
    arm();
    fireEvent.keyDown(document.body, { key: 'a' });
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Message' }), { key: 'd' });
    fireEvent.keyDown(region, { key: 's', ctrlKey: true });
    await settle();
    expect(fake.requestsOf('card.answer')).toEqual([]);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Deny' }), { key: 'S' });
    await settle();
    expect(fake.requestsOf('card.answer')).toEqual([{ id: SESSION, cardId: card.cardId, answer: 'allow_session' }]);
  });

  it('never allows on Enter, on the card or on a focused Allow button', async () => {
    renderCard(fake, cardOf(commandBody(['rm', '-rf', 'build'])));
    await waitOutArming();
    const user = userEvent.setup();
    screen.getByRole('region', { name: 'Permission: run rm…' }).focus();
    await user.keyboard('{Enter}');
    screen.getByRole('button', { name: 'Allow once' }).focus();
    await user.keyboard('{Enter}');
    screen.getByRole('button', { name: 'Allow for this session' }).focus();
    await user.keyboard('{Enter}');
    expect(fake.requestsOf('card.answer')).toEqual([]);
    // The same focused button does answer to a deliberate key of the card's own.
    await user.keyboard('a');
    expect(fake.requestsOf('card.answer')).toHaveLength(1);
  });

  it('never answers from typing in the composer beside it', async () => {
    render(
      <ApiProvider api={fake.api}>
        <textarea aria-label="Message" />
        <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={cardOf(writeBody())} outcome={OPEN} pinned />
      </ApiProvider>,
    );
    await waitOutArming();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'asd\nASD{Enter}');
    expect(fake.requestsOf('card.answer')).toEqual([]);
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('asd\nASD\n');
  });

  it('sends one answer only, even when clicked twice', async () => {
    renderCard(fake, cardOf(readBody()));
    await waitOutArming();
    await userEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    await userEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    expect(fake.requestsOf('card.answer')).toHaveLength(1);
    expect(screen.getByText('Answer sent; waiting for the agent.')).toBeInTheDocument();
  });
});

describe('a card in the transcript record', () => {
  const record = (outcome: CardOutcome, card = cardOf(writeBody())) => {
    const { container } = renderCard(createFakeApi(), card, outcome, false);
    return within(container).getByRole('button', { expanded: false });
  };

  it('says an open card is waiting above the composer, with no answer buttons', () => {
    expect(record(OPEN)).toHaveTextContent('waiting — answer the card above the composer');
    expect(screen.queryByRole('button', { name: 'Allow once' })).toBeNull();
  });

  it.each([
    [{ state: 'answered', answer: 'allow_once' } as const, 'Allowed once'],
    [{ state: 'answered', answer: 'allow_session' } as const, 'Allowed for this session'],
    [{ state: 'answered', answer: 'deny' } as const, 'Denied'],
    [
      { state: 'stale', answer: 'allow_once', reason: 'the digest changed' } as const,
      'Dropped: file changed (the digest changed)',
    ],
    [{ state: 'withdrawn', reason: 'the turn ended (cancelled)' } as const, 'Withdrawn (the turn ended (cancelled))'],
  ])('says what happened: %o', (outcome, words) => {
    const line = record(outcome);
    expect(line).toHaveTextContent(words);
    expect(line).toHaveTextContent('write src/app.ts');
  });

  it('opens to show what was asked, without buttons', async () => {
    await userEvent.click(record({ state: 'answered', answer: 'deny' }));
    expect(screen.getByText('const limit = 20;')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Deny' })).toBeNull();
  });
});
