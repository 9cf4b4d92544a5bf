/**
 * A view's key (a view kept running is reused only under the same key): the same profile
 * over the same places gives the same key; a place replaced, made or gone since gives
 * another, because bubblewrap bound and hid what was there when it started.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxProfile } from '../../../../../electron/core/sandbox/sandbox.js';
import { viewKey } from '../../../../../electron/core/sandbox/view-key.js';

let root: string;
let profile: SandboxProfile;
const env = { PATH: '/usr/bin' };

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-view-key-')));
  await fs.mkdir(path.join(root, 'ws'));
  await fs.writeFile(path.join(root, '.gitignore'), 'dist/\n');
  profile = {
    network: false,
    git: false,
    home: path.join(root, 'home'),
    writable: [],
    readOnly: [],
    shown: [path.join(root, 'ws'), path.join(root, '.gitignore')],
    hidden: [path.join(root, 'ws', '.secrets')],
  };
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const key = () => viewKey(profile, path.join(root, 'ws'), env);

describe('a view key', () => {
  it('is the same for the same profile over the same places, whatever their contents', async () => {
    const before = await key();
    await fs.writeFile(path.join(root, 'ws', 'new.txt'), 'x');
    await fs.appendFile(path.join(root, '.gitignore'), 'build/\n');
    expect(await key()).toBe(before);
  });

  it('changes when a shown file is replaced by another at the same path', async () => {
    const before = await key();
    await fs.writeFile(path.join(root, 'next'), 'dist/\n');
    await fs.rename(path.join(root, 'next'), path.join(root, '.gitignore'));
    expect(await key()).not.toBe(before);
  });

  it('changes when a hidden place is made inside a shown one', async () => {
    const before = await key();
    await fs.mkdir(path.join(root, 'ws', '.secrets'));
    expect(await key()).not.toBe(before);
  });

  it('changes with the profile, the working folder and the environment', async () => {
    const before = await key();
    expect(await viewKey({ ...profile, shown: profile.shown.slice(0, 1) }, path.join(root, 'ws'), env)).not.toBe(
      before,
    );
    expect(await viewKey(profile, root, env)).not.toBe(before);
    expect(await viewKey(profile, path.join(root, 'ws'), { PATH: '/bin' })).not.toBe(before);
  });
});
