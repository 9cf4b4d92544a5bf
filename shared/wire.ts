/**
 * The web host's wire format: the contract over one WebSocket. The browser sends calls;
 * the host answers each by its id and pushes events. Frames are JSON text. The server
 * checks every client frame against `clientFrameSchema`; payloads are the Host's to check.
 */
import { z } from 'zod';
import './zod-jitless.js';
import type { Push, Reply } from './contract.js';

/** The path of the WebSocket on the web host. */
export const WIRE_PATH = '/ws';

/**
 * The subprotocol the socket speaks; the host selects it. The page also offers
 * `WIRE_TOKEN_PROTOCOL + token`: a browser can set no other header on a WebSocket, and
 * this one goes only to the page's own origin, never in a URL or a cookie.
 */
export const WIRE_PROTOCOL = 'gatehouse.v1';
export const WIRE_TOKEN_PROTOCOL = 'gatehouse.token.';

/** `GET` with `Authorization: Bearer <token>`: 204 when the token opens the socket, 401 when not. */
export const WIRE_AUTH_PATH = '/auth';

/**
 * Largest frame the host accepts. A message may be 200,000 characters, which JSON can
 * escape to six bytes each; anything bigger than this is not a call the contract takes.
 */
export const WIRE_MAX_FRAME_BYTES = 2 * 1024 * 1024;

export const clientFrameSchema = z.strictObject({
  t: z.literal('call'),
  id: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
  name: z.string().min(1).max(100),
  payload: z.unknown(),
});

export type ClientFrame = z.infer<typeof clientFrameSchema>;

export type ServerFrame =
  | { t: 'reply'; id: number; reply: Reply<unknown> }
  | { t: 'push'; push: Push }
  /** A frame the host could not take (not JSON, wrong shape); nothing changed. */
  | { t: 'error'; error: string };
