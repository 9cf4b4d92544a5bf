/**
 * Whether an Electron window can start here, found without side effects: requiring the
 * `electron` package would try to download its binary (Electron 42 and later fetch it on
 * first use), which on a machine without network hangs and fails. So this reads the
 * package's path.txt and checks the file, and on Linux that a display exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type ElectronCheck = { ok: true; binary: string } | { ok: false; reason: string };

export const NO_BINARY =
  'No Electron binary here (it downloads on first launch and this machine cannot) — serving the same app in your browser instead';
export const NO_DISPLAY =
  'No display (neither DISPLAY nor WAYLAND_DISPLAY is set) — serving the same app in your browser instead';

/** The Electron executable inside node_modules/electron, or null when it was never downloaded. */
export function electronBinary(electronDir: string, env: NodeJS.ProcessEnv): string | null {
  const pathFile = path.join(electronDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const dist = env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(electronDir, 'dist');
  if (!relative && !env.ELECTRON_OVERRIDE_DIST_PATH) return null;
  const binary = path.join(dist, relative || 'electron');
  return existsSync(binary) ? binary : null;
}

export function hasDisplay(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean {
  if (platform !== 'linux') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

export function checkElectron(electronDir: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): ElectronCheck {
  const binary = electronBinary(electronDir, env);
  if (binary === null) return { ok: false, reason: NO_BINARY };
  if (!hasDisplay(platform, env)) return { ok: false, reason: NO_DISPLAY };
  return { ok: true, binary };
}
