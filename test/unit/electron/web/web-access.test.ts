/**
 * No socket opens without the token (offered as a subprotocol, never a cookie), from a Host
 * that is not this one, or from another origin; the one-time URL works once within 60 s;
 * every response carries the strict headers; files outside the built renderer cannot be
 * reached; and the host refuses to listen beyond loopback unless told.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { BindRefusedError, checkBind } from '../../../../electron/web/bind-address.js';
import { CONTENT_SECURITY_POLICY } from '../../../../electron/web/security-headers.js';
import { CODE_LIFETIME_MS, OneTimeCodes } from '../../../../electron/web/one-time-code.js';
import { offeredToken, startWebServer } from '../../../../electron/web/server.js';
import { newToken, tokenMatches } from '../../../../electron/web/token.js';
import { WIRE_AUTH_PATH, WIRE_PATH, WIRE_PROTOCOL, WIRE_TOKEN_PROTOCOL } from '../../../../shared/wire.js';
import { openSocket, startWebHarness, tokenProtocols, type WebHarness } from './web-harness.js';

let w: WebHarness | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe('the token', () => {
  it('the window is public code; the socket without the token is refused', async () => {
    w = await startWebHarness();
    for (const p of ['/', '/index.html', '/assets/app.js']) expect((await w.get(p)).status).toBe(200);
    await expect(w.socket({ Origin: w.origin }, [])).rejects.toThrow('refused: 401');
    await expect(w.socket({ Origin: w.origin }, [WIRE_PROTOCOL])).rejects.toThrow('refused: 401');
    // The token alone, without the protocol the host selects, would fail in a browser anyway.
    await expect(w.socket({ Origin: w.origin }, [`${WIRE_TOKEN_PROTOCOL}${w.token}`])).rejects.toThrow('refused: 401');
  });

  it('a wrong token is refused the same way', async () => {
    w = await startWebHarness();
    for (const wrong of [newToken(), `${w.token}x`, w.token.slice(1), '']) {
      await expect(w.socket({ Origin: w.origin }, tokenProtocols(wrong))).rejects.toThrow('refused: 401');
    }
  });

  it('the right token opens the socket, and only the protocol name comes back, never the token', async () => {
    w = await startWebHarness();
    const ws = await w.socket();
    expect(ws.protocol).toBe(WIRE_PROTOCOL);
    ws.close();
  });

  it('no cookie is ever set, and the old cookie, or the token in a query, opens nothing', async () => {
    w = await startWebHarness();
    const oldCookie = { Cookie: `gatehouse_${w.port}=${w.token}` };
    for (const p of ['/', `/?token=${w.token}`, '/index.html', '/assets/app.js', '/missing', '/?code=x', '/auth']) {
      for (const headers of [{}, oldCookie]) {
        const reply = await w.get(p, headers);
        expect(reply.headers['set-cookie'], p).toBeUndefined();
        expect(reply.headers.location ?? '', p).not.toContain(w.token);
        expect(reply.body, p).not.toContain(w.token);
      }
    }
    await expect(w.socket({ Origin: w.origin, ...oldCookie }, [])).rejects.toThrow('refused: 401');
    const queried = `ws://127.0.0.1:${w.port}${WIRE_PATH}?token=${w.token}`;
    await expect(openSocket(queried, { Origin: w.origin, ...oldCookie }, [])).rejects.toThrow('refused: 401');
  });

  it(`${WIRE_AUTH_PATH} tells a page whether its token opens the socket`, async () => {
    w = await startWebHarness();
    expect((await w.get(WIRE_AUTH_PATH, { Authorization: `Bearer ${w.token}` })).status).toBe(204);
    expect((await w.get(WIRE_AUTH_PATH, { Authorization: `Bearer ${newToken()}` })).status).toBe(401);
    expect((await w.get(WIRE_AUTH_PATH, { Authorization: w.token })).status).toBe(401);
    expect((await w.get(WIRE_AUTH_PATH)).status).toBe(401);
  });

  it('the printed URL carries the token only in its fragment, which no browser sends', async () => {
    w = await startWebHarness();
    const printed = new URL(w.server.url);
    expect(printed.search).toBe('');
    expect(printed.pathname).toBe('/');
    expect(new URLSearchParams(printed.hash.slice(1)).get('token')).toBe(w.token);
  });

  it('compares in constant time on digests, and tells only equal tokens apart as equal', () => {
    const token = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(token, token.slice(1))).toBe(false);
    expect(tokenMatches(token, undefined)).toBe(false);
    expect(tokenMatches(token, '')).toBe(false);
  });

  it('reads the token from the offered subprotocols only beside the wire protocol', () => {
    expect(offeredToken(`${WIRE_PROTOCOL}, ${WIRE_TOKEN_PROTOCOL}abc`)).toBe('abc');
    expect(offeredToken(`${WIRE_TOKEN_PROTOCOL}abc,${WIRE_PROTOCOL}`)).toBe('abc');
    expect(offeredToken(`${WIRE_TOKEN_PROTOCOL}abc`)).toBeNull();
    expect(offeredToken(WIRE_PROTOCOL)).toBeNull();
    expect(offeredToken(undefined)).toBeNull();
  });
});

describe('the one-time URL (what npm start hands the browser on its command line)', () => {
  const pathOf = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };

  it('carries no token; it works once, redirecting to /#token=, and then never again', async () => {
    w = await startWebHarness();
    const url = w.server.oneTimeUrl();
    expect(url).not.toContain(w.token);
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${w.port}/\\?code=[A-Za-z0-9_-]{32}$`));
    const first = await w.get(pathOf(url));
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe(`/#token=${w.token}`);
    expect(first.headers['set-cookie']).toBeUndefined();
    const second = await w.get(pathOf(url));
    expect(second.status).toBe(401);
    expect(second.body).toContain('works once');
    expect(second.body).not.toContain(w.token);
  });

  it('expires 60 s after it was made (the clock is injected)', async () => {
    let now = 1_000_000;
    w = await startWebHarness({ now: () => now });
    const late = w.server.oneTimeUrl();
    const inTime = w.server.oneTimeUrl();
    now += CODE_LIFETIME_MS - 1;
    expect((await w.get(pathOf(inTime))).status).toBe(303);
    now += 1;
    expect((await w.get(pathOf(late))).status).toBe(401);
  });

  it('each URL has its own code; a made-up code, HEAD, or a foreign Host spends nothing', async () => {
    w = await startWebHarness();
    const a = w.server.oneTimeUrl();
    const b = w.server.oneTimeUrl();
    expect(a).not.toBe(b);
    expect((await w.get('/?code=made-up')).status).toBe(401);
    expect((await w.get(`/?code=${new URL(a).searchParams.get('code')!}x`)).status).toBe(401);
    expect((await w.get(pathOf(a), { Host: `evil.example:${w.port}` })).status).toBe(403);
    expect((await httpHead(w.port, pathOf(a))).status).toBe(200);
    expect((await w.get(pathOf(b))).status).toBe(303);
    expect((await w.get(pathOf(a))).status).toBe(303);
  });

  it('the codes keep only the newest few, and an unknown code is never a match', () => {
    let now = 0;
    const codes = new OneTimeCodes(() => now);
    const first = codes.mint();
    const rest = Array.from({ length: 16 }, () => codes.mint());
    expect(codes.redeem(first)).toBeNull();
    expect(codes.redeem(null)).toBeNull();
    expect(codes.redeem('')).toBeNull();
    expect(codes.redeem(rest[0]!)).toEqual({ session: null });
    now += CODE_LIFETIME_MS;
    expect(codes.redeem(rest.at(-1)!)).toBeNull();
  });

  it('names the session to show first, as the printed URL does (npm start -- FOLDER)', async () => {
    w = await startWebHarness();
    const reply = await w.get(pathOf(w.server.oneTimeUrl('s-1')));
    expect(reply.headers.location).toBe(`/#token=${w.token}&session=s-1`);
    expect(w.server.tokenUrl('s-1')).toBe(`${w.origin}/#token=${w.token}&session=s-1`);
    expect(w.server.tokenUrl(null)).toBe(w.server.url);
  });
});

describe('Host and Origin', () => {
  it('refuses a request naming another Host (DNS rebinding)', async () => {
    w = await startWebHarness();
    for (const host of [`evil.example:${w.port}`, `127.0.0.1:${w.port + 1}`, 'localhost']) {
      for (const p of ['/', WIRE_AUTH_PATH]) {
        const reply = await w.get(p, { Host: host, Authorization: `Bearer ${w.token}` });
        expect(reply.status).toBe(403);
      }
    }
    expect((await w.get('/', { Host: `localhost:${w.port}` })).status).toBe(200);
  });

  it('refuses a socket from another origin, or with none, even with the token', async () => {
    w = await startWebHarness();
    for (const origin of ['http://evil.example', `http://localhost:${w.port}`, `https://127.0.0.1:${w.port}`]) {
      await expect(w.socket({ Origin: origin })).rejects.toThrow('refused: 403');
    }
    await expect(w.socket({})).rejects.toThrow('refused: 403');
    await expect(w.socket({ Origin: w.origin, Host: `evil.example:${w.port}` })).rejects.toThrow('refused: 403');
  });
});

describe('responses', () => {
  it('carry the strict CSP, nosniff and no-referrer, refused ones included', async () => {
    w = await startWebHarness();
    for (const reply of [await w.get('/'), await w.get('/', { Host: 'evil.example' }), await w.get('/?code=x')]) {
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
    const js = await w.get('/assets/app.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await w.get('/assets/app.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await w.get('/')).headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await w.get('/missing.js')).status).toBe(404);
    expect((await w.get('/assets')).status).toBe(404);
    expect((await w.get('/favicon.ico')).status).toBe(204);
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
      const reply = await w.get(p);
      expect(reply.status, p).toBe(404);
      expect(reply.body).not.toContain('top secret');
    }
  });

  it('refuse methods other than GET and HEAD', async () => {
    w = await startWebHarness();
    const reply = await new Promise<number>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request({ host: '127.0.0.1', port: w!.port, path: '/', method: 'POST' }, (res) =>
          resolve(res.statusCode ?? 0),
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

function httpHead(port: number, urlPath: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: urlPath, method: 'HEAD', agent: false }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    req.on('error', reject);
    req.end();
  });
}
