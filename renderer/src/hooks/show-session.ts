/**
 * Brings one session forward when the app asks: the shell's `app.focusSession` (a tray or
 * notification click, a folder given to a second launch), or the session that
 * `npm start -- FOLDER` opened, which a web page learns from its URL. Its tab opens and is
 * active; the focus goes to its first open card (PinnedCards, through the focus request),
 * else to its composer, so the person can type at once.
 *
 * The session may not be in the store yet: the push follows `sessions.changed`, which is
 * folded on the next frame, and a page that just loaded has not listed sessions. So it
 * waits for the session to appear, for a while, rather than drop the request.
 */
import type { AppStore } from '../store/app-store';
import { SESSION_PANEL_ID } from '../components/tabs/TabBar';

/** Long enough for a slow first list; a session that never appears is not waited on forever. */
const WAIT_MS = 15_000;

export interface ShowSessionOptions {
  waitMs?: number;
  doc?: Document;
}

/** Starts showing the session; the returned function stops waiting (a newer request, an unmount). */
export function showSession(store: AppStore, id: string, options: ShowSessionOptions = {}): () => void {
  const doc = options.doc ?? document;
  let stopped = false;
  let unsubscribe: (() => void) | null = null;
  let observer: MutationObserver | null = null;
  const stop = () => {
    stopped = true;
    unsubscribe?.();
    observer?.disconnect();
    clearTimeout(timer);
  };
  const timer = setTimeout(stop, options.waitMs ?? WAIT_MS);

  const focusComposer = (): boolean => {
    const state = store.getState();
    if (state.activeId !== id) return true; // the person went elsewhere: leave the focus alone
    const loaded = state.sessions[id]?.state;
    // A card or question waiting gets the focus instead (PinnedCards answers the request).
    if (loaded && (loaded.openCards.length > 0 || loaded.openQuestion)) return true;
    // The tab bar and the panel render together: once this tab shows selected, the panel is its.
    const tabs = doc.querySelectorAll('[role="tab"][aria-selected="true"]');
    if (![...tabs].some((tab) => tab.getAttribute('data-tab-id') === id)) return false;
    const composer = doc.getElementById(SESSION_PANEL_ID)?.querySelector<HTMLElement>('textarea[aria-label="Message"]');
    if (!composer) return false;
    if (!busyElsewhere(doc.activeElement)) composer.focus();
    return true;
  };

  const open = (): boolean => {
    const state = store.getState();
    if (!state.sessions[id]) return false;
    state.openTab(id);
    state.requestFocus(id, null);
    // The tab and its composer render after this; watch the page until they are there.
    if (focusComposer()) return true;
    observer = new MutationObserver(() => {
      if (!stopped && focusComposer()) stop();
    });
    observer.observe(doc.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['aria-selected'],
    });
    return true;
  };

  if (open()) {
    if (!observer) stop();
    return stop;
  }
  unsubscribe = store.subscribe(() => {
    if (stopped || !store.getState().sessions[id]) return;
    unsubscribe?.();
    unsubscribe = null;
    if (open() && !observer) stop();
  });
  return stop;
}

/** A dialog or a field the person is typing in keeps the focus. */
function busyElsewhere(active: Element | null): boolean {
  if (!active || active === active.ownerDocument.body) return false;
  if (active.closest('[role="dialog"]')) return true;
  return active.matches('input, textarea, select, [contenteditable="true"]');
}
