/**
 * The views of the app's own helpers (sandbox/helper-view.ts), as data: what a grep and a
 * restore may read and write, made from a command's profile. (That bubblewrap holds them
 * to it is shown by grep-confined.test.ts and restore-confined.test.ts.)
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOnlyProfile, restoreProfile } from '../../../../../electron/core/sandbox/helper-view.js';
import { bwrapArgs } from '../../../../../electron/core/sandbox/bwrap-args.js';
import { defaultProfile } from '../../../../../electron/core/sandbox/profile.js';
import type { SandboxProfile } from '../../../../../electron/core/sandbox/sandbox.js';

const WS = '/home/me/src/app';
const DATA = '/home/me/.config/Gatehouse';
const command: SandboxProfile = {
  network: false,
  git: false,
  home: '/home/me',
  writable: [WS],
  readOnly: [`${WS}/.git`, `${WS}/.gatehouse`, `${WS}/.claude`],
  shown: ['/home/me/.cargo/bin'],
  hidden: [DATA, '/home/me/.config/gh', '/run'],
};

describe('the read view', () => {
  it('writes nothing, shows only what it is given, and keeps every other hidden place hidden', () => {
    expect(readOnlyProfile(command, [WS, '/opt/rg'])).toEqual({
      network: false,
      git: false,
      home: '/home/me',
      writable: [],
      readOnly: [],
      shown: [WS, '/opt/rg'],
      hidden: [DATA, '/home/me/.config/gh', '/run'],
    });
  });

  it('keeps hidden a place holding a searched one, for the arguments to empty around it, and shows one searched itself', () => {
    // The data folder, once a card allowed grep there: a folder in it shows through the
    // emptied data folder (bwrap-args.ts), and the data folder searched whole is shown.
    expect(readOnlyProfile(command, [`${DATA}/notes`]).hidden).toEqual([DATA, '/home/me/.config/gh', '/run']);
    expect(readOnlyProfile(command, [DATA]).hidden).toEqual(['/home/me/.config/gh', '/run']);
  });

  it('leaves only the searched place of a hidden folder holding it in the bubblewrap arguments', () => {
    const profile = readOnlyProfile({ ...command, hidden: ['/var/tmp'] }, ['/var/tmp/ws']);
    const args = bwrapArgs({
      argv: ['rg'],
      cwd: '/var/tmp/ws',
      profile,
      privateTmp: '/tmp/p',
      hiddenFolders: new Set(['/var/tmp']),
      homeRoots: ['/home'],
      disableUserns: true,
    });
    // Emptied (a tmpfs, read-only at the end) with the searched place bound through it:
    // a link in the workspace to /var/tmp/elsewhere leads nowhere.
    expect(args.join(' ')).toContain('--tmpfs /var/tmp');
    expect(args.join(' ')).toContain('--ro-bind /var/tmp/ws /var/tmp/ws');
    expect(args.join(' ')).toContain('--remount-ro /var/tmp');
  });
});

describe('the restore view', () => {
  const places = {
    store: `${DATA}/checkpoints/abc/repo`,
    scratch: `${DATA}/checkpoints/abc/tmp/restore-1`,
    programs: ['/usr/bin/git'],
    targets: [`${WS}/src/a.txt`],
  };

  it('writes the workspace and its scratch folder, reads the store and git, keeps .git and the app places read-only, and the rest of the data folder hidden', () => {
    expect(restoreProfile(command, places)).toEqual({
      network: false,
      git: false,
      home: '/home/me',
      writable: [WS, places.scratch],
      readOnly: [`${WS}/.git`, `${WS}/.gatehouse`, `${WS}/.claude`],
      shown: [places.store, '/usr'],
      // The data folder stays hidden, emptied around the store and the scratch folder.
      hidden: [DATA, '/home/me/.config/gh', '/run'],
    });
  });

  it('leaves writable a read-only place that holds a path it restores', () => {
    const claude = restoreProfile(command, { ...places, targets: [`${WS}/.claude/settings.json`] });
    expect(claude.readOnly).toEqual([`${WS}/.git`, `${WS}/.gatehouse`]);
  });

  it('shows a git that lives below the home with its prefix', () => {
    const brewed = restoreProfile(command, { ...places, programs: ['/home/linuxbrew/.linuxbrew/bin/git'] });
    expect(brewed.shown).toEqual([places.store, '/home/linuxbrew/.linuxbrew']);
  });
});

describe("a helper's profile (toolchains: false)", () => {
  it('shows no toolchain nor added place, so none is searched, and hides what a command profile hides', async () => {
    const root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-helper-profile-'));
    try {
      const home = path.join(root, 'home');
      const ws = path.join(root, 'ws');
      const data = path.join(root, 'data');
      // A toolchain with a credential file in it, and a place the person added.
      await fs.mkdir(path.join(home, '.cargo', 'bin'), { recursive: true });
      await fs.writeFile(path.join(home, '.cargo', 'bin', '.netrc'), 'machine x password y\n');
      await fs.mkdir(path.join(home, 'tools'), { recursive: true });
      await fs.mkdir(ws, { recursive: true });
      await fs.mkdir(data, { recursive: true });
      const inputs = {
        workspace: ws,
        dataDir: data,
        home,
        extraShown: [path.join(home, 'tools')],
        network: false,
        git: false,
      };
      const command = await defaultProfile(inputs);
      expect(command.shown).toEqual(
        expect.arrayContaining([path.join(home, '.cargo', 'bin'), path.join(home, 'tools')]),
      );
      expect(command.hidden).toContain(path.join(home, '.cargo', 'bin', '.netrc'));
      const helper = await defaultProfile({ ...inputs, toolchains: false });
      expect(helper.shown).toEqual([]);
      expect(helper.hidden).toContain(data);
      expect(helper.hidden).toEqual(expect.arrayContaining(['/var/tmp']));
      expect(helper.writable).toEqual(command.writable);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
