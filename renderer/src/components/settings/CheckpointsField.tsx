/**
 * Settings' Checkpoints section (SPEC §12): how much room each workspace's snapshots take,
 * and the limit, past which the oldest snapshots go first. Without git here, undo is off:
 * it says why and what to install.
 */
import { useId, useState, type FormEvent } from 'react';
import type { SettingsView } from '../../../../shared/contract';
import { CHECKPOINT_STORE_DEFAULT_LIMIT_BYTES } from '../../../../shared/limits';
import { useCall } from '../../api/use-call';
import { useAppStore } from '../../store/app-store';
import { byteSize } from '../cards/byte-size';
import { configPath } from './mcp-server-words';
import { parseLimit } from './limit-size';
import './checkpoints-field.css';

type Checkpoints = NonNullable<SettingsView['checkpoints']>;

export function CheckpointsField({ view, checkpoints }: { view: SettingsView; checkpoints: Checkpoints }) {
  return (
    <fieldset className="checkpoints-field">
      <legend>Checkpoints</legend>
      {checkpoints.available ? (
        <>
          <p className="settings-note">
            Before each change the agent makes, the workspace is snapshotted, so a turn can be undone. The snapshots
            live in the app’s data folder, never in your .git.
          </p>
          <StoreSizes stores={checkpoints.stores} home={view.home} />
        </>
      ) : (
        <div className="settings-warning" role="note">
          <p>
            <strong>Undo is off here:</strong> {checkpoints.reason}.
          </p>
          {checkpoints.fix && <p>{checkpoints.fix}</p>}
        </div>
      )}
      <LimitForm limitBytes={checkpoints.limitBytes} />
    </fieldset>
  );
}

function StoreSizes({ stores, home }: { stores: { workspace: string; bytes: number }[]; home?: string }) {
  if (stores.length === 0) return <p className="field-help">No workspace has snapshots yet.</p>;
  return (
    <ul className="checkpoint-stores" aria-label="Snapshots per workspace">
      {stores.map((store) => (
        <li key={store.workspace}>
          <span className="mono">{configPath(store.workspace, undefined, home)}</span>: {byteSize(store.bytes)}
        </li>
      ))}
    </ul>
  );
}

function LimitForm({ limitBytes }: { limitBytes: number }) {
  const setSettings = useAppStore((s) => s.setSettings);
  const saving = useCall((api, bytes: number) => api['settings.set']({ checkpointLimitBytes: bytes }));
  const [text, setText] = useState(() => byteSize(limitBytes));
  const [invalid, setInvalid] = useState<string | null>(null);
  const fieldId = useId();
  const helpId = useId();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseLimit(text);
    if ('error' in parsed) return setInvalid(parsed.error);
    setInvalid(null);
    const reply = await saving.run(parsed.bytes);
    if (reply.ok) setSettings(reply.data);
  };
  const error = invalid ?? saving.error;

  return (
    <form className="checkpoints-limit" onSubmit={(e) => void save(e)}>
      <label htmlFor={fieldId}>Limit per workspace</label>
      <div className="checkpoints-limit-row">
        <input
          id={fieldId}
          className="mono"
          value={text}
          aria-describedby={helpId}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" disabled={saving.pending}>
          Save limit
        </button>
      </div>
      <p id={helpId} className="field-help">
        {limitBytes === CHECKPOINT_STORE_DEFAULT_LIMIT_BYTES
          ? 'The default, 2 GiB.'
          : `Now ${byteSize(limitBytes)}; 2 GiB is the default.`}{' '}
        Past the limit, the oldest snapshots go first, and the turns they belong to can no longer be undone.
      </p>
      {error !== null && (
        <p className="dialog-error" role="alert">
          {error}
        </p>
      )}
      {error === null && saving.data !== undefined && (
        <p className="settings-ok" role="status">
          Saved.
        </p>
      )}
    </form>
  );
}
