/**
 * IPC channel names, derived from the contract: one per call, and one for every push.
 * The preload bundles this file too, so both sides agree by construction.
 */
import type { CallName } from '../../shared/contract.js';

export const CALL_CHANNEL_PREFIX = 'gatehouse:';
/** The one channel pushes travel on; the preload fans them out to `subscribe` listeners. */
export const PUSH_CHANNEL = 'gatehouse:push';

export function callChannel(name: CallName): string {
  return `${CALL_CHANNEL_PREFIX}${name}`;
}
