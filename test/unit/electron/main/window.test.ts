/**
 * The window and its page: isolated, sandboxed, no Node; a strict CSP; navigation,
 * window.open and webviews denied; links out only as https: through the OS; permissions
 * denied; the size and place remembered.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, installCsp } from '../../../../electron/main/csp.js';
import { APP_START_URL } from '../../../../electron/main/renderer-origin.js';
import { createMainWindow, denyPermissions, hardenContents } from '../../../../electron/main/window.js';
import { loadWindowState, saveWindowState } from '../../../../electron/main/window-state.js';
import { createFakeElectron, FakeEvent, FakeSession, FakeWebContents } from './fake-electron.js';

function openWindow(devServerUrl?: string) {
  const fake = createFakeElectron();
  const window = createMainWindow(fake.electron, {
    preload: '/app/out/preload/index.cjs',
    startUrl: APP_START_URL,
    devServerUrl,
    state: null,
  });
  return { fake, window: fake.windows[0]!, created: window };
}

describe('the window', () => {
  it('is isolated and sandboxed, without Node, webviews or insecure content', () => {
    const { window } = openWindow();
    expect(window.options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
  });

  it('shows only when ready, so no blank frame flashes', () => {
    const { window } = openWindow();
    expect(window.options.show).toBe(false);
    window.emit('ready-to-show');
    expect(window.shown).toBe(1);
  });

  it('stays on the app: navigation elsewhere is stopped, and an https: target opens in the OS browser', () => {
    const { window, fake } = openWindow();
    const contents = window.webContents;
    expect(contents.navigate('will-navigate', 'gatehouse://app/index.html#/s/1')).toBe(true);
    expect(contents.navigate('will-navigate', 'https://example.com/')).toBe(false);
    expect(contents.navigate('will-redirect', 'http://example.com/')).toBe(false);
    expect(contents.navigate('will-navigate', 'file:///etc/passwd')).toBe(false);
    expect(fake.externalUrls).toEqual(['https://example.com/']);
  });

  it('denies window.open, handing only https: links to the OS', () => {
    const { window, fake } = openWindow();
    const open = window.webContents.openHandler!;
    expect(open({ url: 'https://docs.example.com/x' })).toEqual({ action: 'deny' });
    expect(open({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(open({ url: 'file:///home/user/.ssh/id_rsa' })).toEqual({ action: 'deny' });
    expect(open({ url: 'gatehouse://app/index.html' })).toEqual({ action: 'deny' });
    expect(fake.externalUrls).toEqual(['https://docs.example.com/x']);
  });

  it('never attaches a webview', () => {
    const { window } = openWindow();
    const event = new FakeEvent();
    window.webContents.emit('will-attach-webview', event, {}, {});
    expect(event.prevented).toBe(true);
  });

  it('hardens a web contents once, so a link is never opened twice', () => {
    const fake = createFakeElectron();
    const contents = new FakeWebContents(new FakeSession());
    hardenContents(contents, fake.electron.shell, undefined);
    hardenContents(contents, fake.electron.shell, undefined);
    expect(contents.count('will-navigate')).toBe(1);
    contents.navigate('will-navigate', 'https://example.com/');
    expect(fake.externalUrls).toEqual(['https://example.com/']);
  });

  it('denies every permission request and check', () => {
    const session = new FakeSession();
    denyPermissions(session);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'hid']) {
      const answers: boolean[] = [];
      session.permissionRequest!({}, permission, (granted) => answers.push(granted));
      expect(answers).toEqual([false]);
      expect(session.permissionCheck!({}, permission)).toBe(false);
    }
  });
});

describe('the CSP', () => {
  const directives = (policy: string) =>
    Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));

  it('allows no inline script, no remote origin, images from the app or data:, and no connections', () => {
    const csp = directives(contentSecurityPolicy());
    expect(csp['default-src']).toBe("'none'");
    expect(csp['script-src']).toBe("'self'");
    expect(csp['img-src']).toBe("'self' data:");
    expect(csp['connect-src']).toBe("'none'");
    expect(csp['object-src']).toBe("'none'");
    expect(csp['frame-src']).toBe("'none'");
    expect(csp['base-uri']).toBe("'none'");
    expect(contentSecurityPolicy()).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(csp['script-src']).not.toContain('unsafe-inline');
  });

  it('in development allows the dev server and its hot-reload socket, nothing more', () => {
    const csp = directives(contentSecurityPolicy('http://localhost:5173/'));
    expect(csp['script-src']).toBe("'self' http://localhost:5173");
    expect(csp['connect-src']).toBe("'self' http://localhost:5173 ws://localhost:5173");
    expect(csp['img-src']).toBe("'self' data:");
  });

  it('is put on every response of the session', () => {
    const session = new FakeSession();
    installCsp(session);
    let headers: Record<string, string[]> | undefined;
    session.headersListener!({ url: 'gatehouse://app/index.html', responseHeaders: { 'X-A': ['1'] } }, (r) => {
      headers = r.responseHeaders;
    });
    expect(headers).toEqual({ 'X-A': ['1'], 'Content-Security-Policy': [contentSecurityPolicy()] });
  });
});

describe('window state', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('restores a saved size and place that a display still shows, and drops one off screen', async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-window-'));
    const display = [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }];
    await saveWindowState(dir, { x: 100, y: 50, width: 1000, height: 700, maximized: true });
    expect(await loadWindowState(dir, display)).toEqual({ x: 100, y: 50, width: 1000, height: 700, maximized: true });
    await saveWindowState(dir, { x: 5000, y: 50, width: 1000, height: 700, maximized: false });
    expect(await loadWindowState(dir, display)).toBeNull();
    await fs.writeFile(path.join(dir, 'window-state.json'), '{"x":"no"}');
    expect(await loadWindowState(dir, display)).toBeNull();
  });

  it('opens the window where it was, maximized if it was', () => {
    const fake = createFakeElectron();
    createMainWindow(fake.electron, {
      preload: '/p',
      startUrl: APP_START_URL,
      devServerUrl: undefined,
      state: { x: 10, y: 20, width: 900, height: 600, maximized: true },
    });
    expect(fake.windows[0]!.options).toMatchObject({ x: 10, y: 20, width: 900, height: 600 });
    expect(fake.windows[0]!.maximized).toBe(true);
  });
});
