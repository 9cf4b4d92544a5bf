import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../../../shared/contract';
import { SettingsDialog } from '../../../../../renderer/src/components/settings/SettingsDialog';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { SETTINGS_NONE } from '../../fake-api';
import { memoryStorage, renderFrame } from '../../render-frame';

function settingsWith(view: Partial<SettingsView>) {
  const store = createAppStore(memoryStorage());
  const full: SettingsView = { ...SETTINGS_NONE, ...view };
  store.getState().setSettings(full);
  store.getState().openDialog('settings');
  return renderFrame(<SettingsDialog />, { store });
}

const model = { provider: 'anthropic' as const, modelId: 'claude-sonnet-4-5' };

describe('settings', () => {
  it('names the providers, keeping their ids as the values saved', () => {
    settingsWith({ model });
    const options = within(screen.getByLabelText('Provider')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Anthropic',
      'OpenAI',
      'OpenAI-compatible (Ollama, LM Studio, vLLM, OpenRouter…)',
    ]);
    expect(options.map((o) => (o as HTMLOptionElement).value)).toEqual(['anthropic', 'openai', 'openai-compatible']);
    expect(screen.getByRole('group', { name: 'API key for Anthropic' })).toBeInTheDocument();
  });

  it('shows where each provider’s key comes from, never the key, and an empty key field', () => {
    settingsWith({ model, keys: { anthropic: 'settings', openai: 'env', 'openai-compatible': null } });
    const sources = within(screen.getByRole('region', { name: 'API keys' })).getAllByRole('listitem');
    expect(sources.map((li) => li.textContent)).toEqual([
      'Anthropic: saved',
      'OpenAI: from the environment',
      'OpenAI-compatible server: none',
    ]);
    expect(screen.getByText('Key:').textContent).toBe('Key: saved');
    expect(screen.getByLabelText('New key')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Remove key' })).toBeInTheDocument();
  });

  it('the key field follows the chosen provider', async () => {
    settingsWith({ model, keys: { anthropic: null, openai: 'env', 'openai-compatible': null } });
    expect(screen.getByText('Key:').textContent).toBe('Key: none');
    await userEvent.selectOptions(screen.getByLabelText('Provider'), 'openai');
    expect(screen.getByText('Key:').textContent).toBe('Key: from the environment');
    expect(screen.getByRole('group', { name: 'API key for OpenAI' })).toBeInTheDocument();
  });

  it('saves a typed key write-only and clears the field; the reply never puts it back', async () => {
    const { fake } = settingsWith({ model });
    fake.reply('settings.set', { ...SETTINGS_NONE, model, keys: { ...SETTINGS_NONE.keys, anthropic: 'settings' } });
    await userEvent.type(screen.getByLabelText('New key'), 'sk-secret-123');
    await userEvent.click(screen.getByRole('button', { name: 'Save key' }));
    expect(fake.requestsOf('settings.set')).toEqual([{ key: { provider: 'anthropic', value: 'sk-secret-123' } }]);
    expect(await screen.findByText('Key saved.')).toBeInTheDocument();
    expect(screen.getByLabelText('New key')).toHaveValue('');
    expect(document.body.textContent).not.toContain('sk-secret-123');
  });

  it('removes a saved key', async () => {
    const { fake } = settingsWith({ model, keys: { ...SETTINGS_NONE.keys, anthropic: 'settings' } });
    await userEvent.click(screen.getByRole('button', { name: 'Remove key' }));
    expect(fake.requestsOf('settings.set')).toEqual([{ key: { provider: 'anthropic', value: null } }]);
  });

  it('warns before storing a key as plain text and saves only after consent', async () => {
    const { fake } = settingsWith({ model, keyStorage: 'plain-text' });
    expect(screen.getByText(/stored on disk as plain text/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New key'), 'sk-x');
    expect(screen.getByRole('button', { name: 'Save key' })).toBeDisabled();
    await userEvent.click(screen.getByLabelText('Store it as plain text anyway'));
    await userEvent.click(screen.getByRole('button', { name: 'Save key' }));
    expect(fake.requestsOf('settings.set')).toHaveLength(1);
  });

  it('when keys cannot be saved here, says they come from the environment and offers no key field', () => {
    settingsWith({ model, keyStorage: 'none' });
    expect(screen.getByText(/Keys cannot be saved here/)).toBeInTheDocument();
    expect(screen.queryByLabelText('New key')).toBeNull();
  });

  it('saves the model setting, and refuses a bad output cap with a message and no call', async () => {
    const { fake } = settingsWith({ model: null });
    await userEvent.type(screen.getByLabelText('Model id'), 'gpt-5');
    await userEvent.selectOptions(screen.getByLabelText('Provider'), 'openai');
    await userEvent.type(screen.getByLabelText('Max output tokens (optional)'), '-3');
    await userEvent.click(screen.getByRole('button', { name: 'Save model' }));
    expect(screen.getByRole('alert')).toHaveTextContent(/whole number above 0/);
    expect(fake.requestsOf('settings.set')).toEqual([]);
    await userEvent.clear(screen.getByLabelText('Max output tokens (optional)'));
    await userEvent.type(screen.getByLabelText('Max output tokens (optional)'), '4096');
    await userEvent.click(screen.getByRole('button', { name: 'Save model' }));
    expect(fake.requestsOf('settings.set')).toEqual([
      { model: { provider: 'openai', modelId: 'gpt-5', maxOutputTokens: 4096 } },
    ]);
  });

  it('binds the Notifications checkbox to settings.set {notifications}', async () => {
    const { fake } = settingsWith({ model, notifications: false });
    await userEvent.click(screen.getByRole('checkbox', { name: /Notify me/ }));
    expect(fake.requestsOf('settings.set')).toEqual([{ notifications: true }]);
  });
});
