/**
 * What Settings lets a person show to confined commands (SPEC §9): a tool's own folder,
 * never a folder of many tools' settings, the whole home or a parent of it, nor a secret
 * store, a place inside one or one that holds one; each refusal says why in words.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkShownPlace } from '../../../../../electron/core/sandbox/shown-places.js';

let home: string;
beforeAll(async () => {
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-shown-')));
  for (const dir of [
    '.config/nvim',
    '.config/gh',
    '.local/share/keyrings',
    '.local/bin',
    '.cache/pip',
    '.cargo/bin',
    '.ssh/keys',
    '.sdkman',
    '.dotnet/corefx',
    'links',
  ]) {
    await fs.mkdir(path.join(home, dir), { recursive: true });
  }
  await fs.writeFile(path.join(home, '.cargo/credentials.toml'), 'token\n');
  await fs.symlink(path.join(home, '.config'), path.join(home, 'links/config'));
});
afterAll(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

const error = (typed: string) => {
  const checked = checkShownPlace(typed, home);
  return 'error' in checked ? checked.error : null;
};

describe('a place added in Settings', () => {
  it("is shown when it is a tool's own folder", () => {
    expect(checkShownPlace('~/.config/nvim', home)).toEqual({ path: path.join(home, '.config/nvim') });
    expect(checkShownPlace(' ~/.sdkman ', home)).toEqual({ path: path.join(home, '.sdkman') });
    expect(checkShownPlace('~/.cargo/bin', home)).toEqual({ path: path.join(home, '.cargo/bin') });
  });

  it('is refused, with words asking for the tool’s own folder, when it holds many tools’ settings', () => {
    for (const typed of ['~/.config', '~/.local', '~/.local/share', '~/.cache', `${home}/.cache`, '~/links/config']) {
      expect(error(typed), typed).toBe(
        `${typed} holds the settings of many tools, their tokens and keys among them; add the tool's own folder instead, such as ~/.config/nvim or ~/.sdkman`,
      );
    }
  });

  it('is refused when it is the whole home folder, a parent of it, or the root', () => {
    for (const typed of ['~', home, path.dirname(home), '/']) {
      expect(error(typed), typed).toMatch(/holds your whole home folder; add the folder a tool needs/);
    }
  });

  it('is refused when it holds a secret store, naming it', () => {
    expect(error('~/.dotnet')).toMatch(
      /^~\/\.dotnet holds ~\/\.dotnet\/corefx \(\.NET's X509 certificate store, with private keys/,
    );
    expect(error('~/.cargo')).toBe(
      "~/.cargo holds ~/.cargo/credentials.toml (crates.io token), which commands never see; add the tool's own folder instead, such as ~/.config/nvim or ~/.sdkman",
    );
  });

  it('is refused when it is a secret store or lies inside one', () => {
    expect(error('~/.ssh')).toBe('~/.ssh is a secret store (SSH private keys), which commands never see');
    expect(error('~/.ssh/keys')).toBe('~/.ssh/keys is a secret store (SSH private keys), which commands never see');
    expect(error('~/.config/gh')).toMatch(/^~\/\.config\/gh is a secret store \(GitHub CLI token/);
    expect(error('~/.local/share/keyrings')).toMatch(/is a secret store \(GNOME Keyring/);
  });

  it('is refused when it does not exist or is not absolute', () => {
    expect(error('~/.nothing')).toBe('~/.nothing does not exist');
    expect(error('.config/nvim')).toMatch(/is not an absolute path/);
    expect(error('  ')).toBe('the path is empty');
  });
});
