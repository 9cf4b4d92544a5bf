/**
 * The electron-builder config (npm run dist cannot run here: it downloads Electron), held
 * to what the app needs at run time: the bundle, the unpacked native module and ripgrep
 * binary, the icons where resources.ts looks, and the four targets.
 */
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { rgPath } from '@vscode/ripgrep';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repo = path.resolve(import.meta.dirname, '../../../..');
const config = parse(readFileSync(path.join(repo, 'electron-builder.yml'), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
  main: string;
  scripts: Record<string, string>;
};

/** electron-builder's globs here only use a trailing /** : a prefix match is enough. */
function unpacks(file: string): boolean {
  const relative = path.relative(repo, file).split(path.sep).join('/');
  return (config.asarUnpack as string[]).some((glob) => {
    const prefix = glob.replace(/\/\*\*$/, '');
    const pattern = new RegExp(`^${prefix.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}/`);
    return pattern.test(relative);
  });
}

describe('electron-builder.yml', () => {
  it('names the app and its id', () => {
    expect(config.appId).toBe('dev.gatehouse.app');
    expect(config.productName).toBe('Gatehouse');
    expect(config.directories.buildResources).toBe('build');
  });

  it('builds AppImage and deb on Linux, dmg on macOS, nsis on Windows', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('packs the electron-vite output, and package.json points at the main bundle', () => {
    expect(config.files).toContain('out/**');
    expect(config.files).toContain('package.json');
    expect(pkg.main).toBe('out/main/index.js');
    expect(pkg.scripts.dist).toBe('npm run build && electron-builder');
    expect(pkg.scripts.build).toContain('electron-vite');
  });

  it('unpacks node-pty and the real ripgrep binary from the archive', () => {
    expect(unpacks(path.join(repo, 'node_modules/node-pty/build/Release/pty.node'))).toBe(true);
    expect(unpacks(rgPath)).toBe(true);
    expect(unpacks(path.join(repo, 'node_modules/zod/index.js'))).toBe(false);
  });

  it('never rebuilds node-pty (a Node-API module loads in Electron as built)', () => {
    expect(config.npmRebuild).toBe(false);
  });

  it('copies the icons to where resources.ts looks in a package, and they exist', () => {
    expect(config.extraResources).toEqual([
      { from: 'build/icon.png', to: 'icon.png' },
      { from: 'build/tray', to: 'tray' },
    ]);
    for (const icon of ['build/icon.png', 'build/tray/tray.png', 'build/tray/tray@2x.png']) {
      expect(existsSync(path.join(repo, icon))).toBe(true);
    }
    const png = readFileSync(path.join(repo, 'build/icon.png'));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);
  });
});
