import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Reply } from '../../../../../shared/contract';
import { App } from '../../../../../renderer/src/App';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { createFakeApi } from '../../fake-api';
import { memoryStorage, renderFrame, seedSession, started } from '../../render-frame';
import { part, preview, usage } from './context-fixtures';

/** The app with session "a" open and running a turn; the fake answers session.context with `answer`. */
function appWithSession(answer = preview()) {
  const store = createAppStore(memoryStorage());
  seedSession(store, { id: 'a', title: 'api' }, [...started(), usage()]);
  store.getState().openTab('a');
  const fake = createFakeApi();
  fake.reply('session.context', answer);
  return renderFrame(<App />, { store, fake });
}

const openWithKeys = () => userEvent.keyboard('{Control>}{Shift>}m{/Shift}{/Control}');
const dialog = () => screen.getByRole('dialog', { name: 'What the model sees' });
const rows = () => within(screen.getByRole('list', { name: 'Parts of the next request' })).getAllByRole('listitem');

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('What the model sees', () => {
  it('opens with Ctrl+Shift+M and shows the model, the estimate and the calibration', async () => {
    const { fake } = appWithSession();
    await openWithKeys();
    expect(dialog()).toBeInTheDocument();
    expect(fake.requestsOf('session.context')).toEqual([{ id: 'a' }]);
    expect(await within(dialog()).findByText('anthropic:claude-sonnet-4-5')).toBeInTheDocument();
    expect(dialog()).toHaveTextContent('≈ 61,234 of 168,000 tokens for input; 32,000 kept for the reply');
    expect(dialog()).toHaveTextContent(
      "Counted at the provider's own rate for this session: about 3.6 bytes per token.",
    );
  });

  it('opens from the meter too', async () => {
    appWithSession();
    await userEvent.click(screen.getByRole('button', { name: /^Context:/ }));
    expect(dialog()).toBeInTheDocument();
  });

  it('lists the parts in order with role, tokens, the masked and cache-breakpoint marks and the seq range', async () => {
    appWithSession();
    await openWithKeys();
    await waitFor(() => expect(rows()).toHaveLength(5));
    const [system, tool, user, masked, assistant] = rows().map((row) => within(row).getByRole('button'));
    expect(system).toHaveTextContent('system promptsystem');
    expect(system).toHaveTextContent('≈ 1,200 tokens');
    expect(tool).toHaveTextContent('read_filetool definition');
    expect(tool).toHaveTextContent('cache breakpoint');
    expect(user).toHaveTextContent('event 1');
    expect(user).not.toHaveTextContent('masked');
    expect(masked).toHaveTextContent('read_file resulttoolmasked');
    expect(masked).toHaveTextContent('events 3–4');
    expect(assistant).toHaveTextContent('cache breakpoint');
    expect(rows().filter((row) => within(row).queryByText('cache breakpoint'))).toHaveLength(2);
  });

  it('opens a part to its text, as text even when it looks like markup', async () => {
    appWithSession(
      preview({ parts: [part({ label: 'read_file result', role: 'tool', text: '<script>alert(1)</script>' })] }),
    );
    await openWithKeys();
    const row = await screen.findByRole('button', { name: /read_file result/ });
    expect(row).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(row);
    expect(row).toHaveAttribute('aria-expanded', 'true');
    const text = screen.getByText('<script>alert(1)</script>');
    expect(text.tagName).toBe('PRE');
    expect(dialog().querySelector('script')).toBeNull();
  });

  it('shows the pending note and an uncalibrated estimate', async () => {
    appWithSession(
      preview({ calibrated: false, tokensPerByte: 0.25, pending: 'The next step hides 12 older tool results first.' }),
    );
    await openWithKeys();
    expect(await screen.findByRole('note')).toHaveTextContent('The next step hides 12 older tool results first.');
    expect(dialog()).toHaveTextContent(
      'Estimated at about 4.0 bytes per token until the provider reports its own counts.',
    );
  });

  it('keeps hundreds of parts collapsed, their text out of the page', async () => {
    const many = Array.from({ length: 600 }, (_, i) => part({ label: `message ${i}`, text: `body ${i}` }));
    appWithSession(preview({ parts: many }));
    await openWithKeys();
    await waitFor(() => expect(rows()).toHaveLength(600));
    expect(dialog().querySelectorAll('pre')).toHaveLength(0);
    expect(screen.getByText('600 parts, in the order they are sent.', { exact: false })).toBeInTheDocument();
  });

  it('Refresh asks again and shows the new answer', async () => {
    const { fake } = appWithSession();
    await openWithKeys();
    await waitFor(() => expect(rows()).toHaveLength(5));
    fake.reply('session.context', preview({ tokens: 70_000, parts: [part({ label: 'only part' })] }));
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(fake.requestsOf('session.context')).toHaveLength(2);
    expect(dialog()).toHaveTextContent('≈ 70,000 of 168,000');
  });

  it('says plainly when the context cannot be read', async () => {
    const { fake } = appWithSession();
    fake.fail('session.context', 'the session is not loaded');
    await openWithKeys();
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
      'Could not read the context: the session is not loaded',
    );
  });

  it('Compact now sends the instructions, shows the wait, then the result, and reads the context again', async () => {
    const { fake } = appWithSession();
    const answer = deferred<Reply<{ tokensBefore: number; tokensAfter: number }>>();
    fake.respond('session.compact', () => answer.promise);
    await openWithKeys();
    await userEvent.type(
      screen.getByRole('textbox', { name: 'What should the summary keep? (optional)' }),
      'the failing test names',
    );
    const button = screen.getByRole('button', { name: 'Compact now' });
    await userEvent.click(button);
    expect(fake.requestsOf('session.compact')).toEqual([{ id: 'a', instructions: 'the failing test names' }]);
    expect(within(dialog()).getByRole('status')).toHaveTextContent('Writing a summary…');
    expect(button).toBeDisabled();
    await act(async () => answer.resolve({ ok: true, data: { tokensBefore: 84_000, tokensAfter: 9_000 } }));
    expect(within(dialog()).getByRole('status')).toHaveTextContent('History summarised: 84k → 9k tokens.');
    expect(button).toBeEnabled();
    await waitFor(() => expect(fake.requestsOf('session.context')).toHaveLength(2));
  });

  it('Compact now without instructions sends none, and an error is shown in plain words', async () => {
    const { fake } = appWithSession();
    fake.fail('session.compact', 'There is nothing to summarise yet: the history is short.');
    await openWithKeys();
    await userEvent.click(screen.getByRole('button', { name: 'Compact now' }));
    expect(fake.requestsOf('session.compact')).toEqual([{ id: 'a' }]);
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
      'Could not summarise: There is nothing to summarise yet: the history is short.',
    );
  });

  it('shows the wait whenever the app says a summary is being written', async () => {
    const { store } = appWithSession();
    await openWithKeys();
    const button = screen.getByRole('button', { name: 'Compact now' });
    expect(button).toBeEnabled();
    act(() => store.getState().setCompacting({ a: true }));
    expect(button).toBeDisabled();
    expect(within(dialog()).getByRole('status')).toHaveTextContent('Writing a summary…');
    act(() => store.getState().setCompacting({ a: false }));
    expect(button).toBeEnabled();
  });

  it('Escape closes it and cancels no turn', async () => {
    const { fake, store } = appWithSession();
    await openWithKeys();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(store.getState().dialog).toBeNull();
    expect(fake.requestsOf('session.cancel')).toEqual([]);
  });

  it('the shortcut does nothing without an open session', async () => {
    const { store, fake } = renderFrame(<App />);
    await openWithKeys();
    expect(store.getState().dialog).toBeNull();
    expect(fake.requestsOf('session.context')).toEqual([]);
  });
});
