/**
 * Which links in model output may be followed (UI.md, Untrusted content): only https:, and
 * only on a click. Anything else is shown as text, so a javascript:, file: or custom-scheme
 * link can do nothing.
 */
export function followableUrl(href: string | undefined): string | null {
  if (!href) return null;
  try {
    const url = new URL(href);
    return url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Opens outside the app: the Electron shell routes window.open to the OS browser. */
export function openExternally(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}
