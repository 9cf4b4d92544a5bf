/**
 * The folder on the command line, read as Electron reads argv: switches anywhere (before
 * the app's path too, as Playwright and a second instance's reordered argv put them),
 * `--` ending the switches, and the app's path first only under the default app.
 */
import { describe, expect, it } from 'vitest';
import { folderArgument } from '../../../../electron/main/launch-args.js';

const CWD = '/home/user/code';
const ELECTRON = '/repo/node_modules/electron/dist/electron';
const PACKAGED = '/opt/Gatehouse/gatehouse';

describe('under the default app (electron . FOLDER)', () => {
  const folder = (...args: string[]) => folderArgument([ELECTRON, ...args], true, CWD);

  it('takes the word after the app path, resolved against the launching folder', () => {
    expect(folder('.', 'proj')).toBe('/home/user/code/proj');
    expect(folder('/repo', '/srv/work')).toBe('/srv/work');
  });

  it('names no folder when only the app path is given, even after a switch', () => {
    expect(folder('.')).toBeNull();
    expect(folder('--no-sandbox', '.')).toBeNull();
    expect(folder('--no-sandbox', '--enable-logging', '.')).toBeNull();
  });

  it('skips switches before and after the app path', () => {
    expect(folder('--no-sandbox', '.', 'proj')).toBe('/home/user/code/proj');
    expect(folder('.', '--enable-logging', 'proj', '--v=1')).toBe('/home/user/code/proj');
    expect(folder('--ozone-platform=wayland', '.', '-v', 'proj')).toBe('/home/user/code/proj');
  });

  it("reads Playwright's launch: its preload module, switches, then the app path", () => {
    const pw = ['-r', '/pw/loader.js', '--no-sandbox', '--inspect=0', '--remote-debugging-port=0'];
    expect(folder(...pw, '.', '/w/proj')).toBe('/w/proj');
    expect(folder(...pw, '.')).toBeNull();
    expect(folder('--require', '/pw/loader.js', '.', 'proj')).toBe('/home/user/code/proj');
  });

  it('takes no separate value for a switch, as Chromium does not', () => {
    expect(folder('.', '--user-data-dir', 'proj')).toBe('/home/user/code/proj');
  });

  it('ends the switches at --', () => {
    expect(folder('.', '--', '--odd-name')).toBe('/home/user/code/--odd-name');
    expect(folder('--', '.', 'proj')).toBe('/home/user/code/proj');
  });

  it('takes the first word when --app= named the app', () => {
    expect(folder('--app=/repo', 'proj')).toBe('/home/user/code/proj');
  });

  it('ignores empty words', () => {
    expect(folder('', '.', ' ', 'proj')).toBe('/home/user/code/proj');
  });
});

describe('packaged (gatehouse FOLDER)', () => {
  const folder = (...args: string[]) => folderArgument([PACKAGED, ...args], false, CWD);

  it('takes the first word', () => {
    expect(folder('proj')).toBe('/home/user/code/proj');
    expect(folder('.')).toBe(CWD);
    expect(folder()).toBeNull();
  });

  it('skips switches anywhere, and -r is only a switch there', () => {
    expect(folder('--no-sandbox', 'proj')).toBe('/home/user/code/proj');
    expect(folder('proj', '--no-sandbox')).toBe('/home/user/code/proj');
    expect(folder('-r', 'proj')).toBe('/home/user/code/proj');
  });
});
