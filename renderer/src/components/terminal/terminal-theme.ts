/**
 * The terminal's colours come from the app's theme variables (styles/theme.css), read when
 * the panel opens and again whenever the OS switches between light and dark.
 */
import type { ITheme } from '@xterm/xterm';

export function terminalTheme(root: Element = document.documentElement): ITheme {
  const css = getComputedStyle(root);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    background: v('--bg-subtle', '#f6f7f9'),
    foreground: v('--fg', '#1b1f24'),
    cursor: v('--accent', '#2f6fde'),
    cursorAccent: v('--bg-subtle', '#f6f7f9'),
    selectionBackground: v('--diff-add-strong', '#b7e1c1'),
  };
}

export function terminalFont(root: Element = document.documentElement): string {
  return getComputedStyle(root).getPropertyValue('--font-mono').trim() || 'monospace';
}

/** Calls `onChange` when the OS colour scheme flips; returns the unsubscribe. */
export function onSchemeChange(onChange: () => void): () => void {
  const query = window.matchMedia?.('(prefers-color-scheme: dark)');
  if (!query) return () => undefined;
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
