/**
 * ELECTRON_RENDERER_URL is electron-vite's development switch (SPEC §11): a packaged app
 * ignores it, and so loads its own page, keeps the strict CSP, offers no DevTools, trusts
 * no IPC from that URL and lets no navigation go there. Unpackaged, it works as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../../../electron/main/csp.js';
import { callChannel } from '../../../../electron/main/ipc-channels.js';
import { REFUSED_SENDER } from '../../../../electron/main/ipc.js';
import { APP_START_URL } from '../../../../electron/main/renderer-origin.js';
import { startShell, type Shell } from './shell-harness.js';

const DEV_URL = 'http://localhost:5173/';

let shell: Shell | undefined;
afterEach(async () => {
  await shell?.close();
  shell = undefined;
});

/** The CSP the window's session puts on a response. */
function cspOf(s: Shell): string[] | undefined {
  let headers: Record<string, string[]> | undefined;
  s.fake.defaultSession.headersListener!({ url: APP_START_URL }, (r) => (headers = r.responseHeaders));
  return headers?.['Content-Security-Policy'];
}

function viewRoles(s: Shell): (string | undefined)[] {
  return (s.fake.applicationMenu()!.item('View').submenu as { role?: string }[]).map((i) => i.role);
}

/** An IPC call from the dev server's page, as its top frame. */
function callFromDevPage(s: Shell): Promise<unknown> {
  return s.fake.invoke(callChannel('sessions.list'), {}, { url: `${DEV_URL}index.html`, parent: null });
}

describe('ELECTRON_RENDERER_URL in a packaged app', () => {
  it('is ignored: our page, the strict CSP, no DevTools, no IPC or navigation for that URL', async () => {
    shell = await startShell({ isPackaged: true, devServerUrl: DEV_URL });
    expect(shell.window().loaded).toEqual([APP_START_URL]);
    expect(cspOf(shell)).toEqual([contentSecurityPolicy()]);
    expect(cspOf(shell)?.join()).not.toContain('localhost:5173');
    expect(viewRoles(shell)).not.toContain('toggleDevTools');
    expect(await callFromDevPage(shell)).toEqual({ ok: false, error: REFUSED_SENDER });
    expect(shell.window().webContents.navigate('will-navigate', DEV_URL)).toBe(false);
    expect(shell.logs).toContain('ELECTRON_RENDERER_URL is ignored in a packaged app');
  });
});

describe('ELECTRON_RENDERER_URL in development (unpackaged)', () => {
  it('loads the dev server, widens the CSP for it, offers DevTools and trusts its IPC', async () => {
    shell = await startShell({ isPackaged: false, devServerUrl: DEV_URL });
    expect(shell.window().loaded).toEqual([DEV_URL]);
    expect(cspOf(shell)).toEqual([contentSecurityPolicy(DEV_URL)]);
    expect(cspOf(shell)?.join()).toContain('http://localhost:5173');
    expect(viewRoles(shell)).toContain('toggleDevTools');
    expect(await callFromDevPage(shell)).toMatchObject({ ok: true });
    expect(shell.window().webContents.navigate('will-navigate', DEV_URL)).toBe(true);
  });

  it('without it, loads our page as a package does', async () => {
    shell = await startShell({ isPackaged: false });
    expect(shell.window().loaded).toEqual([APP_START_URL]);
    expect(viewRoles(shell)).not.toContain('toggleDevTools');
  });
});
