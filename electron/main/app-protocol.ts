/**
 * The gatehouse:// scheme that serves the built renderer. Only files under the renderer's
 * folder are served; a path that escapes it (.., encoded or not) or names a folder gets a
 * 404. Every response carries the CSP.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { contentSecurityPolicy } from './csp.js';
import type { ProtocolLike } from './electron-surface.js';
import { APP_HOST, APP_SCHEME } from './renderer-origin.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** Must run before the app is ready: a standard, secure scheme behaves like https for the page. */
export function registerAppScheme(protocol: ProtocolLike): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

export function serveRenderer(protocol: ProtocolLike, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => rendererResponse(rendererDir, request.url));
}

export async function rendererResponse(rendererDir: string, url: string): Promise<Response> {
  const file = fileFor(rendererDir, url);
  const headers = { 'Content-Security-Policy': contentSecurityPolicy(), 'X-Content-Type-Options': 'nosniff' };
  if (file === null) return new Response('not found', { status: 404, headers });
  try {
    const body = await fs.readFile(file);
    const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    return new Response(new Uint8Array(body), { status: 200, headers: { ...headers, 'Content-Type': type } });
  } catch {
    return new Response('not found', { status: 404, headers });
  }
}

function fileFor(rendererDir: string, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  let relative: string;
  try {
    relative = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (relative.includes('\0')) return null;
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${relative === '/' ? '/index.html' : relative}`);
  return file.startsWith(root + path.sep) ? file : null;
}
