/**
 * Who may talk to the web host. Every HTTP request must name this host in its Host header
 * (so a DNS-rebound name pointing at 127.0.0.1 gets nothing), and the WebSocket upgrade
 * must come from a page of this very origin (so another site open in the same browser
 * cannot drive the agent through the user's cookie).
 */

/** The Host header values this server answers to. */
export function allowedHosts(port: number, boundHost: string): Set<string> {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  hosts.add(`${boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost}:${port}`);
  return hosts;
}

export function hostAllowed(hostHeader: string | undefined, allowed: Set<string>): boolean {
  return hostHeader !== undefined && allowed.has(hostHeader.toLowerCase());
}

/** The Origin must be exactly http://<the Host header>, and that Host must be one of ours. */
export function originAllowed(
  origin: string | undefined,
  hostHeader: string | undefined,
  allowed: Set<string>,
): boolean {
  if (!origin || !hostAllowed(hostHeader, allowed)) return false;
  return origin.toLowerCase() === `http://${hostHeader!.toLowerCase()}`;
}
