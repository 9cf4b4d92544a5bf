/**
 * The IPC binding: exactly one handler per contract call and nothing else; each answers
 * only our own window's top frame on our own page; payloads go through the host's schemas;
 * pushes reach the window on one channel.
 */
import { describe, expect, it } from 'vitest';
import { CALL_NAMES, type Push, type Reply } from '../../../../shared/contract.js';
import { forwardPushes, registerIpc, REFUSED_SENDER } from '../../../../electron/main/ipc.js';
import { callChannel, PUSH_CHANNEL } from '../../../../electron/main/ipc-channels.js';
import { APP_START_URL } from '../../../../electron/main/renderer-origin.js';
import { createFakeElectron, FakeSession, FakeWebContents } from './fake-electron.js';

function recordingHost() {
  const calls: { name: string; payload: unknown }[] = [];
  const listeners = new Set<(push: Push) => void>();
  return {
    calls,
    emit: (push: Push) => listeners.forEach((l) => l(push)),
    host: {
      call: async (name: string, payload: unknown): Promise<Reply<unknown>> => {
        calls.push({ name, payload });
        return { ok: true, data: { echoed: name } };
      },
      subscribe: (listener: (push: Push) => void) => {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    },
  };
}

const top = { url: APP_START_URL, parent: null };

describe('registerIpc', () => {
  it('registers one handler per contract call, on a channel named after it, and nothing else', () => {
    const fake = createFakeElectron();
    registerIpc(fake.electron.ipcMain, recordingHost().host, { devServerUrl: undefined });
    expect([...fake.handlers.keys()].sort()).toEqual(CALL_NAMES.map(callChannel).sort());
    expect(fake.handlers.size).toBe(CALL_NAMES.length);
  });

  it('passes the top frame of our page through to the host, call by call', async () => {
    const fake = createFakeElectron();
    const h = recordingHost();
    registerIpc(fake.electron.ipcMain, h.host, { devServerUrl: undefined });
    for (const name of CALL_NAMES) {
      expect(await fake.invoke(callChannel(name), { probe: name }, top)).toEqual({ ok: true, data: { echoed: name } });
    }
    expect(h.calls.map((c) => c.name)).toEqual(CALL_NAMES);
  });

  it.each([
    ['a subframe of our page', { url: APP_START_URL, parent: top }],
    ['another page', { url: 'https://evil.example/index.html', parent: null }],
    ['a file:// page', { url: 'file:///app/out/renderer/index.html', parent: null }],
    ['a look-alike host on our scheme', { url: 'gatehouse://evil/index.html', parent: null }],
    ['a frame that is gone', null],
  ])('refuses %s on every channel, reaching nothing', async (_what, frame) => {
    const fake = createFakeElectron();
    const h = recordingHost();
    registerIpc(fake.electron.ipcMain, h.host, { devServerUrl: undefined });
    for (const name of CALL_NAMES) {
      expect(await fake.invoke(callChannel(name), {}, frame)).toEqual({ ok: false, error: REFUSED_SENDER });
    }
    expect(h.calls).toEqual([]);
  });

  it('accepts the dev server page in development, and only its origin', async () => {
    const fake = createFakeElectron();
    const h = recordingHost();
    registerIpc(fake.electron.ipcMain, h.host, { devServerUrl: 'http://localhost:5173/' });
    const ok = await fake.invoke(callChannel('sessions.list'), {}, { url: 'http://localhost:5173/', parent: null });
    const other = await fake.invoke(callChannel('sessions.list'), {}, { url: 'http://localhost:5174/', parent: null });
    expect(ok).toMatchObject({ ok: true });
    expect(other).toEqual({ ok: false, error: REFUSED_SENDER });
  });

  it('lets a guard refuse a call before it reaches the host', async () => {
    const fake = createFakeElectron();
    const h = recordingHost();
    registerIpc(fake.electron.ipcMain, h.host, {
      devServerUrl: undefined,
      guard: async (name) => (name === 'settings.set' ? 'not now' : null),
    });
    expect(await fake.invoke(callChannel('settings.set'), {}, top)).toEqual({ ok: false, error: 'not now' });
    expect(h.calls).toEqual([]);
  });
});

describe('the real host behind IPC', () => {
  it('checks the payload against the contract: a bad one gets a clear error', async () => {
    const { startShell } = await import('./shell-harness.js');
    const shell = await startShell();
    try {
      const reply = await shell.call('session.send', { id: 'x' });
      expect(reply).toMatchObject({ ok: false });
      expect(!reply.ok && reply.error).toContain('bad request for session.send');
    } finally {
      await shell.close();
    }
  });
});

describe('forwardPushes', () => {
  it('sends every push on the one push channel until the window is gone', () => {
    const h = recordingHost();
    const contents = new FakeWebContents(new FakeSession());
    forwardPushes(h.host, contents);
    const push: Push = { name: 'app.focusSession', payload: { id: 's1' } };
    h.emit(push);
    contents.destroyed = true;
    h.emit(push);
    expect(contents.sent).toEqual([{ channel: PUSH_CHANNEL, args: [push] }]);
  });
});
