/**
 * Settings' Commands section (SPEC §9): whether the agent's commands run confined here,
 * and if not why and what to install; and "Refuse commands that cannot be confined",
 * which turns every such card into a plain refusal.
 */
import { useId } from 'react';
import type { SettingsView } from '../../../../shared/contract';
import { useCall } from '../../api/use-call';
import { useAppStore } from '../../store/app-store';
import { ShownPlacesField } from './ShownPlacesField';
import './commands-field.css';

export function CommandsField({ view }: { view: SettingsView }) {
  const setSettings = useAppStore((s) => s.setSettings);
  const saving = useCall((api, on: boolean) => api['settings.set']({ refuseUnconfined: on }));
  const helpId = useId();
  const sandbox = view.sandbox;

  const toggle = async (on: boolean) => {
    const reply = await saving.run(on);
    // The checkbox shows what the core saved, never only what was clicked.
    if (reply.ok) setSettings(reply.data);
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
          disabled={saving.pending}
          aria-describedby={helpId}
          onChange={(e) => void toggle(e.target.checked)}
        />
        Refuse commands that cannot be confined
      </label>
      <p id={helpId} className="field-help">
        Where no sandbox can run, the agent is told no instead of a card asking you to run its command unconfined.
      </p>
      {saving.error && (
        <p className="dialog-error" role="alert">
          {saving.error}
        </p>
      )}
      {sandbox?.available === true && <ShownPlacesField view={view} />}
    </fieldset>
  );
}
