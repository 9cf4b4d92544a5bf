/**
 * window.gatehouse as the preload builds it: one function per contract call (and those
 * invoke only their own channel), subscribe fanned out from one push channel, and
 * getPathForFile — no generic invoke or on for the page to reach other channels with.
 */
import { describe, expect, it } from 'vitest';
import { CALL_NAMES, type Push } from '../../../../shared/contract.js';
import { buildGatehouseApi, type IpcRendererLike } from '../../../../electron/preload/gatehouse-api.js';
import { callChannel, PUSH_CHANNEL } from '../../../../electron/main/ipc-channels.js';

function fakeIpcRenderer() {
  const invoked: { channel: string; payload: unknown }[] = [];
  const listeners = new Map<string, (event: unknown, push: Push) => void>();
  const ipc: IpcRendererLike = {
    invoke: async (channel, payload) => {
      invoked.push({ channel, payload });
      return { ok: true, data: channel };
    },
    on: (channel, listener) => void listeners.set(channel, listener),
  };
  return { ipc, invoked, listeners };
}

const webUtils = { getPathForFile: (file: File) => `/real/${file.name}` };

describe('the preload api', () => {
  it('has exactly the contract calls, subscribe and getPathForFile', () => {
    const api = buildGatehouseApi(fakeIpcRenderer().ipc, webUtils);
    expect(Object.keys(api).sort()).toEqual([...CALL_NAMES, 'subscribe', 'getPathForFile'].sort());
    expect(api).not.toHaveProperty('invoke');
    expect(api).not.toHaveProperty('on');
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('sends each call on its own channel with the request as given', async () => {
    const { ipc, invoked } = fakeIpcRenderer();
    const api = buildGatehouseApi(ipc, webUtils);
    expect(await api['session.send']({ id: 's', text: 'hi' })).toEqual({ ok: true, data: 'gatehouse:session.send' });
    expect(invoked).toEqual([{ channel: callChannel('session.send'), payload: { id: 's', text: 'hi' } }]);
  });

  it('listens on the push channel only, and fans pushes out to subscribers until they leave', () => {
    const { ipc, listeners } = fakeIpcRenderer();
    const api = buildGatehouseApi(ipc, webUtils);
    expect([...listeners.keys()]).toEqual([PUSH_CHANNEL]);
    const a: Push[] = [];
    const b: Push[] = [];
    const stopA = api.subscribe((p) => a.push(p));
    api.subscribe((p) => b.push(p));
    api.subscribe(() => {
      throw new Error('a broken listener does not stop the others');
    });
    const push: Push = { name: 'app.focusSession', payload: { id: 's1' } };
    const original = console.error;
    console.error = () => undefined;
    try {
      listeners.get(PUSH_CHANNEL)!({ sender: 'the IPC event stays in the preload' }, push);
      stopA();
      listeners.get(PUSH_CHANNEL)!({}, push);
    } finally {
      console.error = original;
    }
    expect(a).toEqual([push]);
    expect(b).toEqual([push, push]);
  });

  it('gives the real path of a dropped file through webUtils', () => {
    const api = buildGatehouseApi(fakeIpcRenderer().ipc, webUtils);
    expect(api.getPathForFile({ name: 'project' } as File)).toBe('/real/project');
  });
});
