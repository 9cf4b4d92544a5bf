import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Composer } from '../../../../../renderer/src/components/composer/Composer';
import { question, renderFrame, seedSession, started, writeCard } from '../../render-frame';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { memoryStorage } from '../../render-frame';

function composerFor(payloads: Parameters<typeof seedSession>[2]) {
  const store = createAppStore(memoryStorage());
  seedSession(store, { id: 's' }, payloads);
  return renderFrame(<Composer sessionId="s" />, { store });
}

const field = () => screen.getByRole('textbox', { name: 'Message' });
const sendButton = () => screen.getByRole('button', { name: 'Send' });
const cancelButton = () => screen.getByRole('button', { name: 'Cancel' });

describe('the composer', () => {
  it('when idle, sends on Enter and clears the field', async () => {
    const { fake } = composerFor([]);
    await userEvent.type(field(), 'fix the tests{Enter}');
    expect(fake.requestsOf('session.send')).toEqual([{ id: 's', text: 'fix the tests' }]);
    await waitFor(() => expect(field()).toHaveValue(''));
    expect(cancelButton()).toBeDisabled();
  });

  it('Shift+Enter starts a new line and sends nothing', async () => {
    const { fake } = composerFor([]);
    await userEvent.type(field(), 'one{Shift>}{Enter}{/Shift}two');
    expect(field()).toHaveValue('one\ntwo');
    expect(fake.requestsOf('session.send')).toEqual([]);
  });

  it('shows an error from send plainly and keeps the text', async () => {
    const { fake } = composerFor([]);
    fake.fail('session.send', 'no model is set: open Settings');
    await userEvent.type(field(), 'hello{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Not sent: no model is set: open Settings');
    expect(field()).toHaveValue('hello');
  });

  it('while a turn runs, says sending queues, lists queued messages and removes one through session.unqueue', async () => {
    const { fake } = composerFor([...started(), { type: 'queued', messageId: 'q1', text: 'and then the docs' }]);
    expect(screen.getByText(/what you send now waits in the queue/)).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Queued messages' })).toHaveTextContent('and then the docs');
    expect(cancelButton()).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: /Remove queued message: and then the docs/ }));
    expect(fake.requestsOf('session.unqueue')).toEqual([{ id: 's', messageId: 'q1' }]);
  });

  it('is blocked by an open permission card, says why, and Enter sends nothing', async () => {
    const { fake } = composerFor([...started(), writeCard('k1', '/home/me/src/project/a.ts')]);
    expect(screen.getByText('Answer the permission card above first')).toBeInTheDocument();
    expect(field()).toHaveAccessibleDescription('Answer the permission card above first');
    await userEvent.type(field(), 'ok{Enter}');
    expect(sendButton()).toBeDisabled();
    expect(fake.requestsOf('session.send')).toEqual([]);
    expect(fake.requestsOf('card.answer')).toEqual([]);
  });

  it('is blocked by an open question and says why', () => {
    composerFor([...started(), question('q1', 'Which branch?')]);
    expect(screen.getByText('Answer the question above first')).toBeInTheDocument();
    expect(sendButton()).toBeDisabled();
  });

  it('takes back messages a cancel returned into its text, once, and calls session.takeReturned', async () => {
    const view = composerFor([
      ...started(),
      { type: 'queued', messageId: 'q1', text: 'first later' },
      { type: 'queued', messageId: 'q2', text: 'second later' },
      { type: 'queue_returned', messageIds: ['q1', 'q2'] },
    ]);
    const { fake, store } = view;
    await waitFor(() => expect(field()).toHaveValue('first later\n\nsecond later'));
    expect(fake.requestsOf('session.takeReturned')).toEqual([{ id: 's' }]);
    store.getState().setDraft('other', 'x'); // a store change re-renders the composer
    expect(fake.requestsOf('session.takeReturned')).toHaveLength(1);
    expect(field()).toHaveValue('first later\n\nsecond later');
    view.unmount(); // a tab switch remounts the composer: the messages are not put back twice
    renderFrame(<Composer sessionId="s" />, { store, fake });
    expect(field()).toHaveValue('first later\n\nsecond later');
    expect(fake.requestsOf('session.takeReturned')).toHaveLength(1);
  });

  it('Cancel cancels the turn', async () => {
    const { fake } = composerFor(started());
    await userEvent.click(cancelButton());
    expect(fake.requestsOf('session.cancel')).toEqual([{ id: 's' }]);
  });
});
