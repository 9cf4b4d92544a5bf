/**
 * What a door gives its two proxies: the decision for each destination (which the door
 * also remembers when it is a refusal), a way to tell it of a later refusal, and the set
 * of its open sockets.
 */
import type { Decision } from './destination.js';
import type { Way } from './domain-policy.js';
import type { Refusal } from './refusal.js';
import type { SocketSet } from './tunnel.js';

export interface DestinationGate {
  decide(host: string, port: number, way: Way): Promise<Decision>;
  /** A refusal made after the decision (a tunnel's first bytes), remembered like the others. */
  refuse(refusal: Refusal): void;
  sockets: SocketSet;
}
