/**
 * Tells the app which session the person is looking at (so the shell does not notify about
 * a card already in view), and shows the tab the shell asks for (a tray or notification
 * click, a folder given to `npm start`), even one whose summary has not arrived yet.
 */
import { useEffect, useState } from 'react';
import { useApi } from '../api/api-context';
import { useAppStore, useAppStoreApi } from '../store/app-store';
import { showSession } from './show-session';

const looking = () => document.visibilityState === 'visible' && document.hasFocus();

export function useActiveSessionReport(): void {
  const api = useApi();
  const store = useAppStoreApi();
  const activeId = useAppStore((s) => s.activeId);
  const [visible, setVisible] = useState(looking);

  useEffect(() => {
    const update = () => setVisible(looking());
    document.addEventListener('visibilitychange', update);
    window.addEventListener('focus', update);
    window.addEventListener('blur', update);
    return () => {
      document.removeEventListener('visibilitychange', update);
      window.removeEventListener('focus', update);
      window.removeEventListener('blur', update);
    };
  }, []);

  useEffect(() => {
    void api['app.activeSession']?.({ id: activeId, visible });
  }, [api, activeId, visible]);

  useEffect(() => {
    // The newest request wins: an older one still waiting for its session stops.
    let stopShowing = () => {};
    const unsubscribe = api.subscribe((push) => {
      if (push.name !== 'app.focusSession') return;
      stopShowing();
      stopShowing = showSession(store, push.payload.id);
    });
    return () => {
      unsubscribe();
      stopShowing();
    };
  }, [api, store]);
}
