/**
 * Picks the transport — the preload's `window.gatehouse` in Electron, else the web host's
 * WebSocket with the token this tab holds — makes the store, keeps it in step with the
 * app, and renders the frame. A browser tab without a token (or whose token the host
 * refuses) gets one paragraph saying which URL to open instead. A URL naming a session
 * (`npm start -- FOLDER`) opens its tab.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ApiProvider } from './api/api-context';
import { checkToken, forgetToken, reloadOnNewToken, takePageAccess } from './api/page-access';
import type { RendererApi } from './api/types';
import { connectWebHost } from './api/ws-client';
import { showSession } from './hooks/show-session';
import { createAppStore, StoreProvider } from './store/app-store';
import { connectStore } from './store/sync';
import './styles/theme.css';
import './styles/boxes.css';
import './styles/app.css';

declare global {
  interface Window {
    gatehouse?: RendererApi;
  }
}

const root = createRoot(document.getElementById('root')!);

function NoAccess({ refused }: { refused: boolean }) {
  return (
    <main className="empty-state">
      <h1>{refused ? 'This page’s access token was refused' : 'This page has no access token'}</h1>
      <p>
        {refused ? 'Gatehouse has a different token now. ' : ''}
        Open the URL Gatehouse printed when it started (the token follows <code>#token=</code>), or run{' '}
        <code>npm start</code> again to have it open this window for you.
      </p>
    </main>
  );
}

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    // Storage can be denied outright; the token then lasts as long as this load.
    return null;
  }
}

/** The session the web host's URL named; Electron's shell says so with app.focusSession instead. */
let startSession: string | null = null;

function webHostApi(): RendererApi | null {
  reloadOnNewToken(window);
  const storage = sessionStore();
  const { token, session } = takePageAccess(window.location, storage, window.history);
  if (!token) return null;
  startSession = session;
  return connectWebHost({
    token,
    checkToken: () => checkToken(token),
    onTokenRefused: () => {
      forgetToken(storage);
      root.render(<NoAccess refused={true} />);
    },
  });
}

const api = window.gatehouse ?? webHostApi();
if (api) {
  const store = createAppStore();
  const sync = connectStore(store, api);
  void sync.start();
  if (startSession) showSession(store, startSession);
  root.render(
    <StrictMode>
      <ApiProvider api={api}>
        <StoreProvider store={store}>
          <App />
        </StoreProvider>
      </ApiProvider>
    </StrictMode>,
  );
} else {
  root.render(<NoAccess refused={false} />);
}
