/**
 * Settings: the model (provider, id picked from the known models or typed, base URL, output
 * cap, and the window and prices of a model the table lacks), a test of that setting before it
 * is saved, each provider's key, notifications, whether commands run confined, the
 * checkpoints' room and limit, the MCP servers of the session in the active tab, and the
 * external agents (install, versions, domains), and the places of their own sessions work in.
 */
import { useState, type FormEvent } from 'react';
import { providerSchema, type ModelConfig, type Provider } from '../../../../shared/contract';
import { findModelFacts } from '../../../../shared/model-facts';
import { useCall } from '../../api/use-call';
import { useAppStore } from '../../store/app-store';
import { Dialog } from '../frame/Dialog';
import { keySourceWords } from './key-source';
import { KeyField } from './KeyField';
import { CheckpointsField } from './CheckpointsField';
import { CommandsField } from './CommandsField';
import { AgentsSection } from './AgentsSection';
import { PlacesSection } from './PlacesSection';
import { McpServersSection } from './McpServers';
import { formFrom, modelFrom, type ModelForm } from './model-form';
import { ModelOverrides } from './ModelOverrides';
import { ModelPicker } from './ModelPicker';
import { NotificationsField } from './NotificationsField';
import { PROVIDER_NAMES, PROVIDER_SHORT_NAMES } from './provider-names';
import { ConnectionResult, TestConnectionButton, useConnectionTest } from './TestConnection';
import { useModelCatalog, type CatalogState } from './useModelCatalog';

const PROVIDERS = providerSchema.options as Provider[];

export function SettingsDialog() {
  const view = useAppStore((s) => s.settings);
  const closeDialog = useAppStore((s) => s.closeDialog);
  return (
    <Dialog title="Settings" onClose={closeDialog}>
      {view ? <SettingsForm key="form" /> : <p>Reading settings…</p>}
    </Dialog>
  );
}

function SettingsForm() {
  const view = useAppStore((s) => s.settings)!;
  const setSettings = useAppStore((s) => s.setSettings);
  const [form, setForm] = useState<ModelForm>(() => formFrom(view.model));
  const saving = useCall((api, model: ModelConfig) => api['settings.set']({ model }));
  /** What is wrong with the form, found before anything is sent; it stays until the next save is sent. */
  const [invalid, setInvalid] = useState<string | null>(null);
  const catalog = useModelCatalog();
  const tester = useConnectionTest(form);
  const field = (name: keyof ModelForm) => (value: string) => setForm((f) => ({ ...f, [name]: value }));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const model = modelFrom(form);
    if ('error' in model) return setInvalid(model.error);
    setInvalid(null);
    const reply = await saving.run(model);
    if (reply.ok) setSettings(reply.data);
  };
  const failure = invalid ?? saving.error;
  const message: { kind: 'ok' | 'error'; text: string } | null =
    failure !== null
      ? { kind: 'error', text: failure }
      : saving.data !== undefined
        ? { kind: 'ok', text: 'Saved.' }
        : null;

  return (
    <div className="settings">
      {view.problem && (
        <p className="settings-warning" role="note">
          {view.problem}
        </p>
      )}
      <form onSubmit={(e) => void save(e)} className="settings-model">
        <label htmlFor="settings-provider">Provider</label>
        <select id="settings-provider" value={form.provider} onChange={(e) => field('provider')(e.target.value)}>
          {PROVIDERS.map((p) => (
            <option key={p} value={p}>
              {PROVIDER_NAMES[p]}
            </option>
          ))}
        </select>
        <ModelPicker provider={form.provider} catalog={catalog} value={form.modelId} onChange={field('modelId')} />
        <label htmlFor="settings-base-url">Base URL {form.provider === 'openai-compatible' ? '' : '(optional)'}</label>
        <input
          id="settings-base-url"
          className="mono"
          placeholder={form.provider === 'openai-compatible' ? 'http://127.0.0.1:11434/v1' : ''}
          value={form.baseURL}
          onChange={(e) => field('baseURL')(e.target.value)}
        />
        <label htmlFor="settings-max-tokens">Max output tokens (optional)</label>
        <input
          id="settings-max-tokens"
          inputMode="numeric"
          value={form.maxOutputTokens}
          onChange={(e) => field('maxOutputTokens')(e.target.value)}
        />
        {catalog !== 'loading' && (
          <ModelOverrides form={form} known={isKnown(catalog, form)} onChange={(name, value) => field(name)(value)} />
        )}
        {typeof catalog === 'object' && (
          <p className="field-help model-source">
            Prices from {catalog.source}, {catalog.date}
          </p>
        )}
        <div className="dialog-actions">
          <TestConnectionButton tester={tester} />
          <button type="submit" className="primary">
            Save model
          </button>
        </div>
        <ConnectionResult tester={tester} />
        {message && (
          <p
            className={message.kind === 'error' ? 'dialog-error' : 'settings-ok'}
            role={message.kind === 'error' ? 'alert' : 'status'}
          >
            {message.text}
          </p>
        )}
      </form>
      <section className="key-sources" aria-labelledby="key-sources-heading">
        <h3 id="key-sources-heading">API keys</h3>
        <ul>
          {PROVIDERS.map((p) => (
            <li key={p}>
              {PROVIDER_SHORT_NAMES[p]}: {keySourceWords(view.keys[p])}
            </li>
          ))}
        </ul>
      </section>
      <KeyField key={form.provider} provider={form.provider} view={view} />
      {'notifications' in view && <NotificationsField view={view} />}
      {/* Only a core that confines commands says whether it can; an older one says nothing. */}
      {view.sandbox !== undefined && <CommandsField view={view} />}
      {view.checkpoints !== undefined && <CheckpointsField view={view} checkpoints={view.checkpoints} />}
      <McpServersSection />
      <AgentsSection />
      <PlacesSection />
    </div>
  );
}

function isKnown(catalog: CatalogState, form: ModelForm): boolean {
  return typeof catalog === 'object' && findModelFacts(catalog.models, form.provider, form.modelId) !== null;
}
