/**
 * settings.set never leaves a key going over plain http to another host (SPEC §11), and a
 * refused request changes nothing: not the model, not the keys, not settings.json.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { providerCases, startHarness, type Harness } from './core-harness.js';

const compatible = providerCases.find((c) => c.name === 'openai-compatible')!;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** What a refused request must leave as it was. */
async function snapshot(harness: Harness) {
  return {
    view: await harness.call('settings.get', {}),
    settings: await fs.readFile(path.join(harness.dataDir, 'settings.json'), 'utf8'),
    keys: await fs.readFile(path.join(harness.dataDir, 'keys.json'), 'utf8').catch(() => null),
  };
}

async function expectRefused(harness: Harness, payload: unknown): Promise<void> {
  const before = await snapshot(harness);
  const reply = await harness.raw('settings.set', payload);
  expect(reply).toMatchObject({ ok: false, error: expect.stringContaining('plain http') });
  expect(await snapshot(harness)).toEqual(before);
}

describe('settings.set and plain http', () => {
  it.each([
    ['anthropic', 'http://10.0.0.5/v1'],
    ['openai', 'http://example.com/v1'],
  ] as const)('refuses %s at %s and changes nothing', async (provider, baseURL) => {
    h = await startHarness();
    await expectRefused(h, { model: { provider, modelId: 'm', baseURL } });
  });

  it('accepts loopback http and any https for Anthropic and OpenAI', async () => {
    h = await startHarness();
    for (const baseURL of ['http://127.0.0.2:8080/v1', 'http://localhost:8080', 'https://proxy.example.com/v1']) {
      const view = await h.call('settings.set', { model: { provider: 'openai', modelId: 'm', baseURL } });
      expect(view.model?.baseURL).toBe(baseURL);
    }
  });

  it('for an OpenAI-compatible server, refuses a key with a remote http URL, in either order', async () => {
    h = await startHarness();
    const remote = { provider: 'openai-compatible', modelId: 'llama', baseURL: 'http://10.0.0.5:11434/v1' } as const;
    // No key saved: a keyless server on the LAN is fine.
    expect((await h.call('settings.set', { model: remote })).model).toEqual(remote);
    await expectRefused(h, { key: { provider: 'openai-compatible', value: 'sk-local-0123456789' } });
    await expectRefused(h, { model: remote, key: { provider: 'openai-compatible', value: 'sk-local-0123456789' } });
    // Another provider's key is not held up by it.
    await h.call('settings.set', { key: { provider: 'openai', value: 'sk-openai-0123456789' } });
  });

  it('with a key saved for the OpenAI-compatible server, refuses a move to remote http; loopback keeps working', async () => {
    h = await startHarness(compatible);
    expect((await h.call('settings.get', {})).keys['openai-compatible']).toBe('settings');
    await expectRefused(h, {
      model: { provider: 'openai-compatible', modelId: 'llama', baseURL: 'http://[fd00::2]:1234/v1' },
    });
    const ollama = { provider: 'openai-compatible', modelId: 'llama', baseURL: 'http://127.0.0.1:11434/v1' } as const;
    expect((await h.call('settings.set', { model: ollama })).model).toEqual(ollama);
    const lmStudio = { provider: 'openai-compatible', modelId: 'qwen', baseURL: 'http://[::1]:1234/v1' } as const;
    expect((await h.call('settings.set', { model: lmStudio })).model).toEqual(lmStudio);
  });

  it('names the problem of a config saved before the rule, and does not hold up other settings', async () => {
    h = await startHarness();
    const old = { provider: 'anthropic', modelId: 'claude', baseURL: 'http://10.0.0.5/v1' };
    await fs.writeFile(path.join(h.dataDir, 'settings.json'), JSON.stringify({ model: old, notifications: true }));
    await h.restart();
    expect((await h.call('settings.get', {})).problem).toContain('plain http to http://10.0.0.5');
    expect((await h.call('settings.set', { notifications: false })).notifications).toBe(false);
  });
});
