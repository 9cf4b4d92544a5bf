/**
 * settings.test through the host, as a transport calls it: the model setting being edited
 * is checked with the settings schema, tried with the keys a turn would use, and never saved.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY, providerCases, startHarness, type Harness } from './core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const compatible = providerCases.find((c) => c.name === 'openai-compatible')!;

describe('settings.test', () => {
  it('tries an unsaved model setting with the saved key, and saves nothing', async () => {
    h = await startHarness(compatible);
    const settingsFile = path.join(h.dataDir, 'settings.json');
    const before = await fs.readFile(settingsFile, 'utf8');
    const edited = { provider: 'openai-compatible', modelId: 'qwen-edited', baseURL: h.fake.openaiBaseURL } as const;
    h.fake.enqueue({ text: 'OK' });
    expect(await h.call('settings.test', { model: edited })).toEqual({
      outcome: 'works',
      message: 'Works: qwen-edited answered.',
    });
    const [request] = h.fake.requests;
    expect((request!.body as { model: string }).model).toBe('qwen-edited');
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(await fs.readFile(settingsFile, 'utf8')).toBe(before);
    expect((await h.call('settings.get', {})).model?.modelId).toBe('llama-test');
  });

  it('answers a refused key in words', async () => {
    h = await startHarness();
    h.fake.enqueue({ status: 401 });
    const result = await h.call('settings.test', { model: providerCases[0]!.config(h.fake) });
    expect(result.outcome).toBe('key_refused');
    expect(result.message).not.toContain(API_KEY);
  });

  it('refuses a setting the settings schema refuses, before any request', async () => {
    h = await startHarness();
    const reply = await h.raw('settings.test', { model: { provider: 'openai-compatible', modelId: 'llama' } });
    expect(reply).toEqual({
      ok: false,
      error: expect.stringContaining('model.baseURL: an openai-compatible provider needs a baseURL') as unknown,
    });
    expect(await h.raw('settings.test', {})).toMatchObject({ ok: false });
    expect(h.fake.requests).toHaveLength(0);
  });
});
