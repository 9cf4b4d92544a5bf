/**
 * The token travels in the URL once; the host then keeps it in an HttpOnly, SameSite=Strict
 * cookie and redirects to `/`, so it leaves the address bar and page scripts never see it.
 * Cookies ignore ports, so the name carries the port: two hosts on one machine do not clash.
 */
export function cookieName(port: number): string {
  return `gatehouse_${port}`;
}

export function tokenCookie(port: number, token: string): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

/** The value of one cookie in a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
