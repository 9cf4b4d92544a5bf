/**
 * A `fetch` that sends every request to one Unix socket, for the MCP SDK's HTTP client
 * transport (which takes a URL and a fetch): the host in the URL is only a name. Bodies
 * stream both ways, so a server-sent event stream arrives as it is written.
 */
import http from 'node:http';
import { Readable } from 'node:stream';

export function unixSocketFetch(socketPath: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const url = new URL(request.url);
    return new Promise<Response>((resolve, reject) => {
      const req = http.request({
        socketPath,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: Object.fromEntries(request.headers),
        signal: request.signal,
      });
      req.once('error', reject);
      req.once('response', (res) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of [value ?? []].flat()) headers.append(name, v);
        }
        const status = res.statusCode ?? 500;
        const noBody = status === 204 || status === 304 || request.method === 'HEAD';
        resolve(new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream), { status, headers }));
      });
      req.end(body);
    });
  };
}
