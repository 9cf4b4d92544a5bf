/** The terminal runs the user's own shell, with a sensible fallback where none is set. */
import { describe, expect, it } from 'vitest';
import { userShell } from '../../../../../electron/core/terminal/user-shell.js';

const only =
  (...files: string[]) =>
  (file: string) =>
    files.includes(file);

describe('userShell', () => {
  it('uses $SHELL when it names an existing absolute path', () => {
    expect(userShell({ SHELL: '/usr/bin/zsh' }, 'linux', only('/usr/bin/zsh', '/bin/bash'))).toBe('/usr/bin/zsh');
  });

  it('falls back to bash when $SHELL is unset, relative or missing', () => {
    const exists = only('/bin/bash', '/bin/sh');
    expect(userShell({}, 'linux', exists)).toBe('/bin/bash');
    expect(userShell({ SHELL: 'zsh' }, 'linux', exists)).toBe('/bin/bash');
    expect(userShell({ SHELL: '/gone/fish' }, 'darwin', exists)).toBe('/bin/bash');
  });

  it('falls back to sh where there is no bash', () => {
    expect(userShell({}, 'linux', only('/bin/sh'))).toBe('/bin/sh');
  });

  it('runs PowerShell on Windows whatever $SHELL says', () => {
    expect(userShell({ SHELL: '/bin/bash' }, 'win32', () => true)).toBe('powershell.exe');
  });
});
