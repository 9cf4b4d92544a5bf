/**
 * `window.gatehouse` for the Electron window, built from the contract's list of calls:
 * one function per call, `subscribe` for pushes, and `getPathForFile` for a dropped folder.
 * Nothing generic (no invoke(channel), no on(channel)) crosses the bridge, so the page can
 * reach exactly the contract and nothing else of IPC.
 */
import { CALL_NAMES, type GatehouseApi, type Push } from '../../shared/contract.js';
import { callChannel, PUSH_CHANNEL } from '../main/ipc-channels.js';

export interface IpcRendererLike {
  invoke(channel: string, payload: unknown): Promise<unknown>;
  on(channel: string, listener: (event: unknown, push: Push) => void): void;
}

export interface WebUtilsLike {
  getPathForFile(file: File): string;
}

export type ElectronApi = GatehouseApi & { getPathForFile(file: File): string };

export function buildGatehouseApi(ipc: IpcRendererLike, webUtils: WebUtilsLike): ElectronApi {
  const listeners = new Set<(push: Push) => void>();
  // One IPC listener for the window's life; subscribers come and go in the page.
  ipc.on(PUSH_CHANNEL, (_event, push) => {
    for (const listener of [...listeners]) {
      try {
        listener(push);
      } catch (err) {
        console.error('gatehouse: a push listener threw', err);
      }
    }
  });
  const api: Record<string, unknown> = {};
  for (const name of CALL_NAMES) {
    api[name] = (request: unknown) => ipc.invoke(callChannel(name), request);
  }
  api.subscribe = (listener: (push: Push) => void) => {
    if (typeof listener !== 'function') throw new TypeError('subscribe needs a function');
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  api.getPathForFile = (file: File) => webUtils.getPathForFile(file);
  return Object.freeze(api) as ElectronApi;
}
