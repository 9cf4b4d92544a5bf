/** npm start opens the browser only where there is a desktop to open it on. */
import { describe, expect, it } from 'vitest';
import { browserCommand } from '../../../scripts/open-browser.js';

const URL = 'http://127.0.0.1:7310/?token=t';

describe('browserCommand', () => {
  it('uses xdg-open on Linux only with a display, open on macOS, start on Windows', () => {
    const x11 = browserCommand('linux', { DISPLAY: ':0' });
    expect([x11?.command, x11?.args(URL)]).toEqual(['xdg-open', [URL]]);
    expect(browserCommand('linux', { WAYLAND_DISPLAY: 'wayland-0' })?.command).toBe('xdg-open');
    const mac = browserCommand('darwin', {});
    expect([mac?.command, mac?.args(URL)]).toEqual(['open', [URL]]);
    const win = browserCommand('win32', {});
    expect([win?.command, win?.args(URL)]).toEqual(['cmd', ['/c', 'start', '""', URL]]);
  });

  it('offers nothing on a Linux machine without a desktop session', () => {
    expect(browserCommand('linux', {})).toBeNull();
    expect(browserCommand('linux', { DISPLAY: '' })).toBeNull();
  });
});
