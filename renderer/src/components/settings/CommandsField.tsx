/**
 * Settings' Commands section (SPEC §9): whether the agent's commands run confined here,
 * and if not why and what to install; and "Refuse commands that cannot be confined",
 * which turns every such card into a plain refusal.
 */
import { useId, useState } from 'react';
import type { SettingsView } from '../../../../shared/contract';
import { useApi } from '../../api/api-context';
import { useAppStore } from '../../store/app-store';
import { ShownPlacesField } from './ShownPlacesField';
import './commands-field.css';

export function CommandsField({ view }: { view: SettingsView }) {
  const api = useApi();
  const setSettings = useAppStore((s) => s.setSettings);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const helpId = useId();
  const sandbox = view.sandbox;

  const toggle = async (on: boolean) => {
    setError(null);
    setPending(true);
    const reply = await api['settings.set']({ refuseUnconfined: on });
    setPending(false);
    // The checkbox shows what the core saved, never only what was clicked.
    if (reply.ok) setSettings(reply.data);
    else setError(reply.error);
  };

  return (
    <fieldset className="commands-field">
      <legend>Commands</legend>
      {sandbox?.available === true && (
        <p className="commands-status commands-confined">
          <span className="commands-mark" aria-hidden="true">
            ✓
          </span>
          Commands run in a sandbox (bubblewrap): each writes only in its workspace, sees the system and your toolchains
          but not the rest of your home folder, no secrets in its environment, and has no network unless its card says
          so.
        </p>
      )}
      {sandbox?.available === false && (
        <div className="settings-warning commands-unconfined" role="note">
          <p>
            <strong>Commands run unconfined here:</strong> {sandbox.reason}.
          </p>
          {sandbox.fix && <p className="commands-fix">{sandbox.fix}</p>}
        </div>
      )}
      <label>
        <input
          type="checkbox"
          checked={view.refuseUnconfined === true}
          disabled={pending}
          aria-describedby={helpId}
          onChange={(e) => void toggle(e.target.checked)}
        />
        Refuse commands that cannot be confined
      </label>
      <p id={helpId} className="field-help">
        Where no sandbox can run, the agent is told no instead of a card asking you to run its command unconfined.
      </p>
      {error && (
        <p className="dialog-error" role="alert">
          {error}
        </p>
      )}
      {sandbox?.available === true && <ShownPlacesField view={view} />}
    </fieldset>
  );
}
