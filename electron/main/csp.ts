/**
 * The window's Content Security Policy. No inline script, no remote origin of any kind,
 * images only from the app or data: URLs (a model's markdown image never loads), and no
 * connections at all: the app talks to its main process over IPC, not the network. In
 * development the dev server's origin is allowed for scripts and its hot-reload socket.
 */
import type { SessionLike } from './electron-surface.js';

export function contentSecurityPolicy(devServerUrl?: string): string {
  const dev = devServerUrl ? new URL(devServerUrl) : null;
  const devOrigin = dev ? ` ${dev.origin}` : '';
  const devSocket = dev ? ` ${dev.protocol === 'https:' ? 'wss' : 'ws'}://${dev.host}` : '';
  return [
    "default-src 'none'",
    `script-src 'self'${devOrigin}`,
    // React sets style attributes and xterm.js injects <style>; styles cannot run code.
    `style-src 'self' 'unsafe-inline'${devOrigin}`,
    "img-src 'self' data:",
    `font-src 'self' data:${devOrigin}`,
    `connect-src ${dev ? `'self'${devOrigin}${devSocket}` : "'none'"}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Puts the CSP on every response the window's session receives (the dev server's too). */
export function installCsp(session: SessionLike, devServerUrl?: string): void {
  const policy = contentSecurityPolicy(devServerUrl);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } });
  });
}
