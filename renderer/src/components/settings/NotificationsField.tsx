/**
 * Notifications when a card or question goes up. The app's setting (the desktop shell
 * notifies); in a browser the page also needs the browser's permission, asked for here,
 * from a click, never on load.
 */
import { useState } from 'react';
import type { SettingsView } from '../../../../shared/contract';
import { useApi } from '../../api/api-context';
import { useCall } from '../../api/use-call';
import { useAppStore } from '../../store/app-store';

export function NotificationsField({ view }: { view: SettingsView }) {
  const api = useApi();
  const setSettings = useAppStore((s) => s.setSettings);
  const saving = useCall((api, on: boolean) => api['settings.set']({ notifications: on }));
  const [permission, setPermission] = useState(() =>
    typeof Notification === 'undefined' ? null : Notification.permission,
  );
  const inBrowser = api.getPathForFile === undefined;

  const toggle = async (on: boolean) => {
    const reply = await saving.run(on);
    if (reply.ok) setSettings(reply.data);
  };

  const askPermission = async () => {
    setPermission(await Notification.requestPermission());
  };

  return (
    <fieldset className="notifications-field">
      <legend>Notifications</legend>
      <label>
        <input type="checkbox" checked={view.notifications} onChange={(e) => void toggle(e.target.checked)} />
        Notify me when a card or question is waiting
      </label>
      {inBrowser && permission === 'default' && (
        <button type="button" onClick={() => void askPermission()}>
          Allow browser notifications
        </button>
      )}
      {inBrowser && permission === 'denied' && (
        <p className="settings-note">
          This browser blocks notifications for this page; the tab title still shows the count.
        </p>
      )}
      {saving.error && (
        <p className="dialog-error" role="alert">
          {saving.error}
        </p>
      )}
    </fieldset>
  );
}
