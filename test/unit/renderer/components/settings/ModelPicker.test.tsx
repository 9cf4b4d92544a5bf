import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ModelConfig, SettingsView } from '../../../../../shared/contract';
import type { ModelCatalog, ModelFacts } from '../../../../../shared/model-facts';
import { SettingsDialog } from '../../../../../renderer/src/components/settings/SettingsDialog';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { createFakeApi, SETTINGS_NONE, type FakeApi } from '../../fake-api';
import { memoryStorage, renderFrame } from '../../render-frame';

const row = (
  provider: ModelFacts['provider'],
  id: string,
  name: string,
  window: number,
  input: number,
  output: number,
) =>
  ({
    provider,
    id,
    name,
    contextWindow: window,
    maxOutput: null,
    prices: { input, output, cacheRead: input / 10, cacheWrite: null },
    minCacheTokens: 1024,
  }) satisfies ModelFacts;

/** A made-up table in the shape of the real one (the real one lives in electron/, out of the renderer's reach). */
const CATALOG: ModelCatalog = {
  date: '2026-11-30',
  source: 'test-table@1.0.0',
  models: [
    row('anthropic', 'claude-haiku-4-5', 'Claude Haiku 4.5', 200_000, 1, 5),
    row('anthropic', 'claude-opus-4-5', 'Claude Opus 4.5', 200_000, 5, 25),
    row('anthropic', 'claude-sonnet-4-5', 'Claude Sonnet 4.5', 200_000, 3, 15),
    row('openai', 'gpt-5', 'GPT-5', 400_000, 1.25, 10),
    row('openai', 'gpt-5-mini', 'GPT-5 mini', 400_000, 0.25, 2),
  ],
};

function settingsWith(model: ModelConfig | null, fake: FakeApi = createFakeApi()) {
  fake.reply('models.catalog', CATALOG);
  const store = createAppStore(memoryStorage());
  store.getState().setSettings({ ...SETTINGS_NONE, model } satisfies SettingsView);
  store.getState().openDialog('settings');
  return renderFrame(<SettingsDialog />, { store, fake });
}

const modelField = () => screen.getByRole('combobox', { name: 'Model id' });
// Within the list: the provider <select> has options too.
const options = () => within(screen.getByRole('listbox')).getAllByRole('option');
const optionNames = () => options().map((o) => o.textContent);

describe('the model picker', () => {
  it('offers the chosen provider’s known models, with window and price, from one catalog call', async () => {
    const { fake, unmount } = settingsWith(null);
    await userEvent.type(modelField(), 'sonnet');
    const list = await screen.findByRole('listbox', { name: 'Known Anthropic models' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['claude-sonnet-4-5 Claude Sonnet 4.5 · 200k · $3 / $15 per M']);
    unmount();
    settingsWith(null, fake);
    await screen.findByText(/Prices from/);
    expect(fake.requestsOf('models.catalog')).toEqual([{}]);
  });

  it('filters by id or by name, word by word', async () => {
    settingsWith(null);
    await screen.findByText(/Prices from/);
    await userEvent.type(modelField(), 'claude 4.5');
    expect(optionNames()).toHaveLength(3);
    await userEvent.clear(modelField());
    await userEvent.type(modelField(), 'HAIKU');
    expect(optionNames()).toEqual(['claude-haiku-4-5 Claude Haiku 4.5 · 200k · $1 / $5 per M']);
  });

  it('follows the provider', async () => {
    settingsWith(null);
    await screen.findByText(/Prices from/);
    await userEvent.selectOptions(screen.getByLabelText('Provider'), 'openai');
    await userEvent.type(modelField(), 'gpt');
    expect(screen.getByRole('listbox', { name: 'Known OpenAI models' })).toBeInTheDocument();
    expect(optionNames()).toEqual([
      'gpt-5 GPT-5 · 400k · $1.25 / $10 per M',
      'gpt-5-mini GPT-5 mini · 400k · $0.25 / $2 per M',
    ]);
  });

  it('picks with the arrow keys and Enter, which takes the model and does not save; Esc closes only the list', async () => {
    const { fake, store } = settingsWith(null);
    await screen.findByText(/Prices from/);
    await userEvent.type(modelField(), 'claude');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(modelField()).toHaveAttribute('aria-activedescendant', 'model-option-1');
    expect(options()[1]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Enter}');
    expect(modelField()).toHaveValue('claude-opus-4-5');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(fake.requestsOf('settings.set')).toEqual([]);
    await userEvent.keyboard('{ArrowUp}');
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(store.getState().dialog).toBe('settings');
  });

  it('takes a model clicked in the list', async () => {
    settingsWith(null);
    await screen.findByText(/Prices from/);
    await userEvent.click(modelField());
    await userEvent.click(screen.getByRole('option', { name: /^claude-haiku-4-5/ }));
    expect(modelField()).toHaveValue('claude-haiku-4-5');
    expect(screen.getByText('Claude Haiku 4.5: 200k · $1 / $5 per M.')).toBeInTheDocument();
  });

  it('says what it knows of a dated id, and shows the table’s date', async () => {
    settingsWith({ provider: 'anthropic', modelId: 'claude-sonnet-4-5-20250929' });
    expect(await screen.findByText('Claude Sonnet 4.5: 200k · $3 / $15 per M.')).toBeInTheDocument();
    expect(screen.getByText('Prices from test-table@1.0.0, 2026-11-30')).toBeInTheDocument();
  });
});

describe('model facts for a model the table lacks', () => {
  it('takes any typed id, and saves the window and prices given for it', async () => {
    const { fake } = settingsWith(null);
    await screen.findByText(/Prices from/);
    await userEvent.type(modelField(), 'my-own-model');
    expect(screen.getByText(/Not in the table of known models/)).toHaveTextContent('128k tokens');
    expect(screen.getByRole('group', { name: 'Model facts (optional)' })).toBeVisible();
    await userEvent.type(screen.getByLabelText('Context window (tokens)'), '32768');
    await userEvent.type(screen.getByLabelText('Input price ($ per M tokens)'), '0.5');
    await userEvent.type(screen.getByLabelText('Output price ($ per M tokens)'), '1.5');
    await userEvent.click(screen.getByRole('button', { name: 'Save model' }));
    expect(fake.requestsOf('settings.set')).toEqual([
      {
        model: {
          provider: 'anthropic',
          modelId: 'my-own-model',
          contextWindow: 32768,
          prices: { input: 0.5, output: 1.5 },
        },
      },
    ]);
  });

  it('saves no window or prices when they are left empty', async () => {
    const { fake } = settingsWith(null);
    await screen.findByText(/Prices from/);
    await userEvent.type(modelField(), 'llama3.3:70b');
    await userEvent.click(screen.getByRole('button', { name: 'Save model' }));
    expect(fake.requestsOf('settings.set')).toEqual([{ model: { provider: 'anthropic', modelId: 'llama3.3:70b' } }]);
  });

  it('refuses one price without the other, with a message and no call', async () => {
    const { fake } = settingsWith({ provider: 'openai', modelId: 'gpt-9' });
    await userEvent.type(await screen.findByLabelText('Input price ($ per M tokens)'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Save model' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Set both the input and the output price');
    expect(fake.requestsOf('settings.set')).toEqual([]);
  });
});

describe('overrides for a known model', () => {
  it('are folded under "Override", and open on demand', async () => {
    const { fake } = settingsWith({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
    const summary = await screen.findByText('Override');
    expect(screen.getByLabelText('Context window (tokens)')).not.toBeVisible();
    await userEvent.click(summary);
    expect(screen.getByLabelText('Context window (tokens)')).toBeVisible();
    await userEvent.type(screen.getByLabelText('Context window (tokens)'), '1000000');
    await userEvent.click(screen.getByRole('button', { name: 'Save model' }));
    expect(fake.requestsOf('settings.set')).toEqual([
      { model: { provider: 'anthropic', modelId: 'claude-sonnet-4-5', contextWindow: 1_000_000 } },
    ]);
  });

  it('are shown open when the config already overrides something', async () => {
    settingsWith({
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-5',
      prices: { input: 6, output: 22.5, cacheRead: 0.6 },
    });
    await screen.findByText('Override');
    expect(screen.getByLabelText('Input price ($ per M tokens)')).toBeVisible();
    expect(screen.getByLabelText('Input price ($ per M tokens)')).toHaveValue('6');
    expect(screen.getByLabelText('Cache read price ($ per M, optional)')).toHaveValue('0.6');
  });
});
