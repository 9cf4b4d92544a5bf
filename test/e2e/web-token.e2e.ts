/**
 * The web host's token stays with the page (issue 15, item 5). In Chromium: no cookie is
 * ever set and the address bar drops the token, so another server on another loopback port
 * (which a cookie would have reached: cookies ignore ports) hears nothing of it; a tab
 * without the token opens no socket; a reload keeps working from sessionStorage; a page
 * holding a token the host does not take says so; and the launch page `npm start` opens
 * the browser on (issue 19, item 7) takes the browser in once, then is gone, and the link it
 * held never works again.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { startWebHost as startHostInProcess } from '../../electron/web/start-web-host.js';
import { freshContext } from './harness/chromium.js';
import { useWorld } from './harness/e2e-world.js';
import { GatehousePage, visible } from './harness/gatehouse-page.js';
import { fakeModelConfig, makeTempFolders } from './harness/temp-folders.js';

const world = useWorld('web-token');

const TOKEN_KEY = 'gatehouse.token';

function tokenOf(url: string): string {
  return new URLSearchParams(new URL(url).hash.slice(1)).get('token') ?? '';
}

interface Heard {
  url: string;
  headers: string[];
}

/** A plain HTTP server on another loopback port that writes down every request it gets. */
async function eavesdropper(): Promise<{ port: number; heard: Heard[]; close(): Promise<void> }> {
  const heard: Heard[] = [];
  const server = http.createServer((req, res) => {
    heard.push({ url: req.url ?? '', headers: req.rawHeaders });
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>elsewhere</title><p>elsewhere');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    heard,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the token stays with the page', () => {
  test('no cookie, none in the address bar, and a server on another loopback port hears no token', async () => {
    const { ui, context, host } = world;
    const token = tokenOf(host.url);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(ui.page.url()).not.toContain(token);
    expect(new URL(ui.page.url()).hash).toBe('');
    expect(await context.cookies()).toEqual([]);
    expect(await ui.page.evaluate((key) => sessionStorage.getItem(key), TOKEN_KEY)).toBe(token);

    const other = await eavesdropper();
    try {
      const elsewhere = await context.newPage();
      for (const name of ['127.0.0.1', 'localhost']) {
        await elsewhere.goto(`http://${name}:${other.port}/probe`);
        await visible(elsewhere.getByText('elsewhere'), `the other server's page on ${name}`);
        expect(await elsewhere.evaluate('document.cookie')).toBe('');
      }
      // The app's own tab goes there too, then back to the bare address: sessionStorage (this
      // origin's, port included) still holds the token, and nothing went along.
      await ui.page.goto(`http://127.0.0.1:${other.port}/from-app`);
      await ui.goto(`http://127.0.0.1:${host.port}/`);
      const pages = other.heard.map((h) => h.url).filter((url) => url !== '/favicon.ico');
      expect(pages).toEqual(['/probe', '/probe', '/from-app']);
      for (const request of other.heard) {
        expect(request.url).not.toContain(token);
        expect(request.headers.join('\n')).not.toContain(token);
        expect(request.headers.map((h) => h.toLowerCase())).not.toContain('cookie');
      }
      await elsewhere.close();
    } finally {
      await other.close();
    }
    expect(await context.cookies()).toEqual([]);
  });

  test('a reload keeps working from sessionStorage: a new session opens over the socket', async () => {
    const { ui } = world;
    await ui.page.reload();
    await visible(ui.sidebar(), 'the sidebar after the reload');
    await ui.openWorkspace(await world.folders.workspace('after-reload-ws'));
    await visible(ui.tabs().filter({ hasText: 'after-reload-ws' }), 'the tab of the session opened after the reload');
  });

  test('a tab that was never given the token (the old cookie is no key) opens no socket, and says which URL to open', async () => {
    const context = await freshContext(world.browser);
    try {
      const token = tokenOf(world.host.url);
      await context.addCookies([
        { name: `gatehouse_${world.host.port}`, value: token, domain: '127.0.0.1', path: '/' },
      ]);
      const page = await context.newPage();
      const sockets: string[] = [];
      page.on('websocket', (ws) => sockets.push(ws.url()));
      await page.goto(`http://127.0.0.1:${world.host.port}/`);
      await visible(page.getByRole('heading', { name: 'This page has no access token' }), 'the no-token notice');
      expect(await page.getByRole('navigation', { name: 'Sessions' }).count()).toBe(0);
      expect(sockets).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('a token the host does not take: the page says so and stops trying', async () => {
    const context = await freshContext(world.browser);
    try {
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${world.host.port}/#token=${'x'.repeat(43)}`);
      await visible(
        page.getByRole('heading', { name: /access token was refused/ }),
        'the notice that the token was refused',
      );
      expect(await page.evaluate((key) => sessionStorage.getItem(key), TOKEN_KEY)).toBeNull();
    } finally {
      await context.close();
    }
  });
});

describe("npm start's launch page", () => {
  test('holds no token; in Chromium it opens the app once and is deleted, and its link is refused after', async () => {
    const folders = await makeTempFolders(fakeModelConfig(world.fake.openaiBaseURL));
    const host = await startHostInProcess({
      dataDir: folders.dataDir,
      port: 0,
      home: folders.home,
      env: { PATH: process.env.PATH, HOME: folders.home },
    });
    const contexts = [await freshContext(world.browser), await freshContext(world.browser)];
    try {
      const token = tokenOf(host.url);
      const launch = await host.launchPage();
      const html = await fs.readFile(launch, 'utf8');
      expect(html).not.toContain(token);
      const url = /url=(http:\/\/127\.0\.0\.1:\d+\/\?code=[A-Za-z0-9_-]+)"/.exec(html)?.[1] ?? '';
      expect(url).not.toBe('');

      const ui = new GatehousePage(await contexts[0]!.newPage());
      await ui.goto(pathToFileURL(launch).href);
      await expect
        .poll(() => ui.page.url(), { timeout: 30_000, message: 'the launch page sent the browser on' })
        .toBe(`http://127.0.0.1:${host.server.port}/`);
      await expect(fs.access(launch)).rejects.toThrow();
      expect(await ui.page.evaluate((key) => sessionStorage.getItem(key), TOKEN_KEY)).toBe(token);
      expect(await contexts[0]!.cookies()).toEqual([]);
      await ui.openWorkspace(await folders.workspace('one-time-ws'));

      const again = await contexts[1]!.newPage();
      const reply = await again.goto(url);
      expect(reply?.status()).toBe(401);
      await visible(again.getByText(/works once/), 'the page saying the link was used');
    } finally {
      for (const context of contexts) await context.close().catch(() => undefined);
      await host.close();
      await folders.remove();
    }
  });
});
