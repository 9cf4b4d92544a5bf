/**
 * What a door gives its two proxies: the decision for each destination (which the door
 * also remembers when it is a refusal) and the set of its open sockets.
 */
import type { Decision } from './destination.js';
import type { SocketSet } from './tunnel.js';

export interface Gate {
  decide(host: string, port: number): Promise<Decision>;
  sockets: SocketSet;
}
