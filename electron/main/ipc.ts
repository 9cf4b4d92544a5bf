/**
 * The Electron binding of the contract: one ipcMain.handle per call, nothing else. Each
 * call is answered only for our own window's top frame showing our own page; a subframe or
 * any other page gets a refusal and reaches nothing. The payload then goes to the host,
 * which checks it against the contract's schema. Pushes go to the window on one channel.
 */
import { CALL_NAMES, type CallName, type Push, type Reply } from '../../shared/contract.js';
import type { Host } from '../core/host.js';
import type { IpcEventLike, IpcMainLike, WebContentsLike } from './electron-surface.js';
import { callChannel, PUSH_CHANNEL } from './ipc-channels.js';
import { isRendererUrl } from './renderer-origin.js';

export const REFUSED_SENDER = 'refused: this request did not come from the Gatehouse window';

/** Runs before a call reaches the host; a string refuses the call with that error. */
export type CallGuard = (name: CallName, payload: unknown) => Promise<string | null>;

export interface IpcOptions {
  devServerUrl: string | undefined;
  guard?: CallGuard;
}

export function isTrustedSender(event: IpcEventLike, devServerUrl: string | undefined): boolean {
  const frame = event.senderFrame;
  return frame !== null && frame.parent === null && isRendererUrl(frame.url, devServerUrl);
}

export function registerIpc(ipcMain: IpcMainLike, host: Pick<Host, 'call'>, options: IpcOptions): void {
  for (const name of CALL_NAMES) {
    ipcMain.handle(callChannel(name), async (event, payload): Promise<Reply<unknown>> => {
      if (!isTrustedSender(event, options.devServerUrl)) return { ok: false, error: REFUSED_SENDER };
      const refusal = (await options.guard?.(name, payload)) ?? null;
      if (refusal !== null) return { ok: false, error: refusal };
      return host.call(name, payload);
    });
  }
}

/** Sends every push to the window while it exists; returns the unsubscribe. */
export function forwardPushes(host: Pick<Host, 'subscribe'>, contents: WebContentsLike): () => void {
  return host.subscribe((push: Push) => {
    if (!contents.isDestroyed()) contents.send(PUSH_CHANNEL, push);
  });
}
