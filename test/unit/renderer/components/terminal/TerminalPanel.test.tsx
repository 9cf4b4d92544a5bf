/**
 * The terminal panel's wiring to the contract, with xterm swapped for a recording screen:
 * it opens the session's shell the first time it is shown, writes what is typed, follows
 * resizes, shows the shell's output and exit, and kills the shell when the tab closes.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { TerminalPanel } from '../../../../../renderer/src/components/terminal/TerminalPanel';
import { TERMINAL_WRITE_MAX_CHARS } from '../../../../../shared/limits';
import { createFakeApi, type FakeApi } from '../../fake-api';
import { FakeTerminal } from './fake-xterm';

vi.mock('@xterm/xterm', async () => ({ Terminal: (await import('./fake-xterm')).FakeTerminal }));
vi.mock('@xterm/addon-fit', async () => ({ FitAddon: (await import('./fake-xterm')).FakeFitAddon }));

afterEach(() => {
  FakeTerminal.instances = [];
});

function setup(open = true, prepare?: (fake: FakeApi) => void) {
  const fake = createFakeApi();
  fake.reply('terminal.open', { terminalId: 't1' });
  prepare?.(fake);
  const view = render(
    <ApiProvider api={fake.api}>
      <TerminalPanel sessionId="s1" open={open} />
    </ApiProvider>,
  );
  const rerender = (nextOpen: boolean) =>
    view.rerender(
      <ApiProvider api={fake.api}>
        <TerminalPanel sessionId="s1" open={nextOpen} />
      </ApiProvider>,
    );
  return { fake, view, rerender };
}

const term = () => FakeTerminal.instances.at(-1)!;
const running = (fake: FakeApi) => waitFor(() => expect(fake.requestsOf('terminal.resize')).not.toEqual([]));

describe('TerminalPanel', () => {
  it('says plainly that it is the user’s own shell, not gated', () => {
    setup();
    expect(screen.getByRole('region', { name: 'Terminal' })).toHaveTextContent('your shell — not gated');
  });

  it('starts no shell until it is first shown, then opens the session’s one and sizes it', async () => {
    const { fake, rerender } = setup(false);
    expect(fake.requestsOf('terminal.open')).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Terminal' })).toBeNull();
    rerender(true);
    await running(fake);
    expect(fake.requestsOf('terminal.open')).toEqual([{ id: 's1' }]);
    expect(fake.requestsOf('terminal.resize')).toEqual([{ terminalId: 't1', cols: 80, rows: 24 }]);
    expect(term().focused).toBe(true);
  });

  it('keeps the same shell when hidden and shown again', async () => {
    const { fake, rerender } = setup();
    await running(fake);
    rerender(false);
    rerender(true);
    expect(fake.requestsOf('terminal.open')).toHaveLength(1);
    expect(fake.requestsOf('terminal.close')).toEqual([]);
    expect(FakeTerminal.instances).toHaveLength(1);
  });

  it('shows the output pushed for its terminal only', async () => {
    const { fake } = setup();
    await running(fake);
    act(() => {
      fake.push({ name: 'terminal.output', payload: { terminalId: 't1', data: 'hello\r\n' } });
      fake.push({ name: 'terminal.output', payload: { terminalId: 'someone-else', data: 'not mine' } });
    });
    expect(term().written).toBe('hello\r\n');
  });

  it('keeps output that arrives before terminal.open answers', async () => {
    let answer: (v: { ok: true; data: { terminalId: string } }) => void = () => undefined;
    const { fake } = setup(true, (f) => f.respond('terminal.open', () => new Promise((resolve) => (answer = resolve))));
    await waitFor(() => expect(fake.requestsOf('terminal.open')).toHaveLength(1));
    act(() => fake.push({ name: 'terminal.output', payload: { terminalId: 't9', data: '$ ' } }));
    await act(async () => answer({ ok: true, data: { terminalId: 't9' } }));
    expect(term().written).toBe('$ ');
  });

  it('writes keystrokes to its terminal, and a long paste in pieces the contract accepts, in order', async () => {
    const { fake } = setup();
    await running(fake);
    term().type('ls\r');
    const paste = 'p'.repeat(TERMINAL_WRITE_MAX_CHARS * 2 + 10);
    term().type(paste);
    const writes = fake.requestsOf('terminal.write');
    expect(writes[0]).toEqual({ terminalId: 't1', data: 'ls\r' });
    expect(writes.slice(1).map((w) => w.data.length)).toEqual([TERMINAL_WRITE_MAX_CHARS, TERMINAL_WRITE_MAX_CHARS, 10]);
    expect(
      writes
        .slice(1)
        .map((w) => w.data)
        .join(''),
    ).toBe(paste);
  });

  it('leaves to the app the keys its shortcuts already used, and lets every other key reach the shell', async () => {
    const { fake } = setup();
    await running(fake);
    const used = new KeyboardEvent('keydown', { key: '`', ctrlKey: true, cancelable: true });
    used.preventDefault();
    expect(term().keyHandler!(used)).toBe(false);
    expect(term().keyHandler!(new KeyboardEvent('keydown', { key: 'c', ctrlKey: true, cancelable: true }))).toBe(true);
  });

  it('passes the grid’s new size to the pty', async () => {
    const { fake } = setup();
    await running(fake);
    term().resize(132, 43);
    expect(fake.requestsOf('terminal.resize').at(-1)).toEqual({ terminalId: 't1', cols: 132, rows: 43 });
  });

  it('says when the shell exited and starts a new one on request', async () => {
    const { fake } = setup();
    await running(fake);
    act(() => fake.push({ name: 'terminal.exit', payload: { terminalId: 't1', exitCode: 3, signal: null } }));
    expect(screen.getByRole('status')).toHaveTextContent('shell exited with code 3');
    term().type('ignored');
    expect(fake.requestsOf('terminal.write')).toEqual([]);
    fake.reply('terminal.open', { terminalId: 't2' });
    await userEvent.click(screen.getByRole('button', { name: 'Start a new shell' }));
    await waitFor(() => expect(fake.requestsOf('terminal.open')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    term().type('x');
    expect(fake.requestsOf('terminal.write')).toEqual([{ terminalId: 't2', data: 'x' }]);
  });

  it('shows why the shell could not start', async () => {
    setup(true, (f) => f.fail('terminal.open', 'the workspace folder /gone is missing'));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'could not start: the workspace folder /gone is missing',
    );
  });

  it('says the shell is gone when the app no longer knows it (a restarted web host), and offers a new one', async () => {
    const { fake } = setup();
    await running(fake);
    fake.fail('terminal.write', 'no open terminal with id t1');
    term().type('l');
    expect(await screen.findByRole('status')).toHaveTextContent('the shell is gone (no open terminal with id t1)');
    expect(screen.getByRole('button', { name: 'Start a new shell' })).toBeInTheDocument();
  });

  it('kills the shell when the tab closes (the panel unmounts)', async () => {
    const { fake, view } = setup();
    await running(fake);
    view.unmount();
    await waitFor(() => expect(fake.requestsOf('terminal.close')).toEqual([{ terminalId: 't1' }]));
    expect(term().disposed).toBe(true);
    expect(fake.subscriberCount()).toBe(0);
  });

  it('kills a shell that finished starting after its tab had already closed', async () => {
    let answer: (v: { ok: true; data: { terminalId: string } }) => void = () => undefined;
    const { fake, view } = setup(true, (f) =>
      f.respond('terminal.open', () => new Promise((resolve) => (answer = resolve))),
    );
    await waitFor(() => expect(fake.requestsOf('terminal.open')).toHaveLength(1));
    view.unmount();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await act(async () => answer({ ok: true, data: { terminalId: 'late' } }));
    expect(fake.requestsOf('terminal.close')).toEqual([{ terminalId: 'late' }]);
  });
});
