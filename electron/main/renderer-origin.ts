/**
 * Where the window's page comes from, and how the shell recognises it. In production the
 * built renderer is served from our own privileged scheme (gatehouse://app/), not file://,
 * so the page has a real origin, gets its CSP as a header, and no other local file is
 * reachable from it. In development electron-vite's dev server serves it instead.
 */
export const APP_SCHEME = 'gatehouse';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/**
 * The dev server's URL (ELECTRON_RENDERER_URL) when it may be used: only outside a package.
 * The page it names is trusted with IPC, gets a wider CSP and DevTools, so in an installed
 * app anyone who could set its environment could otherwise hand it their own page.
 */
export function devServerUrlFor(isPackaged: boolean, fromEnv: string | undefined): string | undefined {
  if (isPackaged || !fromEnv) return undefined;
  return fromEnv;
}

/** The page to load: the dev server's URL when electron-vite runs one, else our scheme. */
export function rendererStartUrl(devServerUrl: string | undefined): string {
  return devServerUrl ?? APP_START_URL;
}

/** True for a URL of our own renderer (the app scheme, or the dev server's origin in development). */
export function isRendererUrl(url: string, devServerUrl: string | undefined): boolean {
  const origin = originOf(url);
  if (origin === null) return false;
  if (origin === APP_ORIGIN) return true;
  return devServerUrl !== undefined && origin === originOf(devServerUrl);
}

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    // URL gives "null" as the origin of non-special schemes; build ours by hand.
    return parsed.protocol === `${APP_SCHEME}:` ? `${APP_SCHEME}://${parsed.host}` : parsed.origin;
  } catch {
    return null;
  }
}
