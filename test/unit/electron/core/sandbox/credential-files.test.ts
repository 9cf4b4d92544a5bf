/**
 * The search for credential files inside shown places (credential-files.ts): by name, to
 * its depth, never into package content, and not following links.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CREDENTIAL_FILES,
  findCredentialFiles,
  SEARCH_DEPTH,
} from '../../../../../electron/core/sandbox/credential-files.js';

let root: string;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-credential-files-')));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function files(rels: readonly string[]): Promise<void> {
  for (const rel of rels) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), 'x');
  }
}

const found = async (places = [root]) => (await findCredentialFiles(places)).map((p) => path.relative(root, p)).sort();

describe('the credential-file search', () => {
  it('says which tool keeps a secret in each name', () => {
    for (const file of CREDENTIAL_FILES) expect(file.why.trim().length, file.name).toBeGreaterThan(2);
  });

  it('finds each name, npmrc only under an etc folder, down to its depth', async () => {
    const deepest = `${'d/'.repeat(SEARCH_DEPTH - 1)}.netrc`;
    await files([
      'etc/npmrc',
      'tools/image/node/v20/etc/npmrc',
      'npmrc',
      'v/pip.conf',
      '.condarc',
      'envs/x/condarc',
      '.npmrc',
      '.yarnrc.yml',
      '.pypirc',
      '.git-credentials',
      deepest,
      `d/${deepest}`,
    ]);
    expect(await found()).toEqual(
      [
        '.condarc',
        '.git-credentials',
        '.npmrc',
        '.pypirc',
        '.yarnrc.yml',
        'envs/x/condarc',
        'etc/npmrc',
        'tools/image/node/v20/etc/npmrc',
        'v/pip.conf',
        deepest,
      ].sort(),
    );
  });

  it('does not enter package content or a link', async () => {
    await files(['lib/node_modules/pkg/.npmrc', 'venv/lib/python3.12/site-packages/x/.pypirc', 'real/.netrc']);
    await fs.symlink(path.join(root, 'real'), path.join(root, 'link'));
    expect(await found()).toEqual(['real/.netrc']);
  });
});
