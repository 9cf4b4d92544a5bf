import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../../../../shared/contract.js';
import { DEFAULT_CONTEXT_WINDOW, modelIdKey } from '../../../../../shared/model-facts.js';
import { modelCatalog, resolveModel } from '../../../../../electron/core/context/model-catalog.js';

const anthropic = (modelId: string, extra: Partial<ModelConfig> = {}): ModelConfig => ({
  provider: 'anthropic',
  modelId,
  ...extra,
});

describe('the bundled model table', () => {
  it('says when and where it was taken', () => {
    const { date, source } = modelCatalog();
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(source).toMatch(/^@pydantic\/genai-prices@\d+\.\d+\.\d+/);
  });

  it('gives every model a positive window and no negative price', () => {
    for (const m of modelCatalog().models) {
      expect(m.contextWindow, m.id).toBeGreaterThan(0);
      for (const value of Object.values(m.prices ?? {})) expect(value ?? 0, m.id).toBeGreaterThanOrEqual(0);
    }
  });

  it('has the current Claude and OpenAI chat models, and no embeddings, audio, image or realtime ones', () => {
    const ids = modelCatalog().models.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['claude-sonnet-4-5', 'claude-opus-4-5', 'claude-haiku-4-5', 'gpt-5']));
    expect(ids.filter((id) => /embedding|audio|image|realtime|whisper|tts/.test(id))).toEqual([]);
  });

  it('is sorted by provider and id, one row each', () => {
    const keys = modelCatalog().models.map((m) => `${m.provider}/${m.id}`);
    expect(keys).toEqual([...keys].sort((a, b) => a.localeCompare(b)));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is loaded once', () => {
    expect(modelCatalog()).toBe(modelCatalog());
  });
});

describe('resolveModel', () => {
  it('knows an Anthropic model: window, prices, cacheable prefix, date', () => {
    const model = resolveModel(anthropic('claude-sonnet-4-5'));
    expect(model).toMatchObject({ window: 200_000, known: true, minCacheTokens: 1024 });
    expect(model.prices).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(model.priceDate).toBe(modelCatalog().date);
  });

  it('knows an OpenAI model', () => {
    const model = resolveModel({ provider: 'openai', modelId: 'gpt-5' });
    expect(model).toMatchObject({ window: 400_000, known: true, minCacheTokens: 1024 });
    expect(model.prices).toMatchObject({ input: 1.25, output: 10, cacheRead: 0.125 });
  });

  it('resolves dated snapshot ids and the -0 / -latest aliases to their model', () => {
    expect(resolveModel(anthropic('claude-sonnet-4-5-20250929'))).toMatchObject({ known: true, window: 200_000 });
    expect(resolveModel(anthropic('claude-haiku-4-5-20251001'))).toMatchObject({ known: true, minCacheTokens: 4096 });
    expect(resolveModel(anthropic('claude-opus-4-20250514')).prices?.input).toBe(15);
    expect(resolveModel(anthropic('claude-opus-4-5-20251101')).prices?.input).toBe(5);
    expect(resolveModel({ provider: 'openai', modelId: 'gpt-4o-2024-08-06' }).known).toBe(true);
  });

  it('keeps an exact dated row apart from its undated alias when the table has both', () => {
    const dated = resolveModel({ provider: 'openai', modelId: 'gpt-4o-2024-05-13' });
    const alias = resolveModel({ provider: 'openai', modelId: 'gpt-4o' });
    expect(dated.prices?.input).toBe(5);
    expect(alias.prices?.input).toBe(2.5);
  });

  it('looks an OpenAI-compatible id up in either table, OpenRouter spelling included', () => {
    const via = (modelId: string) =>
      resolveModel({ provider: 'openai-compatible', modelId, baseURL: 'https://openrouter.example/api/v1' });
    expect(via('anthropic/claude-sonnet-4.5')).toMatchObject({ known: true, window: 200_000 });
    expect(via('openai/gpt-5.1').known).toBe(true);
    expect(via('claude-opus-4-5').known).toBe(true);
    expect(via('qwen2.5-coder:32b')).toMatchObject({ known: false, window: DEFAULT_CONTEXT_WINDOW });
  });

  it('does not look a model up in the other provider’s table', () => {
    expect(resolveModel({ provider: 'openai', modelId: 'claude-sonnet-4-5' }).known).toBe(false);
  });

  it('takes an unknown model to have 128,000 tokens and no prices, and never throws on odd ids', () => {
    expect(resolveModel(anthropic('claude-unheard-of-9'))).toEqual({
      window: 128_000,
      maxOutput: null,
      prices: null,
      minCacheTokens: null,
      known: false,
      priceDate: modelCatalog().date,
    });
    for (const odd of ['/', ':', '-0', '...', 'ft:gpt-4o:org::x', '@', ' '])
      expect(() => resolveModel({ provider: 'openai', modelId: odd })).not.toThrow();
  });

  it('lets the config’s window and prices win; override prices without cache prices leave those unknown', () => {
    const model = resolveModel(
      anthropic('claude-sonnet-4-5', { contextWindow: 1_000_000, prices: { input: 6, output: 22.5 } }),
    );
    expect(model.window).toBe(1_000_000);
    expect(model.prices).toEqual({ input: 6, output: 22.5, cacheRead: null, cacheWrite: null });
    expect(model.known).toBe(true);
  });

  it('gives an unknown model the window and prices its config states', () => {
    const model = resolveModel({
      provider: 'openai-compatible',
      modelId: 'llama3.3:70b',
      baseURL: 'http://127.0.0.1:11434/v1',
      contextWindow: 32_768,
      prices: { input: 0, output: 0, cacheRead: 0 },
    });
    expect(model).toMatchObject({ window: 32_768, known: false });
    expect(model.prices).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: null });
  });
});

describe('modelIdKey', () => {
  it('folds the spellings of one model together', () => {
    for (const id of [
      'claude-sonnet-4-5',
      'anthropic/claude-sonnet-4.5',
      'Claude-Sonnet-4-5-20250929',
      'claude-sonnet-4-5@20250929',
    ])
      expect(modelIdKey(id)).toBe('claude-sonnet-4-5');
    expect(modelIdKey('claude-opus-4-0')).toBe(modelIdKey('claude-opus-4-20250514'));
    expect(modelIdKey('gpt-4o-2024-08-06')).toBe('gpt-4o');
    expect(modelIdKey('claude-3-5-haiku-latest')).toBe('claude-3-5-haiku');
  });
});
