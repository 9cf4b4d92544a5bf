import { EVENT_INLINE_MAX_BYTES } from '../../../shared/limits.js';
/**
 * Where a tool call's arguments live: inline in the tool_call event when their JSON is at
 * most EVENT_INLINE_MAX_BYTES, otherwise in a blob the event names (argsBlob). A model
 * writing a whole file puts the file in its arguments; inlining that would bloat every
 * later replay of the session.
 */
import type { EventPayload } from '../../../shared/events.js';
import type { BlobStore } from './blob-store.js';

export type StoredToolArgs = { args: unknown } | { argsBlob: string };

type ToolCallEvent = Extract<EventPayload, { type: 'tool_call' }>;

export async function storeToolArgs(args: unknown, blobs: Pick<BlobStore, 'put'>): Promise<StoredToolArgs> {
  const json = JSON.stringify(args);
  if (json === undefined || Buffer.byteLength(json) <= EVENT_INLINE_MAX_BYTES) return { args };
  return { argsBlob: await blobs.put(json) };
}

export async function loadToolArgs(
  event: Pick<ToolCallEvent, 'args' | 'argsBlob'>,
  blobs: Pick<BlobStore, 'get'>,
): Promise<unknown> {
  if (event.argsBlob === undefined) return event.args;
  return JSON.parse((await blobs.get(event.argsBlob)).toString('utf8')) as unknown;
}
