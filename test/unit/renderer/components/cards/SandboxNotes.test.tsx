/** UI.md card rule 7: a command card says what an allowed command can reach. */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CommandCardBody, CommandSandbox } from '../../../../../shared/cards';
import type { CardEvent, CardOutcome } from '../../../../../shared/reducer';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { PermissionCard } from '../../../../../renderer/src/components/cards/PermissionCard';
import { createAppStore, StoreProvider } from '../../../../../renderer/src/store/app-store';
import { createFakeApi, SETTINGS_NONE } from '../../fake-api';
import { stubLayout } from '../layout-stub';
import { SESSION, WORKSPACE, cardOf, commandBody } from './card-fixtures';

stubLayout();

const CONFINED: CommandSandbox = {
  confined: true,
  network: false,
  writable: [WORKSPACE],
  readOnly: [`${WORKSPACE}/.git/hooks`],
  hidden: ['/home/me/.ssh', '/home/me/.aws', '/home/me/.gnupg', '/home/me/.kube'],
};
const CONFINED_LINE =
  'Confined: writes only in /home/me/src/project (not .git/hooks); no network; cannot see /home/me/.ssh, /home/me/.aws, /home/me/.gnupg and 1 more';
const ALLOWED: CardOutcome = { state: 'answered', answer: 'allow_once' };

function body(overrides: Partial<CommandCardBody>): CommandCardBody {
  return commandBody(['npm', 'test'], overrides) as CommandCardBody;
}

function renderCard(card: CardEvent, outcome: CardOutcome = { state: 'open' }, pinned = true) {
  return render(
    <ApiProvider api={createFakeApi().api}>
      <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={card} outcome={outcome} pinned={pinned} />
    </ApiProvider>,
  );
}

const openCard = () => screen.getByRole('region', { name: 'Permission: run npm…' });
const notesIn = (el: HTMLElement) =>
  within(el)
    .queryAllByRole('note')
    .map((n) => n.textContent);

describe('an open command card says what the command can reach', () => {
  it('confined: one quiet line under the argv and cwd, and no warning', () => {
    renderCard(cardOf(body({ sandbox: CONFINED })));
    const card = openCard();
    const line = within(card)
      .getByText(/^Confined:/)
      .closest('p')!;
    expect(line).toHaveTextContent(CONFINED_LINE);
    expect(line).toHaveClass('card-sandbox');
    expect(line.compareDocumentPosition(within(card).getByText('(the workspace folder)'))).toBe(
      Node.DOCUMENT_POSITION_PRECEDING,
    );
    expect(notesIn(card)).toEqual([]);
  });

  it('unconfined where no sandbox runs: the reason is a warning before the buttons', () => {
    renderCard(cardOf(body({ sandbox: { confined: false, reason: 'bubblewrap (bwrap) is not installed' } })));
    const card = openCard();
    expect(notesIn(card)).toEqual(['⚠Unconfined: bubblewrap (bwrap) is not installed']);
    expect(within(card).queryByText(/^Confined:/)).toBeNull();
    const note = within(card).getByRole('note');
    const allow = within(card).getByRole('button', { name: 'Allow once' });
    expect(note.compareDocumentPosition(allow)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    // Outside the scrolling content, so a long argv cannot push it out of view.
    expect(note.closest('.card-scroll')).toBeNull();
  });

  it('a call that asks for network gets a warning, and the line says "with network"', () => {
    renderCard(cardOf(body({ network: true, sandbox: { ...CONFINED, network: true } })));
    const card = openCard();
    expect(notesIn(card)).toEqual(['⚠Warning: this command asks for network (any domain)']);
    expect(
      within(card)
        .getByText(/^Confined:/)
        .closest('p'),
    ).toHaveTextContent('with network');
  });

  it('a call that asks to run unconfined gets both the reason and the warning', () => {
    renderCard(
      cardOf(
        body({ unconfined: true, sandbox: { confined: false, reason: 'the call asked to run without the sandbox' } }),
      ),
    );
    expect(notesIn(openCard())).toEqual([
      '⚠Unconfined: the call asked to run without the sandbox',
      '⚠Warning: this command asks to run unconfined',
    ]);
  });

  it('a card from before commands were confined says it was unconfined, and keeps its name and buttons', () => {
    renderCard(cardOf(body({})));
    const card = openCard();
    expect(notesIn(card)).toEqual(['⚠Unconfined: this card is from before commands were confined']);
    const names = within(card)
      .getAllByRole('button')
      .map((b) => b.textContent?.replace(/[ASD]$/, ''));
    expect(names).toEqual(['Allow once', 'Allow for this session', 'Deny']);
  });

  it('shows an invisible character in a reason as a mark, as text', () => {
    const { container } = renderCard(
      cardOf(body({ sandbox: { confined: false, reason: 'bwrap said <b>no</b>\u202e here' } })),
    );
    expect(container.querySelector('b')).toBeNull();
    expect(within(openCard()).getByRole('note')).toHaveTextContent('<b>no</b>');
    expect(container.querySelector('.visible-mark')).not.toBeNull();
  });
});

describe("a command card's record in the transcript", () => {
  it('keeps the confined line, compact, under the answered line', async () => {
    const { container } = renderCard(cardOf(body({ sandbox: CONFINED })), ALLOWED, false);
    const line = container.querySelector('.card-record-sandbox')!;
    expect(line).toHaveTextContent(CONFINED_LINE);
    expect(line).not.toHaveClass('card-record-sandbox-warning');
    // Opened, the details show the argv without saying the sandbox a second time.
    await userEvent.click(within(container).getByRole('button', { expanded: false }));
    expect(within(container).getAllByText(/^Confined:/)).toHaveLength(1);
  });

  it('says unconfined and the warnings in the same line, marked', () => {
    const { container } = renderCard(
      cardOf(body({ network: true, unconfined: true, sandbox: { confined: false, reason: 'asked' } })),
      { state: 'answered', answer: 'deny' },
      false,
    );
    const line = container.querySelector('.card-record-sandbox')!;
    expect(line.textContent).toBe('⚠ Unconfined: asked · asks for network (any domain) · asks to run unconfined');
    expect(line).toHaveClass('card-record-sandbox-warning');
  });

  it('says nothing of the sandbox while the card is still open above the composer', () => {
    const { container } = renderCard(cardOf(body({ sandbox: CONFINED })), { state: 'open' }, false);
    expect(container.querySelector('.card-record-sandbox')).toBeNull();
  });
});

describe('paths under the home folder', () => {
  it('are shown as ~ once the app has said where home is', () => {
    const store = createAppStore(undefined);
    store.getState().setSettings({ ...SETTINGS_NONE, home: '/home/me' });
    render(
      <StoreProvider store={store}>
        <ApiProvider api={createFakeApi().api}>
          <PermissionCard
            sessionId={SESSION}
            workspace={WORKSPACE}
            card={cardOf(body({ sandbox: CONFINED }))}
            outcome={{ state: 'open' }}
            pinned
          />
        </ApiProvider>
      </StoreProvider>,
    );
    expect(
      within(screen.getByRole('region', { name: 'Permission: run npm…' })).getByText(/writes only in ~\/src\/project/),
    ).toBeInTheDocument();
    expect(screen.getByText(/cannot see ~\/\.ssh, ~\/\.aws, ~\/\.gnupg and 1 more/)).toBeInTheDocument();
  });
});
