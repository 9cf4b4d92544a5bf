/**
 * A provider's API key: write-only. The screen shows where a key comes from, never the key;
 * where keys would be kept as plain text it warns and asks before saving one.
 */
import { useState } from 'react';
import type { Provider, SettingsView } from '../../../../shared/contract';
import { useCall } from '../../api/use-call';
import { useAppStore } from '../../store/app-store';
import { keySourceWords } from './key-source';
import { PROVIDER_SHORT_NAMES } from './provider-names';

export function KeyField({ provider, view }: { provider: Provider; view: SettingsView }) {
  const setSettings = useAppStore((s) => s.setSettings);
  const [value, setValue] = useState('');
  const [plainTextOk, setPlainTextOk] = useState(false);
  const storing = useCall((api, key: string | null) => api['settings.set']({ key: { provider, value: key } }));
  const storage = 'keyStorage' in view ? view.keyStorage : 'os';
  const source = view.keys[provider];

  const store = async (key: string | null) => {
    const reply = await storing.run(key);
    if (!reply.ok) return;
    setSettings(reply.data);
    setValue('');
    setPlainTextOk(false);
  };
  const message: { kind: 'ok' | 'error'; text: string } | null =
    storing.error !== null
      ? { kind: 'error', text: storing.error }
      : !storing.pending && storing.data !== undefined
        ? { kind: 'ok', text: storing.args?.[0] === null ? 'Key removed.' : 'Key saved.' }
        : null;

  const needsConsent = storage === 'plain-text' && !plainTextOk;
  return (
    <fieldset className="key-field">
      <legend>API key for {PROVIDER_SHORT_NAMES[provider]}</legend>
      <p className="key-source">
        Key: <strong>{keySourceWords(source)}</strong>
      </p>
      {storage === 'none' ? (
        <p className="settings-note">
          Keys cannot be saved here. Set the key in the environment of the app (for example ANTHROPIC_API_KEY or
          OPENAI_API_KEY) before starting it.
        </p>
      ) : (
        <>
          <label htmlFor={`key-${provider}`}>New key</label>
          <input
            id={`key-${provider}`}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
          {storage === 'plain-text' && (
            <div className="settings-warning" role="note">
              <p>
                This system offers no keyring: a saved key is stored on disk as plain text. Prefer setting it in the
                environment.
              </p>
              <label>
                <input type="checkbox" checked={plainTextOk} onChange={(e) => setPlainTextOk(e.target.checked)} />
                Store it as plain text anyway
              </label>
            </div>
          )}
          <div className="key-actions">
            <button
              type="button"
              disabled={value.trim() === '' || needsConsent}
              onClick={() => void store(value.trim())}
            >
              Save key
            </button>
            {source === 'settings' && (
              <button type="button" onClick={() => void store(null)}>
                Remove key
              </button>
            )}
          </div>
        </>
      )}
      {message && (
        <p
          className={message.kind === 'error' ? 'dialog-error' : 'settings-ok'}
          role={message.kind === 'error' ? 'alert' : 'status'}
        >
          {message.text}
        </p>
      )}
    </fieldset>
  );
}
