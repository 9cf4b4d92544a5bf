import { describe, expect, it } from 'vitest';
import { priceWords, windowWords } from '../../../../../renderer/src/components/settings/model-choice';
import { formFrom, modelFrom } from '../../../../../renderer/src/components/settings/model-form';

describe('model facts in words', () => {
  it('says a window in k or M', () => {
    expect([8192, 16_385, 128_000, 200_000, 1_000_000, 1_047_576, 1_050_000].map(windowWords)).toEqual([
      '8k',
      '16k',
      '128k',
      '200k',
      '1M',
      '1.05M',
      '1.05M',
    ]);
  });

  it('says prices per million tokens without float noise', () => {
    expect(priceWords({ input: 3, output: 15, cacheRead: null, cacheWrite: null })).toBe('$3 / $15 per M');
    expect(priceWords({ input: 0.1 + 0.2, output: 0.005, cacheRead: null, cacheWrite: null })).toBe(
      '$0.3 / $0.005 per M',
    );
  });
});

describe('the model form', () => {
  const form = (fields: Partial<ReturnType<typeof formFrom>>) => ({ ...formFrom(null), modelId: 'm', ...fields });

  it('round-trips a config with a window and all four prices', () => {
    const model = {
      provider: 'openai' as const,
      modelId: 'gpt-x',
      contextWindow: 64_000,
      prices: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 },
    };
    expect(modelFrom(formFrom(model))).toEqual(model);
  });

  it('takes a leading $ and refuses what is not a price', () => {
    expect(modelFrom(form({ priceInput: '$3', priceOutput: ' 15 ' }))).toMatchObject({
      prices: { input: 3, output: 15 },
    });
    expect(modelFrom(form({ priceInput: 'three', priceOutput: '15' }))).toEqual({
      error: expect.stringMatching(/dollars per million tokens/),
    });
    expect(modelFrom(form({ priceInput: '-1', priceOutput: '15' }))).toHaveProperty('error');
  });

  it('wants cache prices to come with input and output prices', () => {
    expect(modelFrom(form({ priceCacheRead: '0.3' }))).toEqual({
      error: expect.stringMatching(/input and the output/),
    });
  });

  it('refuses a window that is not a whole number of at least 1024 tokens', () => {
    for (const contextWindow of ['1000', '2048.5', 'lots', '-5'])
      expect(modelFrom(form({ contextWindow }))).toEqual({ error: expect.stringMatching(/at least 1024/) });
    expect(modelFrom(form({ contextWindow: '32768' }))).toMatchObject({ contextWindow: 32768 });
  });
});
