/**
 * The application menu: File (Open Folder…, New Session, Close Tab, Settings), Edit,
 * View and Window, with accelerators that match the renderer's shortcuts. Items the
 * renderer owns press its shortcut in the page rather than duplicating its behaviour.
 */
import { describe, expect, it } from 'vitest';
import {
  appMenuTemplate,
  OPEN_FOLDER_ACCELERATOR,
  RENDERER_SHORTCUTS,
  shortcutKeyEvent,
  type RendererShortcut,
} from '../../../../electron/main/menu.js';
import { FakeMenu } from './fake-electron.js';

function menu(platform: NodeJS.Platform = 'linux', dev = false) {
  const pressed: RendererShortcut[] = [];
  const done: string[] = [];
  const template = appMenuTemplate(
    { openFolder: () => done.push('openFolder'), press: (s) => pressed.push(s), quit: () => done.push('quit') },
    { platform, dev },
  );
  return { menu: new FakeMenu(template), pressed, done };
}

describe('the application menu', () => {
  it('has File, Edit, View and Window, and on macOS the app menu first', () => {
    expect(menu('linux').menu.template.map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Window']);
    expect(menu('darwin').menu.template.map((m) => m.label)).toEqual(['Gatehouse', 'File', 'Edit', 'View', 'Window']);
  });

  it('File has Open Folder…, New Session, Close Tab and Settings with their accelerators', () => {
    const { menu: m } = menu();
    expect(m.item('File', 'Open Folder…').accelerator).toBe(OPEN_FOLDER_ACCELERATOR);
    // Ctrl+O stays the renderer's own open-folder dialog.
    expect(OPEN_FOLDER_ACCELERATOR).toBe('CmdOrCtrl+Shift+O');
    expect(m.item('File', 'New Session').accelerator).toBe('CmdOrCtrl+T');
    expect(m.item('File', 'Close Tab').accelerator).toBe('CmdOrCtrl+W');
    expect(m.item('File', 'Settings').accelerator).toBe('CmdOrCtrl+,');
    expect(m.item('File', 'Quit').accelerator).toBe('Ctrl+Q');
  });

  it('leaves the renderer-owned keys to the page, and clicking presses the same key there', () => {
    const { menu: m, pressed, done } = menu();
    for (const [label, shortcut] of [
      ['New Session', 'newSession'],
      ['Close Tab', 'closeTab'],
      ['Settings', 'settings'],
    ] as const) {
      expect(m.item('File', label).registerAccelerator).toBe(false);
      m.click('File', label);
      expect(pressed.at(-1)).toBe(shortcut);
    }
    m.click('View', 'Terminal');
    expect(pressed.at(-1)).toBe('terminal');
    m.click('File', 'Open Folder…');
    expect(done).toEqual(['openFolder']);
  });

  it('has the usual Edit roles, so copy and paste work in the page', () => {
    const roles = (menu().menu.item('Edit').submenu as { role?: string }[]).map((i) => i.role).filter(Boolean);
    expect(roles).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']);
  });

  it('closes the window with Shift, since Ctrl+W closes a tab', () => {
    expect(menu().menu.item('Window', 'close').accelerator).toBe('CmdOrCtrl+Shift+W');
  });

  it('offers reload and developer tools only in development', () => {
    const roles = (dev: boolean) =>
      (menu('linux', dev).menu.item('View').submenu as { role?: string }[]).map((i) => i.role);
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(false)).not.toContain('reload');
    expect(roles(true)).toContain('toggleDevTools');
  });

  it('presses Ctrl in the page, or Cmd on macOS', () => {
    expect(shortcutKeyEvent('newSession', 'linux')).toEqual({ type: 'keyDown', keyCode: 't', modifiers: ['control'] });
    expect(shortcutKeyEvent('newSession', 'darwin')).toEqual({ type: 'keyDown', keyCode: 't', modifiers: ['meta'] });
    expect(shortcutKeyEvent('terminal', 'darwin')).toEqual({ type: 'keyDown', keyCode: '`', modifiers: ['meta'] });
    expect(shortcutKeyEvent('context', 'linux')).toEqual({
      type: 'keyDown',
      keyCode: 'm',
      modifiers: ['control', 'shift'],
    });
    expect(Object.keys(RENDERER_SHORTCUTS)).toEqual([
      'newSession',
      'closeTab',
      'settings',
      'terminal',
      'context',
      'review',
    ]);
  });
});

describe('the accelerators', () => {
  it("match the renderer's shortcut table", async () => {
    const { SHORTCUTS } = await import('../../../../renderer/src/hooks/shortcut-table.js');
    const commands: Record<RendererShortcut, string> = {
      newSession: 'session.new',
      closeTab: 'tab.close',
      settings: 'settings.open',
      terminal: 'terminal.toggle',
      context: 'context.show',
      review: 'place.review',
    };
    for (const [shortcut, command] of Object.entries(commands) as [RendererShortcut, string][]) {
      const row = SHORTCUTS.find((s) => s.command.name === command);
      expect(row, command).toMatchObject({ key: RENDERER_SHORTCUTS[shortcut].keyCode, mod: true });
      const shift = row!.shift ? 'shift+' : '';
      expect(RENDERER_SHORTCUTS[shortcut].accelerator.toLowerCase()).toBe(`cmdorctrl+${shift}${row!.key}`);
    }
  });
});

describe('the menu in the running shell', () => {
  it('presses the shortcut in the window when an item is clicked', async () => {
    const { startShell } = await import('./shell-harness.js');
    const shell = await startShell();
    try {
      shell.fake.applicationMenu()!.click('File', 'New Session');
      expect(shell.window().webContents.keys).toEqual([{ type: 'keyDown', keyCode: 't', modifiers: ['control'] }]);
    } finally {
      await shell.close();
    }
  });
});
