/**
 * Tray, badge and notifications, end to end through the shell: a card going up in the
 * core (a host push) reaches the tray menu, the badge and an OS notification; none when
 * the user is looking at that tab; a click on either focuses the tab.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../../shared/contract.js';
import type { SessionEvent } from '../../../../shared/events.js';
import type { WaitingSession } from '../../../../electron/core/attention/attention.js';
import { trayMenuTemplate, trayTooltip } from '../../../../electron/main/tray.js';
import { startShell, type Shell } from './shell-harness.js';
import { FakeMenu } from './fake-electron.js';

let shell: Shell | undefined;
afterEach(async () => {
  await shell?.close();
  shell = undefined;
});

function summary(id: string, title: string, waiting: number): SessionSummary {
  const at = '2026-01-01T00:00:00.000Z';
  return { id, title, workspace: `/ws/${id}`, status: 'waiting', model: null, createdAt: at, updatedAt: at, waiting };
}

const question = (text: string): SessionEvent =>
  ({
    seq: 3,
    ts: 't',
    type: 'question',
    turnId: 't',
    toolCallId: 'c',
    questionId: 'q',
    question: text,
  }) as SessionEvent;

/** A real session's id: the host refuses to mark active an id no session has. */
async function openSession(shell: Shell, name: string): Promise<string> {
  const opened = await shell.call('sessions.open', { workspace: await shell.workspace(name) });
  if (!opened.ok) throw new Error(opened.error);
  return (opened.data as SessionSummary).id;
}

/** What the core pushes when a question goes up in session `id`. */
function raise(shell: Shell, id: string, title: string, text = 'Which branch?') {
  const host = shell.app!.core.host;
  host.emit({ name: 'sessions.changed', payload: { summary: summary(id, title, 1) } });
  host.emit({ name: 'session.event', payload: { id, event: question(text) } });
}

describe('a card or question going up', () => {
  it('lists the session in the tray menu, counts it in the tooltip and the badge', async () => {
    shell = await startShell();
    raise(shell, 's1', 'Fix the build');
    const tray = shell.fake.trays[0]!;
    expect(tray.tooltip).toBe('Gatehouse — 1 waiting for you');
    expect(tray.menu!.item('Fix the build')).toBeDefined();
    expect(shell.fake.badges.at(-1)).toBe(1);
  });

  it('raises an OS notification while the window is not focused', async () => {
    shell = await startShell();
    const id = await openSession(shell, 'fix');
    expect(await shell.call('app.activeSession', { id, visible: false })).toMatchObject({ ok: true });
    raise(shell, id, 'Fix the build');
    expect(shell.fake.notifications.map((n) => [n.options.title, n.options.body, n.shown])).toEqual([
      ['Fix the build: Question', 'Which branch?', true],
    ]);
  });

  it('raises one when the window loses focus, even before the renderer says so', async () => {
    shell = await startShell();
    const id = await openSession(shell, 'fix');
    expect(await shell.call('app.activeSession', { id, visible: true })).toMatchObject({ ok: true });
    shell.window().emit('blur');
    raise(shell, id, 'Fix the build');
    expect(shell.fake.notifications).toHaveLength(1);
  });

  it('raises one while another tab is the active one', async () => {
    shell = await startShell();
    const other = await openSession(shell, 'other');
    expect(await shell.call('app.activeSession', { id: other, visible: true })).toMatchObject({ ok: true });
    raise(shell, 's1', 'Fix the build');
    expect(shell.fake.notifications).toHaveLength(1);
  });

  it('raises none when the user is looking at that tab', async () => {
    shell = await startShell();
    const id = await openSession(shell, 'fix');
    expect(await shell.call('app.activeSession', { id, visible: true })).toMatchObject({ ok: true });
    raise(shell, id, 'Fix the build');
    expect(shell.fake.notifications).toEqual([]);
    // The tray still lists it: the user may switch away.
    expect(shell.fake.trays[0]!.menu!.item('Fix the build')).toBeDefined();
  });

  it('raises none once notifications are turned off in Settings', async () => {
    shell = await startShell();
    expect(await shell.call('settings.set', { notifications: false })).toMatchObject({
      data: { notifications: false },
    });
    raise(shell, 's1', 'Fix the build');
    expect(shell.fake.notifications).toEqual([]);
  });

  it('focuses that tab when the notification is clicked', async () => {
    shell = await startShell();
    raise(shell, 's1', 'Fix the build');
    shell.window().minimized = true;
    shell.fake.notifications[0]!.emit('click');
    expect(shell.window().restored).toBe(1);
    expect(shell.window().focused).toBe(1);
    expect(shell.pushes()).toContainEqual({ name: 'app.focusSession', payload: { id: 's1' } });
  });

  it('focuses that tab when its tray item is clicked', async () => {
    shell = await startShell();
    raise(shell, 's1', 'Fix the build');
    shell.fake.trays[0]!.menu!.click('Fix the build');
    expect(shell.window().focused).toBe(1);
    expect(shell.pushes()).toContainEqual({ name: 'app.focusSession', payload: { id: 's1' } });
  });

  it('shows no notification where the OS has none', async () => {
    shell = await startShell({ notificationsSupported: false });
    raise(shell, 's1', 'Fix the build');
    expect(shell.fake.notifications).toEqual([]);
  });
});

describe('the tray menu', () => {
  const actions = { focusSession: () => undefined, showWindow: () => undefined, quit: () => undefined };
  const list: WaitingSession[] = [
    { id: 'a', title: 'R&D notes', waiting: 2 },
    { id: 'b', title: 'b', waiting: 1 },
  ];

  it('says when nothing is waiting', () => {
    const menu = new FakeMenu(trayMenuTemplate([], actions));
    expect(menu.item('Nothing is waiting for you').enabled).toBe(false);
    expect(trayTooltip([])).toBe('Gatehouse');
  });

  it('counts every waiting card and question, and shows titles as plain text', () => {
    const menu = new FakeMenu(trayMenuTemplate(list, actions));
    expect(menu.item('R&&D notes (2)')).toBeDefined();
    expect(trayTooltip(list)).toBe('Gatehouse — 3 waiting for you');
  });
});
