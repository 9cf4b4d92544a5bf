/**
 * Listens for the shortcut table's keys on the window and runs their commands. It listens in
 * the capture phase: the terminal's xterm.js swallows the keys it handles, and Ctrl+W or
 * Ctrl+1–9 must still work from the terminal.
 */
import { useEffect } from 'react';
import { useApi } from '../api/api-context';
import type { RendererApi } from '../api/types';
import type { AppStore } from '../store/app-store';
import { useAppStoreApi } from '../store/app-store';
import { activePlaceOf } from '../store/session-place';
import { commandFor, type Command } from './shortcut-table';

const isMac = () => /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? '');

export function useShortcuts(): void {
  const api = useApi();
  const store = useAppStoreApi();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const command = commandFor(event, isMac());
      if (!command) return;
      if (run(command, store, api, event.target)) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [api, store]);
}

/** Runs a command; false when it did not apply (so the key keeps its usual meaning). */
export function run(command: Command, store: AppStore, api: RendererApi, target: EventTarget | null): boolean {
  const s = store.getState();
  switch (command.name) {
    case 'session.new':
    case 'folder.open':
      s.openDialog('open-folder');
      return true;
    case 'settings.open':
      s.openDialog('settings');
      return true;
    case 'tab.close':
      if (!s.activeId) return false;
      s.closeTab(s.activeId);
      return true;
    case 'tab.goto':
      s.activateIndex(command.index);
      return true;
    case 'terminal.toggle':
      if (!s.activeId) return false;
      s.toggleTerminal(s.activeId);
      return true;
    case 'context.show':
      if (!s.activeId || !s.sessions[s.activeId]?.state) return false;
      s.openDialog('context');
      return true;
    case 'place.review':
      // Only a session working in a place that is still there has anything to review.
      if (!s.activeId || !activePlaceOf(s.sessions[s.activeId])) return false;
      s.openDialog('review');
      return true;
    case 'turn.cancel':
      return cancelTurn(store, api, target);
  }
}

/**
 * Esc cancels the active turn, but never from a card (it must not answer one), a dialog, or
 * the terminal (Esc belongs to the program running in the shell).
 */
function cancelTurn(store: AppStore, api: RendererApi, target: EventTarget | null): boolean {
  const s = store.getState();
  if (s.dialog) return false;
  if (target instanceof Element && target.closest('[role="region"], [role="dialog"], .terminal-panel')) return false;
  const id = s.activeId;
  if (!id || !s.sessions[id]?.state?.turnId) return false;
  void api['session.cancel']({ id }).then((reply) => {
    if (!reply.ok) store.getState().showNotice({ kind: 'error', text: `Could not cancel: ${reply.error}` });
  });
  return true;
}
