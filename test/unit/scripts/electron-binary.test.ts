/**
 * npm start decides between the Electron window and the web host without touching the
 * network: a binary listed in path.txt that exists, and on Linux a display.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkElectron, NO_BINARY, NO_DISPLAY } from '../../../scripts/electron-binary.js';
import { folderArgs } from '../../../scripts/electron-start.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function electronPackage(withBinary: boolean): Promise<string> {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-electron-'));
  if (withBinary) {
    await fs.writeFile(path.join(dir, 'path.txt'), 'electron');
    await fs.mkdir(path.join(dir, 'dist'));
    await fs.writeFile(path.join(dir, 'dist', 'electron'), '');
  }
  return dir;
}

describe('can Electron start here', () => {
  it('not when the binary was never downloaded (as on this machine)', async () => {
    expect(checkElectron(await electronPackage(false), 'linux', { DISPLAY: ':0' })).toEqual({
      ok: false,
      reason: NO_BINARY,
    });
  });

  it('not when path.txt names a binary that is missing', async () => {
    const pkg = await electronPackage(false);
    await fs.writeFile(path.join(pkg, 'path.txt'), 'electron');
    expect(checkElectron(pkg, 'linux', { DISPLAY: ':0' })).toMatchObject({ ok: false, reason: NO_BINARY });
  });

  it('not on Linux without a display', async () => {
    expect(checkElectron(await electronPackage(true), 'linux', {})).toEqual({ ok: false, reason: NO_DISPLAY });
  });

  it('yes with a binary and an X or Wayland display, or on macOS and Windows', async () => {
    const pkg = await electronPackage(true);
    const binary = path.join(pkg, 'dist', 'electron');
    expect(checkElectron(pkg, 'linux', { DISPLAY: ':0' })).toEqual({ ok: true, binary });
    expect(checkElectron(pkg, 'linux', { WAYLAND_DISPLAY: 'wayland-0' })).toEqual({ ok: true, binary });
    expect(checkElectron(pkg, 'darwin', {})).toEqual({ ok: true, binary });
  });

  it('says so in one line each', () => {
    expect(NO_BINARY).not.toContain('\n');
    expect(NO_DISPLAY).not.toContain('\n');
  });

  it('checks the real package here without downloading anything', () => {
    const real = checkElectron(path.resolve(import.meta.dirname, '../../../node_modules/electron'), 'linux', {});
    expect(real.ok).toBe(false);
  });
});

describe('the folder argument', () => {
  it('is resolved against the folder npm start was run from, switches left alone', () => {
    expect(folderArgs(['proj', '/abs', '--flag'], '/home/me')).toEqual(['/home/me/proj', '/abs', '--flag']);
  });
});
