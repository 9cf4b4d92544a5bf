/**
 * Why Electron stopped as it started, in one line, from the words Chromium and the dynamic
 * loader print for the common reasons on Linux desktops, else from its exit.
 */
import { describe, expect, it } from 'vitest';
import { SERVING_INSTEAD, whyElectronStopped } from '../../../scripts/electron-exit.js';

const failed = { code: 1, signal: null };

describe('a known reason is said in words', () => {
  it.each([
    [
      'root without --no-sandbox',
      '[1:1206/1.2:FATAL:electron_main_delegate.cc(322)] Running as root without --no-sandbox is not supported. See https://crbug.com/638180.',
      'Electron will not run as root with its sandbox on (`npm start -- --no-sandbox` turns the sandbox off)',
    ],
    [
      'the sandbox helper not setuid (it names it)',
      "[1:1206/1.2:FATAL:setuid_sandbox_host.cc(158)] The SUID sandbox helper binary was found, but is not configured correctly. Rather than run without sandboxing I'm aborting now. You need to make sure that /repo/node_modules/electron/dist/chrome-sandbox is owned by root and has mode 4755.",
      "Electron's sandbox helper /repo/node_modules/electron/dist/chrome-sandbox must be owned by root with mode 4755",
    ],
    [
      'the sandbox helper not setuid (unnamed)',
      'The SUID sandbox helper binary was found, but is not configured correctly.',
      "Electron's sandbox helper (chrome-sandbox) must be owned by root with mode 4755",
    ],
    [
      'no usable sandbox (AppArmor)',
      '[1:1206/1.2:FATAL:zygote_host_impl_linux.cc(127)] No usable sandbox! If you are running on Ubuntu 23.10+ or another Linux distro that has disabled unprivileged user namespaces with AppArmor, see https://chromium.googlesource.com/chromium/src/+/main/docs/security/apparmor-userns-restrictions.md.',
      'Electron found no usable sandbox',
    ],
    [
      'a missing library',
      '/repo/node_modules/electron/dist/electron: error while loading shared libraries: libnss3.so: cannot open shared object file: No such file or directory',
      'Electron needs the system library libnss3.so, which is not installed',
    ],
    [
      'no X server',
      '[1:1206/1.2:ERROR:ozone_platform_x11.cc(245)] Missing X server or $DISPLAY\n[1:1206/1.2:ERROR:env.cc(257)] The platform failed to initialize.  Exiting.',
      'Electron could not open a window on this display',
    ],
  ])('%s', (_name, stderr, words) => {
    const reason = whyElectronStopped(failed, `some earlier line\n${stderr}\n`);
    expect(reason).toContain(words);
    expect(reason.endsWith(` — ${SERVING_INSTEAD}`)).toBe(true);
    expect(reason).not.toContain('\n');
  });
});

describe('an unknown reason is said by the exit', () => {
  it("quotes Electron's first line without Chromium's prefix", () => {
    expect(whyElectronStopped(failed, '\n[1:1206/1.2:ERROR:thing.cc(1)] something broke\nmore\n')).toBe(
      `Electron exited with code 1 as it started: something broke — ${SERVING_INSTEAD}`,
    );
  });

  it('names a signal, and quotes at most 200 characters', () => {
    const reason = whyElectronStopped({ code: null, signal: 'SIGTRAP' }, 'x'.repeat(500));
    expect(reason).toBe(
      `Electron was stopped by SIGTRAP as it started (a damaged download?): ${'x'.repeat(200)}… — ${SERVING_INSTEAD}`,
    );
  });

  it('says only the exit when Electron said nothing', () => {
    expect(whyElectronStopped({ code: 127, signal: null }, '')).toBe(
      `Electron exited with code 127 as it started — ${SERVING_INSTEAD}`,
    );
  });
});
