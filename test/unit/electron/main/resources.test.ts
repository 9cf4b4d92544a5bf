/**
 * Resources are found in the dev tree and in a packaged layout, where ripgrep and
 * node-pty live in app.asar.unpacked and the icons in resources/.
 */
import { existsSync, promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { rgPath } from '@vscode/ripgrep';
import { afterAll, describe, expect, it } from 'vitest';
import { locateResources, missingResources, unpackedPath } from '../../../../electron/main/resources.js';
import { ripgrepPath } from '../../../../electron/core/tools/ripgrep.js';

const repo = path.resolve(import.meta.dirname, '../../../..');
const require = createRequire(import.meta.url);
let tmp: string | undefined;
afterAll(async () => {
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

async function touch(file: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, '');
}

describe('resources', () => {
  it('are all found in the dev tree', () => {
    const found = locateResources(
      { isPackaged: false, appPath: repo, resourcesPath: '/nowhere' },
      { rgPath, nodePtyPackageJson: require.resolve('node-pty/package.json') },
    );
    expect(found.ripgrep).toBe(rgPath);
    expect(found.icon).toBe(path.join(repo, 'build', 'icon.png'));
    expect(missingResources(found)).toEqual([]);
  });

  it('are all found in a packaged layout, outside the asar archive', async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-package-'));
    const resources = path.join(tmp, 'Gatehouse', 'resources');
    const asar = path.join(resources, 'app.asar');
    const unpacked = path.join(resources, 'app.asar.unpacked');
    // What electron-builder lays out: the archive (a file), its unpacked twin, the extra resources.
    await touch(asar);
    await touch(path.join(unpacked, 'node_modules', '@vscode', 'ripgrep-linux-x64', 'bin', 'rg'));
    await touch(path.join(unpacked, 'node_modules', 'node-pty', 'package.json'));
    await touch(path.join(unpacked, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node'));
    await touch(path.join(resources, 'icon.png'));
    await touch(path.join(resources, 'tray', 'tray.png'));

    // The paths the modules report from inside the archive.
    const found = locateResources(
      { isPackaged: true, appPath: asar, resourcesPath: resources },
      {
        rgPath: path.join(asar, 'node_modules', '@vscode', 'ripgrep-linux-x64', 'bin', 'rg'),
        nodePtyPackageJson: path.join(asar, 'node_modules', 'node-pty', 'package.json'),
      },
    );
    expect(found).toEqual({
      ripgrep: path.join(unpacked, 'node_modules', '@vscode', 'ripgrep-linux-x64', 'bin', 'rg'),
      nodePty: path.join(unpacked, 'node_modules', 'node-pty'),
      icon: path.join(resources, 'icon.png'),
      trayIcon: path.join(resources, 'tray', 'tray.png'),
    });
    expect(missingResources(found)).toEqual([]);
    expect(existsSync(path.join(found.nodePty, 'build', 'Release', 'pty.node'))).toBe(true);
  });

  it('names what is missing from an incomplete package', () => {
    const found = locateResources(
      { isPackaged: true, appPath: '/x/resources/app.asar', resourcesPath: '/x/resources' },
      { rgPath: '/x/resources/app.asar/rg', nodePtyPackageJson: '/x/resources/app.asar/node-pty/package.json' },
    );
    expect(missingResources(found).map((m) => m.split(' ')[0])).toEqual(['ripgrep', 'node-pty', 'icon', 'tray']);
  });

  it('maps only a whole app.asar path segment to app.asar.unpacked', () => {
    expect(unpackedPath('/r/app.asar/node_modules/x')).toBe('/r/app.asar.unpacked/node_modules/x');
    expect(unpackedPath('/r/app.asar.unpacked/x')).toBe('/r/app.asar.unpacked/x');
    expect(unpackedPath('/r/my-app.asarx/x')).toBe('/r/my-app.asarx/x');
    expect(unpackedPath('C:\\r\\app.asar\\x')).toBe('C:\\r\\app.asar.unpacked\\x');
  });

  it('agree with the path the core runs ripgrep from', () => {
    expect(ripgrepPath).toBe(unpackedPath(rgPath));
  });
});
