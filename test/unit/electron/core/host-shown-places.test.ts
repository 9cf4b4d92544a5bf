/**
 * Settings' shown places through the host (SPEC §9): a folder of many tools' settings or a
 * parent of a secret store is refused with words that ask for the tool's own folder, and
 * nothing is saved; the tool's own folder is saved.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('settings.set shownPlaces', () => {
  it("refuses ~/.config, ~/.local, ~/.cache and a parent of a secret store with words, saving nothing; saves a tool's own folder", async () => {
    h = await startHarness();
    for (const dir of ['.config/nvim', '.local/share', '.cache', '.docker-tools', '.aws']) {
      await fs.mkdir(path.join(h.home, dir), { recursive: true });
    }
    const before = (await h.call('settings.get', {})).shown?.added;
    for (const typed of ['~/.config', '~/.local', '~/.cache']) {
      const reply = await h.raw('settings.set', { shownPlaces: [...(before ?? []), typed] });
      expect(reply).toMatchObject({
        ok: false,
        error: expect.stringContaining(
          `cannot show "${typed}" to commands: ${typed} holds the settings of many tools, their tokens and keys among them; add the tool's own folder instead, such as ~/.config/nvim`,
        ),
      });
    }
    const store = await h.raw('settings.set', { shownPlaces: ['~/.aws'] });
    expect(store).toMatchObject({
      ok: false,
      error: expect.stringContaining('~/.aws is a secret store (AWS access keys'),
    });
    expect((await h.call('settings.get', {})).shown?.added).toEqual(before);
    const saved = await h.call('settings.set', { shownPlaces: ['~/.config/nvim'] });
    expect(saved.shown?.added).toEqual([path.join(h.home, '.config/nvim')]);
  });
});
