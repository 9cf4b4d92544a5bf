/**
 * The web host's access token, as the page holds it. It arrives in the URL's fragment
 * (`/#token=…`, which a browser never sends to any server), is kept in sessionStorage
 * (this origin only, port included, and this tab only) and is taken out of the address bar
 * at once, so it is neither bookmarked nor shown. Never a cookie: the browser would send a
 * cookie to every server on this host name, whatever its port.
 *
 * A reload finds the token in sessionStorage. A restarted host has a new token (it keeps
 * none on disk), so the same tab is then refused and asks for the URL the host printed.
 */
import { WIRE_AUTH_PATH } from '../../../shared/wire.js';

export const TOKEN_STORAGE_KEY = 'gatehouse.token';

export interface PageAccess {
  /** The token to offer the socket; null when this tab was never given one. */
  token: string | null;
  /**
   * The session to show first (`npm start -- FOLDER` opened it), from this load's URL only:
   * a reload shows whatever tabs the person left.
   */
  session: string | null;
}

/** Reads (and removes) the fragment's token, remembers it, and returns what this tab holds. */
export function takePageAccess(
  location: Pick<Location, 'hash' | 'pathname' | 'search'>,
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
  history: Pick<History, 'replaceState' | 'state'>,
): PageAccess {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const given = params.get('token');
  const session = params.get('session') || null;
  if (params.has('token') || params.has('session')) {
    // Out of the address bar (and of this history entry) before anything else runs.
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  }
  if (given) {
    try {
      storage?.setItem(TOKEN_STORAGE_KEY, given);
    } catch {
      // Storage denied: this load still works; a reload will ask for the URL again.
    }
    return { token: given, session };
  }
  try {
    return { token: storage?.getItem(TOKEN_STORAGE_KEY) ?? null, session };
  } catch {
    return { token: null, session };
  }
}

/**
 * Opening the printed URL in a tab already on this address changes only the fragment, and a
 * fragment change does not load the page again: the tab would keep the token the host
 * refused (a restarted host has a new one). So a fragment that brings a token reloads the
 * page, which takes it as any load does.
 */
export function reloadOnNewToken(page: Pick<Window, 'addEventListener' | 'location'>): void {
  page.addEventListener('hashchange', () => {
    if (new URLSearchParams(page.location.hash.replace(/^#/, '')).has('token')) page.location.reload();
  });
}

/** Forgets the token (the host refused it), so a reload asks for the URL instead of failing again. */
export function forgetToken(storage: Pick<Storage, 'removeItem'> | null): void {
  try {
    storage?.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Nothing kept, nothing to forget.
  }
}

export type TokenCheck = 'accepted' | 'refused' | 'unknown';

/**
 * Asks the host whether it takes this token. A browser hides why a WebSocket handshake
 * failed, so a page whose socket keeps failing cannot otherwise tell a refused token (the
 * host has a new one, or another host took the port) from a host that is down.
 */
export async function checkToken(token: string, fetchImpl: typeof fetch = fetch): Promise<TokenCheck> {
  try {
    const reply = await fetchImpl(WIRE_AUTH_PATH, {
      headers: { Authorization: `Bearer ${token}` },
      cache: 'no-store',
    });
    if (reply.status === 204) return 'accepted';
    return reply.status === 401 ? 'refused' : 'unknown';
  } catch {
    return 'unknown';
  }
}
