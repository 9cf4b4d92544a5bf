/**
 * The built renderer (out/renderer) over HTTP: GET and HEAD of files inside that folder
 * only, with their content types. A path that decodes outside it, or names a folder, is
 * not found; nothing else on disk can be reached.
 */
import { createReadStream, promises as fs } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** The file a URL path names inside `root`, or null when it would leave it. */
export function fileForUrlPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const file = path.resolve(root, relative);
  return file.startsWith(root + path.sep) ? file : null;
}

export async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse, urlPath: string) {
  const file = fileForUrlPath(root, urlPath);
  const stat = file ? await fs.stat(file).catch(() => null) : null;
  if (!file || !stat?.isFile()) {
    if (urlPath === '/')
      return plain(res, 503, 'The window is not built yet: run `npm run build:renderer`, then reload.');
    // Browsers ask for it on their own; an empty answer keeps their console free of 404s.
    if (urlPath === '/favicon.ico') return void res.writeHead(204).end();
    return plain(res, 404, 'Not found.');
  }
  res.writeHead(200, { 'Content-Type': contentTypeOf(file), 'Content-Length': stat.size });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

export function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}
