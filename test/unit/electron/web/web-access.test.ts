/**
 * Nothing is served without the token, to a Host that is not this one, or over a socket
 * from another origin; every response carries the strict headers; files outside the built
 * renderer cannot be reached; and the host refuses to listen beyond loopback unless told.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BindRefusedError, checkBind } from '../../../../electron/web/bind-address.js';
import { CONTENT_SECURITY_POLICY } from '../../../../electron/web/security-headers.js';
import { startWebServer } from '../../../../electron/web/server.js';
import { newToken, tokenMatches } from '../../../../electron/web/token.js';
import { startWebHarness, type WebHarness } from './web-harness.js';

let w: WebHarness | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe('the token', () => {
  it('without it: 401 for every page, and no socket opens', async () => {
    w = await startWebHarness();
    for (const p of ['/', '/index.html', '/assets/app.js']) expect((await w.get(p)).status).toBe(401);
    expect((await w.get('/')).body).toContain('Open the URL Gatehouse printed');
    await expect(w.socket({ Origin: w.origin })).rejects.toThrow('refused: 401');
  });

  it('a wrong token, in the query or the cookie, is refused the same way', async () => {
    w = await startWebHarness();
    const wrong = newToken();
    expect((await w.get(`/?token=${wrong}`)).status).toBe(401);
    expect((await w.get(`/?token=${w.token}x`)).status).toBe(401);
    expect((await w.get('/', { Cookie: `gatehouse_${w.port}=${wrong}` })).status).toBe(401);
    expect((await w.get('/', { Cookie: `gatehouse_1=${w.token}` })).status).toBe(401);
    await expect(w.socket({ Origin: w.origin, Cookie: `gatehouse_${w.port}=${wrong}` })).rejects.toThrow(
      'refused: 401',
    );
  });

  it('the right token sets an HttpOnly, SameSite=Strict cookie and redirects to / without it', async () => {
    w = await startWebHarness();
    const first = await w.get(`/?token=${w.token}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    expect(first.headers['set-cookie']).toEqual([`${w.cookie}; HttpOnly; SameSite=Strict; Path=/`]);
    const page = await w.get('/', { Cookie: w.cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Gatehouse</title>');
    const ws = await w.socket();
    ws.close();
  });

  it('compares in constant time on digests, and tells only equal tokens apart as equal', () => {
    const token = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(token, token.slice(1))).toBe(false);
    expect(tokenMatches(token, undefined)).toBe(false);
    expect(tokenMatches(token, '')).toBe(false);
  });
});

describe('Host and Origin', () => {
  it('refuses a request naming another Host, even with the token (DNS rebinding)', async () => {
    w = await startWebHarness();
    for (const host of [`evil.example:${w.port}`, `127.0.0.1:${w.port + 1}`, 'localhost']) {
      const reply = await w.get(`/?token=${w.token}`, { Host: host });
      expect(reply.status).toBe(403);
      expect(reply.headers['set-cookie']).toBeUndefined();
    }
    expect((await w.get('/', { Host: `localhost:${w.port}`, Cookie: w.cookie })).status).toBe(200);
  });

  it('refuses a socket from another origin, or with none, even with the cookie', async () => {
    w = await startWebHarness();
    for (const origin of ['http://evil.example', `http://localhost:${w.port}`, `https://127.0.0.1:${w.port}`]) {
      await expect(w.socket({ Origin: origin, Cookie: w.cookie })).rejects.toThrow('refused: 403');
    }
    await expect(w.socket({ Cookie: w.cookie })).rejects.toThrow('refused: 403');
    await expect(w.socket({ Origin: w.origin, Cookie: w.cookie, Host: `evil.example:${w.port}` })).rejects.toThrow(
      'refused: 403',
    );
  });
});

describe('responses', () => {
  it('carry the strict CSP, nosniff and no-referrer, refused ones included', async () => {
    w = await startWebHarness();
    for (const reply of [await w.get('/'), await w.get('/', { Cookie: w.cookie })]) {
      expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers['referrer-policy']).toBe('no-referrer');
    }
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    );
  });

  it('serve the renderer with its content types', async () => {
    w = await startWebHarness();
    const js = await w.get('/assets/app.js', { Cookie: w.cookie });
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await w.get('/assets/app.css', { Cookie: w.cookie })).headers['content-type']).toBe(
      'text/css; charset=utf-8',
    );
    expect((await w.get('/', { Cookie: w.cookie })).headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await w.get('/missing.js', { Cookie: w.cookie })).status).toBe(404);
    expect((await w.get('/assets', { Cookie: w.cookie })).status).toBe(404);
    expect((await w.get('/favicon.ico', { Cookie: w.cookie })).status).toBe(204);
  });

  it('never reach a file outside the built renderer', async () => {
    w = await startWebHarness();
    for (const p of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/%00',
    ]) {
      const reply = await w.get(p, { Cookie: w.cookie });
      expect(reply.status, p).toBe(404);
      expect(reply.body).not.toContain('top secret');
    }
  });

  it('refuse methods other than GET and HEAD', async () => {
    w = await startWebHarness();
    const reply = await new Promise<number>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request(
          { host: '127.0.0.1', port: w!.port, path: '/', method: 'POST', headers: { Cookie: w!.cookie } },
          (res) => resolve(res.statusCode ?? 0),
        );
        req.on('error', reject);
        req.end();
      }, reject);
    });
    expect(reply).toBe(405);
  });
});

describe('where it listens', () => {
  it('refuses a non-loopback address unless --host named it, and then warns in plain words', async () => {
    w = await startWebHarness();
    await expect(
      startWebServer({ host: w.h.core.host, token: newToken(), staticDir: w.staticDir, bindHost: '0.0.0.0' }),
    ).rejects.toThrow(BindRefusedError);
    expect(() => checkBind('192.168.1.5', false)).toThrow('only loopback addresses are allowed');
    expect(checkBind('192.168.1.5', true)).toMatch(/Anyone on that network .* can read your sessions and run commands/);
    expect(checkBind('127.0.0.1', false)).toBeNull();
    expect(checkBind('::1', false)).toBeNull();
  });
});
