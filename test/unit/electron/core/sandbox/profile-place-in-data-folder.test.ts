/**
 * A session's place of its own lives in the data folder (SPEC §15): a command in it writes
 * its place, and the rest of the data folder (every session's log, the settings, the keys)
 * stays hidden around it, wherever the data folder is.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { defaultProfile } from '../../../../../electron/core/sandbox/profile.js';

it('keeps the data folder hidden when the workspace is a place inside it', async () => {
  const root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-place-profile-'));
  try {
    const data = path.join(root, 'data');
    const place = path.join(data, 'places', 's1', 'proj');
    await fs.mkdir(place, { recursive: true });
    const profile = await defaultProfile({
      workspace: place,
      dataDir: data,
      home: path.join(root, 'home'),
      extraShown: [],
      network: false,
      git: false,
    });
    expect(profile.hidden).toContain(data);
    expect(profile.writable).toContain(place);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
});
