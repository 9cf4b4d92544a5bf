/**
 * The shell's side of the host: the notifications setting persists and reaches Attention,
 * the renderer's active tab reaches Attention, and Settings says how keys are kept.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../../shared/contract.js';
import type { AttentionSink, WaitingSession } from '../../../../electron/core/attention/attention.js';
import { createCore, type Core, type CoreOptions } from '../../../../electron/core/core.js';
import { testCipher } from './core-harness.js';

let root: string | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
  if (root) await fs.rm(root, { recursive: true, force: true });
  root = undefined;
});

async function boot(options: Partial<CoreOptions> = {}): Promise<Core> {
  root ??= await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-attention-'));
  core = await createCore({
    dataDir: path.join(root, 'data'),
    env: {},
    home: root,
    cipher: null,
    durability: 'none',
    ...options,
  });
  return core;
}

async function settings(c: Core, payload: unknown = {}): Promise<SettingsView> {
  const reply = await c.host.call('settings.set', payload);
  if (!reply.ok) throw new Error(reply.error);
  return reply.data as SettingsView;
}

describe('the host and the shell', () => {
  it('keeps the notifications setting across a restart, beside the model', async () => {
    let c = await boot();
    expect((await settings(c)).notifications).toBe(true);
    expect((await settings(c, { model: { provider: 'openai', modelId: 'gpt-x' } })).notifications).toBe(true);
    expect((await settings(c, { notifications: false })).notifications).toBe(false);
    await c.dispose();
    c = await boot();
    const view = await settings(c, {});
    expect(view.notifications).toBe(false);
    expect(view.model).toEqual({ provider: 'openai', modelId: 'gpt-x' });
  });

  it('says keys cannot be saved without a cipher, and what the shell reports otherwise', async () => {
    expect((await settings(await boot(), {})).keyStorage).toBe('none');
    await core!.dispose();
    expect((await settings(await boot({ cipher: testCipher }), {})).keyStorage).toBe('os');
    await core!.dispose();
    expect((await settings(await boot({ cipher: testCipher, keyStorage: 'plain-text' }), {})).keyStorage).toBe(
      'plain-text',
    );
  });

  it('passes the active tab to Attention, and refuses a malformed one or one no session has', async () => {
    const waiting: WaitingSession[][] = [];
    const sink: AttentionSink = { waitingChanged: (l) => waiting.push(l), cardRaised: () => undefined };
    const c = await boot({ attention: sink });
    const ws = path.join(root as string, 'ws');
    await fs.mkdir(ws);
    const opened = await c.host.call('sessions.open', { workspace: ws });
    const id = opened.ok ? (opened.data as { id: string }).id : '';
    expect(await c.host.call('app.activeSession', { id, visible: true })).toEqual({
      ok: true,
      data: { id, visible: true },
    });
    const bad = await c.host.call('app.activeSession', { id });
    expect(bad.ok).toBe(false);
    expect(await c.host.call('app.activeSession', { id: 'abc', visible: true })).toEqual({
      ok: false,
      error: 'no session abc',
    });
    expect(waiting).toEqual([[]]);
  });

  it('accepts app.activeSession where no shell listens (the web host)', async () => {
    const c = await boot();
    expect((await c.host.call('app.activeSession', { id: null, visible: false })).ok).toBe(true);
  });
});
