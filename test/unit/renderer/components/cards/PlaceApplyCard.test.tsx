/**
 * The model's proposal to apply its place's change into the person's folder (SPEC §15), as a
 * card: the files with their change and state, a conflict named as never written, the commit's
 * exact commands and message, the folder it writes into, and only Allow once and Deny, by
 * button and by key.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PlaceApplyCardBody } from '../../../../../shared/cards';
import type { CardEvent, CardOutcome } from '../../../../../shared/reducer';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { PermissionCard } from '../../../../../renderer/src/components/cards/PermissionCard';
import { createAppStore, StoreProvider } from '../../../../../renderer/src/store/app-store';
import { createFakeApi, type FakeApi } from '../../fake-api';
import { stubLayout } from '../layout-stub';
import { SESSION, WORKSPACE, cardOf, placeApplyBody } from './card-fixtures';

stubLayout();

const body = (overrides: Partial<PlaceApplyCardBody> = {}) => placeApplyBody(overrides) as PlaceApplyCardBody;

function renderCard(card: CardEvent, fake: FakeApi = createFakeApi(), outcome: CardOutcome = { state: 'open' }) {
  render(
    <ApiProvider api={fake.api}>
      <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={card} outcome={outcome} pinned />
    </ApiProvider>,
  );
  return screen.getByRole('region', { name: /^Permission: apply/ });
}

afterEach(() => vi.useRealTimers());

describe("a proposal to apply a place's change", () => {
  it('lists every file with its change and its state against your folder', () => {
    const region = renderCard(cardOf(body()));
    const rows = within(within(region).getByRole('list', { name: 'Files it applies' })).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      'modifiedsrc/parser.tsReady to apply',
      'addedsrc/parser.test.tsReady to apply',
      'modifiedREADME.md⚠ Conflict: you changed it too',
      'deletedsrc/old-lexer.tsReady to apply',
    ]);
    expect(region).toHaveTextContent('1 file conflicts with a change you made: never written.');
  });

  it('says the folder it writes into', () => {
    const region = renderCard(cardOf(body()));
    expect(region.querySelector('.card-subject')).toHaveTextContent(`Apply as a commit writes into ${WORKSPACE}`);
  });

  it('shows a commit’s branch, its message and each git command as tokens', () => {
    const region = renderCard(cardOf(body()));
    expect(region).toHaveTextContent('Then one commit on your branch main, with the message:');
    expect(region.querySelector('.place-apply-message')).toHaveTextContent('Parse numbers with exponents');
    const commands = within(within(region).getByRole('list', { name: 'The git commands' })).getAllByRole('list', {
      name: 'Command and arguments',
    });
    expect(commands).toHaveLength(7);
    expect(commands[4]).toHaveTextContent('commit-tree');
  });

  it('as files shows no commit', () => {
    const files = body({ as: 'files' });
    delete files.commit;
    delete files.message;
    const region = renderCard(cardOf(files));
    expect(region.querySelector('.card-subject')).toHaveTextContent(`Apply as files writes into ${WORKSPACE}`);
    expect(within(region).queryByRole('list', { name: 'The git commands' })).toBeNull();
  });

  it('marks invisible characters in a path', () => {
    const region = renderCard(cardOf(body({ files: [{ path: 'a\u202eb.ts', change: 'added', status: 'ready' }] })));
    expect(region.querySelector('.place-apply-path .visible-mark')).not.toBeNull();
  });

  it('offers Allow once and Deny, never Allow for this session, and says why', () => {
    const card = cardOf(body());
    const region = renderCard(card);
    expect(within(region).getByRole('button', { name: /^Allow once/ })).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: /^Deny/ })).toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: /^Allow for this session/ })).toBeNull();
    expect(region).toHaveTextContent(card.scope);
    expect(card.scope).toMatch(/asked every time: it cannot be allowed for the session/);
  });

  it('takes A and D from its keys, and S does nothing', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fake = createFakeApi();
    const card = cardOf(body());
    const region = renderCard(card, fake);
    act(() => void vi.advanceTimersByTime(500));
    expect(region).toHaveTextContent('With the card focused: A allow once, D deny.');
    fireEvent.keyDown(region, { key: 's' });
    expect(fake.requestsOf('card.answer')).toEqual([]);
    fireEvent.keyDown(region, { key: 'a' });
    expect(fake.requestsOf('card.answer')).toEqual([{ id: SESSION, cardId: card.cardId, answer: 'allow_once' }]);
  });

  it('opens the review, where each file’s diff is, from the open card (and only there)', async () => {
    const store = createAppStore(window.localStorage);
    render(
      <ApiProvider api={createFakeApi().api}>
        <StoreProvider store={store}>
          <PermissionCard
            sessionId={SESSION}
            workspace={WORKSPACE}
            card={cardOf(body())}
            outcome={{ state: 'open' }}
            pinned
          />
        </StoreProvider>
      </ApiProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Read each file’s diff in the review…' }));
    expect(store.getState().dialog).toBe('review');
  });

  it('reads in the record as one line: what it applied, and where', () => {
    const { container } = render(
      <ApiProvider api={createFakeApi().api}>
        <PermissionCard
          sessionId={SESSION}
          workspace={WORKSPACE}
          card={cardOf(body({ as: 'files' }))}
          outcome={{ state: 'answered', answer: 'allow_once' }}
          pinned={false}
        />
      </ApiProvider>,
    );
    const line = within(container).getByRole('button', { expanded: false });
    expect(line).toHaveTextContent(`apply 4 files into ${WORKSPACE}`);
    expect(line).toHaveTextContent('Allowed once');
  });
});
