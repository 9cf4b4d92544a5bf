/**
 * The home folder's allow-list as data (SPEC §9): each entry says why it is there, none is
 * a place Settings would refuse (a folder of many tools' settings, a secret store or one
 * holding one), and a toolchain that keeps a secret beside its programs is listed by its
 * safe parts.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOWN_HOME_PLACES } from '../../../../../electron/core/sandbox/home-allow-list.js';
import { checkShownPlace, toolchainPlaces } from '../../../../../electron/core/sandbox/shown-places.js';

let home: string;
beforeAll(async () => {
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-allow-list-')));
});
afterAll(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

describe('the home allow-list', () => {
  it('says for each entry which tool needs it', () => {
    for (const place of SHOWN_HOME_PLACES) expect(place.why.trim().length, place.path).toBeGreaterThan(2);
  });

  it('holds no place Settings would refuse to show (~/.cache, ~/.config, ~/.local, a secret store or a folder holding one)', async () => {
    for (const place of SHOWN_HOME_PLACES) {
      const at = path.join(home, place.path.replaceAll('*', 'v1'));
      await fs.mkdir(at, { recursive: true });
      expect(checkShownPlace(at, home), place.path).toEqual({ path: at });
    }
  });

  it("shows nvm's Node versions by their bin, lib and include, never their etc (npm's global npmrc)", async () => {
    const own = await fs.mkdtemp(path.join(home, 'nvm-'));
    for (const part of ['bin', 'lib', 'include', 'etc']) {
      await fs.mkdir(path.join(own, '.nvm/versions/node/v22.1.0', part), { recursive: true });
      await fs.mkdir(path.join(own, '.nvm/versions/node/v20.9.0', part), { recursive: true });
    }
    const nvm = toolchainPlaces(own).filter((p) => p.startsWith(path.join(own, '.nvm')));
    expect(nvm.map((p) => path.relative(path.join(own, '.nvm/versions/node'), p))).toEqual([
      'v20.9.0/bin',
      'v22.1.0/bin',
      'v20.9.0/lib',
      'v22.1.0/lib',
      'v20.9.0/include',
      'v22.1.0/include',
    ]);
  });

  it('shows .NET by its parts, never its certificate store (.dotnet/corefx)', async () => {
    const own = await fs.mkdtemp(path.join(home, 'dotnet-'));
    for (const part of ['dotnet', 'sdk', 'shared', 'host', 'corefx/cryptography']) {
      await fs.mkdir(path.join(own, '.dotnet', part), { recursive: true });
    }
    const dotnet = toolchainPlaces(own).filter((p) => p.startsWith(path.join(own, '.dotnet')));
    expect(dotnet.map((p) => path.relative(own, p))).toEqual([
      '.dotnet/dotnet',
      '.dotnet/host',
      '.dotnet/sdk',
      '.dotnet/shared',
    ]);
    expect(dotnet.filter((p) => p.includes('corefx'))).toEqual([]);
  });
});
