/**
 * What the frame shows around the sessions: settings as the app reported them, which
 * dialog is open, the connection to the web host, one message at a time, and a request to
 * move focus to a card (from the waiting list), and unsent drafts.
 */
import type { StateCreator } from 'zustand';
import type { SettingsView } from '../../../shared/contract';
import type { ConnectionState } from '../api/types';
import type { AppState } from './app-store';

/** 'context' is "What the model sees" for the active session; 'review' its place's review (SPEC §15). */
export type Dialog = 'open-folder' | 'settings' | 'context' | 'review' | null;

export interface Notice {
  kind: 'info' | 'error';
  text: string;
}

export interface FocusRequest {
  sessionId: string;
  /** A cardId or questionId; null focuses whatever is pinned first. */
  targetId: string | null;
  /** Grows with every request so the same target can be asked for twice. */
  nonce: number;
}

export interface UiSlice {
  settings: SettingsView | null;
  dialog: Dialog;
  connection: ConnectionState;
  notice: Notice | null;
  focusRequest: FocusRequest | null;
  /** The composer's unsent text per session, so switching tabs keeps it. */
  drafts: Record<string, string>;
  /** Sessions whose terminal panel is shown (Ctrl+`). */
  terminalOpen: Record<string, boolean>;
  /**
   * Returned messages already put back into a draft, by messageId. In the store, not the
   * composer, so a tab switch (which remounts the composer) cannot put them back twice.
   */
  returnedTaken: Record<string, true>;
  setSettings(view: SettingsView): void;
  openDialog(dialog: Exclude<Dialog, null>): void;
  closeDialog(): void;
  setConnection(state: ConnectionState): void;
  showNotice(notice: Notice): void;
  dismissNotice(): void;
  requestFocus(sessionId: string, targetId: string | null): void;
  /** The focus request was carried out (or could not be): it must not fire again later. */
  focusHandled(nonce: number): void;
  setDraft(sessionId: string, text: string): void;
  toggleTerminal(sessionId: string): void;
  markReturnedTaken(messageIds: string[]): void;
}

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set) => ({
  settings: null,
  dialog: null,
  connection: 'connected',
  notice: null,
  focusRequest: null,
  drafts: {},
  terminalOpen: {},
  returnedTaken: {},
  setSettings: (settings) => set({ settings }),
  openDialog: (dialog) => set({ dialog }),
  closeDialog: () => set({ dialog: null }),
  setConnection: (connection) => set({ connection }),
  showNotice: (notice) => set({ notice }),
  dismissNotice: () => set({ notice: null }),
  requestFocus: (sessionId, targetId) =>
    set((s) => ({ focusRequest: { sessionId, targetId, nonce: (s.focusRequest?.nonce ?? 0) + 1 } })),
  focusHandled: (nonce) =>
    set((s) =>
      s.focusRequest?.nonce === nonce ? { focusRequest: { ...s.focusRequest, targetId: null, sessionId: '' } } : s,
    ),
  setDraft: (sessionId, text) => set((s) => ({ drafts: { ...s.drafts, [sessionId]: text } })),
  markReturnedTaken: (messageIds) =>
    set((s) => ({ returnedTaken: { ...s.returnedTaken, ...Object.fromEntries(messageIds.map((id) => [id, true])) } })),
  toggleTerminal: (sessionId) =>
    set((s) => ({ terminalOpen: { ...s.terminalOpen, [sessionId]: !s.terminalOpen[sessionId] } })),
});
