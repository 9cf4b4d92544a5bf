/**
 * Finding the files the app needs at run time, in the dev tree and in a package. In a
 * package the code sits in resources/app.asar, but an executable or a native module inside
 * an asar archive cannot be run, so ripgrep and node-pty are unpacked beside it
 * (app.asar.unpacked, electron-builder's asarUnpack), and the icons are copied to
 * resources/ (extraResources).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as NodePty from 'node-pty';
import type { PtyOptions, PtyProcess, SpawnPty } from '../core/terminal/pty-spawn.js';

export interface AppLayout {
  isPackaged: boolean;
  /** app.getAppPath(): the repo root in development, resources/app.asar in a package. */
  appPath: string;
  /** process.resourcesPath */
  resourcesPath: string;
}

export interface Resources {
  ripgrep: string;
  /** node-pty's package folder. */
  nodePty: string;
  /** The window and dock icon (512×512). */
  icon: string;
  /** The tray icon (16×16, with tray@2x.png beside it for high-density screens). */
  trayIcon: string;
}

/** The path a packed file really has on disk: inside app.asar.unpacked rather than app.asar. */
export function unpackedPath(file: string): string {
  return file.replace(/([\\/])app\.asar(?=[\\/])/, '$1app.asar.unpacked');
}

export function locateResources(layout: AppLayout, modules: { rgPath: string; nodePtyPackageJson: string }): Resources {
  const icons = layout.isPackaged ? layout.resourcesPath : path.join(layout.appPath, 'build');
  return {
    ripgrep: unpackedPath(modules.rgPath),
    nodePty: unpackedPath(path.dirname(modules.nodePtyPackageJson)),
    icon: path.join(icons, 'icon.png'),
    trayIcon: path.join(icons, 'tray', 'tray.png'),
  };
}

/** The resources that are not where they should be (an incomplete package). */
export function missingResources(resources: Resources): string[] {
  const checks: [string, string][] = [
    ['ripgrep', resources.ripgrep],
    ['node-pty', path.join(resources.nodePty, 'package.json')],
    ['icon', resources.icon],
    ['tray icon', resources.trayIcon],
  ];
  return checks.filter(([, file]) => !existsSync(file)).map(([name, file]) => `${name} (${file})`);
}

/** node-pty's spawn, loaded from the located (unpacked) folder on the first terminal. */
export function ptySpawnFrom(nodePtyDir: string): SpawnPty {
  return (file: string, args: string[], options: PtyOptions): PtyProcess => {
    const pty = createRequire(path.join(nodePtyDir, 'package.json'))('./') as typeof NodePty;
    return pty.spawn(file, args, options);
  };
}
