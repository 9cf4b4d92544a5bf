/**
 * Electron's security checklist (https://www.electronjs.org/docs/latest/tutorial/security),
 * item by item, asserted against the running shell over the fake electron module. Items
 * that do not apply say why in their test name and assert the reason instead.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CALL_NAMES } from '../../../../shared/contract.js';
import { contentSecurityPolicy } from '../../../../electron/main/csp.js';
import { REFUSED_SENDER } from '../../../../electron/main/ipc.js';
import { callChannel } from '../../../../electron/main/ipc-channels.js';
import { APP_START_URL } from '../../../../electron/main/renderer-origin.js';
import { buildGatehouseApi } from '../../../../electron/preload/gatehouse-api.js';
import { FakeEvent } from './fake-electron.js';
import { startShell, type Shell } from './shell-harness.js';

const repo = path.resolve(import.meta.dirname, '../../../..');
let shell: Shell;
beforeAll(async () => {
  shell = await startShell();
});
afterAll(() => shell.close());

const prefs = () => shell.window().options.webPreferences!;

describe("Electron's security checklist", () => {
  it('1. only secure content: the page comes from our own secure scheme, and the CSP allows no http:', () => {
    expect(shell.window().loaded).toEqual([APP_START_URL]);
    expect(shell.fake.privilegedSchemes).toMatchObject([{ scheme: 'gatehouse', privileges: { secure: true } }]);
    expect(contentSecurityPolicy()).not.toMatch(/http:|ws:/);
  });

  it('2. no Node.js integration for the page, its workers or subframes', () => {
    expect(prefs()).toMatchObject({
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
    });
  });

  it('3. context isolation is on', () => {
    expect(prefs().contextIsolation).toBe(true);
  });

  it('4. the renderer is sandboxed', () => {
    expect(prefs().sandbox).toBe(true);
  });

  it('5. the session denies every permission request', () => {
    const answers: boolean[] = [];
    shell.fake.defaultSession.permissionRequest!({}, 'media', (granted) => answers.push(granted));
    expect(answers).toEqual([false]);
    expect(shell.fake.defaultSession.permissionCheck!({}, 'clipboard-read')).toBe(false);
  });

  it('6. webSecurity is not disabled', () => {
    expect(prefs().webSecurity).toBe(true);
  });

  it('7. a Content-Security-Policy is set on every response', () => {
    let headers: Record<string, string[]> | undefined;
    shell.fake.defaultSession.headersListener!({ url: APP_START_URL }, (r) => (headers = r.responseHeaders));
    expect(headers!['Content-Security-Policy']).toEqual([contentSecurityPolicy()]);
    expect(contentSecurityPolicy()).toContain("script-src 'self'");
    expect(contentSecurityPolicy()).not.toContain("'unsafe-eval'");
  });

  it('8. allowRunningInsecureContent is off', () => {
    expect(prefs().allowRunningInsecureContent).toBe(false);
  });

  it('9. experimental features are off', () => {
    expect(prefs().experimentalFeatures).toBe(false);
  });

  it('10. no enableBlinkFeatures', () => {
    expect(prefs()).not.toHaveProperty('enableBlinkFeatures');
  });

  it('11 and 12. <webview> allowpopups and options: do not apply, no webview can exist (the tag is off and attaching is refused)', () => {
    expect(prefs().webviewTag).toBe(false);
    const event = new FakeEvent();
    shell.window().webContents.emit('will-attach-webview', event, {}, {});
    expect(event.prevented).toBe(true);
  });

  it('13. navigation is limited to the app', () => {
    expect(shell.window().webContents.navigate('will-navigate', 'https://attacker.example/')).toBe(false);
    expect(shell.window().webContents.navigate('will-navigate', 'file:///etc/passwd')).toBe(false);
  });

  it('14. no new windows', () => {
    expect(shell.window().webContents.openHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(shell.fake.windows).toHaveLength(1);
  });

  it('15. shell.openExternal only ever gets https: URLs', () => {
    const before = shell.fake.externalUrls.length;
    for (const url of [
      'file:///bin/sh',
      'smb://host/share',
      'javascript:alert(1)',
      'http://example.com/',
      'ms-msdt:x',
    ]) {
      shell.window().webContents.openHandler!({ url });
      shell.window().webContents.navigate('will-navigate', url);
    }
    expect(shell.fake.externalUrls.length).toBe(before);
  });

  it('16. a current Electron (45 or later, which embeds Node 24)', () => {
    const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(Number(pkg.devDependencies.electron!.match(/\d+/)![0])).toBeGreaterThanOrEqual(45);
  });

  it('17. every IPC message has its sender checked', async () => {
    for (const name of CALL_NAMES) {
      const reply = await shell.fake.invoke(callChannel(name), {}, { url: 'https://evil.example/', parent: null });
      expect(reply).toEqual({ ok: false, error: REFUSED_SENDER });
    }
  });

  it('18. no file:// page: the renderer is served from a custom protocol, and file:// frames are refused', async () => {
    expect(shell.fake.protocolHandlers.has('gatehouse')).toBe(true);
    expect(shell.window().loaded.some((url) => url.startsWith('file:'))).toBe(false);
    const reply = await shell.fake.invoke(
      callChannel('sessions.list'),
      {},
      { url: 'file:///x/index.html', parent: null },
    );
    expect(reply).toEqual({ ok: false, error: REFUSED_SENDER });
  });

  it('19. fuses: the packaged binary cannot run as Node, take NODE_OPTIONS or --inspect, or load code outside its archive', () => {
    const config = parse(readFileSync(path.join(repo, 'electron-builder.yml'), 'utf8')) as {
      electronFuses: Record<string, boolean>;
    };
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('20. no Electron API reaches the page: only the contract calls, subscribe and getPathForFile', () => {
    const api = buildGatehouseApi({ invoke: async () => null, on: () => undefined }, { getPathForFile: () => '' });
    expect(Object.keys(api).sort()).toEqual([...CALL_NAMES, 'getPathForFile', 'subscribe'].sort());
    const preload = readFileSync(path.join(repo, 'electron/preload/index.ts'), 'utf8');
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    expect(preload).toContain("exposeInMainWorld('gatehouse', buildGatehouseApi(ipcRenderer, webUtils))");
  });
});
