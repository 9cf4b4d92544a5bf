/**
 * The checkpoint git reads no system configuration: a machine whose system gitconfig
 * turns on `core.ignoreStat` (git then trusts every file it stages to stay as it was)
 * still has every change seen. git finds its system file through GIT_CONFIG_SYSTEM here,
 * as it would find /etc/gitconfig; only GIT_CONFIG_NOSYSTEM keeps it out.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { disposeFixture, makeFixture, open, writeTree, type Fixture } from './shadow-fixture.js';

const systemConfig = { file: '' };

vi.mock(import('../../../../../electron/core/checkpoints/shadow-git-env.js'), async (importOriginal) => {
  const real = await importOriginal();
  return {
    ...real,
    shadowEnv: (places) => ({ ...real.shadowEnv(places), GIT_CONFIG_SYSTEM: systemConfig.file }),
  };
});

let f: Fixture;
beforeEach(async () => {
  f = await makeFixture();
  systemConfig.file = path.join(f.root, 'system-gitconfig');
  await fs.writeFile(systemConfig.file, '[core]\n\tignoreStat = true\n');
});
afterEach(async () => {
  await disposeFixture(f);
});

describe('the checkpoint git and the system gitconfig', () => {
  it('sees a change that a system core.ignoreStat would hide', async () => {
    await writeTree(f.ws, { 'a.txt': 'first\n' });
    const store = await open(f);
    const a = await store.snapshot();
    await fs.writeFile(path.join(f.ws, 'a.txt'), 'second, longer\n');
    const b = await store.snapshot();
    expect(await store.changes(a.id, b.id)).toEqual([{ path: 'a.txt', change: 'modified', bytes: 15 }]);
  });
});
