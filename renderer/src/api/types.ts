/**
 * What the renderer holds as its one `api` object: the contract's calls and pushes
 * (GatehouseApi, built from CALL_NAMES by the Electron preload or by the WebSocket client),
 * plus the two things only one transport can give.
 */
import type { GatehouseApi } from '../../../shared/contract';

export type ConnectionState = 'connected' | 'reconnecting' | 'offline';

export type RendererApi = GatehouseApi & {
  /**
   * The web host's socket can drop. Listeners hear every change; after a 'connected' that
   * follows a drop, the store catches up with `session.events {sinceSeq}`. Electron's IPC
   * never drops, so the preload leaves this out.
   */
  onConnection?(listener: (state: ConnectionState) => void): () => void;
  /** Electron only (preload, webUtils.getPathForFile): the real path of a dropped folder. */
  getPathForFile?(file: File): string;
};
