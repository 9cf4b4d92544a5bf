/**
 * Picks the transport — the preload's `window.gatehouse` in Electron, else the web host's
 * WebSocket — makes the store, keeps it in step with the app, and renders the frame.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ApiProvider } from './api/api-context';
import type { RendererApi } from './api/types';
import { connectWebHost } from './api/ws-client';
import { createAppStore, StoreProvider } from './store/app-store';
import { connectStore } from './store/sync';
import './styles/theme.css';
import './styles/app.css';

declare global {
  interface Window {
    gatehouse?: RendererApi;
  }
}

const api = window.gatehouse ?? connectWebHost();
const store = createAppStore();
const sync = connectStore(store, api);
void sync.start();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApiProvider api={api}>
      <StoreProvider store={store}>
        <App />
      </StoreProvider>
    </ApiProvider>
  </StrictMode>,
);
