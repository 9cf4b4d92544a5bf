/** A user server's own folder (SPEC §10): 0700, a real folder, one per server, under the data folder. */
import { chmod, lstat, mkdir, realpath, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeServerFolder, serverFolder } from '../../../../../electron/core/mcp/server-folder.js';
import { useTempDir } from '../log/temp-dir.js';

const tmp = useTempDir();

describe("a user server's own folder", () => {
  it('is <data folder>/mcp-cwd/<server>, made 0700 and empty', async () => {
    const data = await realpath(tmp.path);
    const folder = serverFolder(data, 'github');
    expect(folder).toBe(path.join(data, 'mcp-cwd', 'github'));
    await makeServerFolder(folder);
    const stat = await lstat(folder);
    expect(stat.isDirectory()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o700);
  });

  it('tightens a folder that was left wider', async () => {
    const folder = serverFolder(tmp.path, 'wide');
    await mkdir(folder, { recursive: true });
    await chmod(folder, 0o755);
    await makeServerFolder(folder);
    expect((await lstat(folder)).mode & 0o777).toBe(0o700);
  });

  it('refuses a link in its place, which could point the server anywhere', async () => {
    const folder = serverFolder(tmp.path, 'linked');
    await mkdir(path.dirname(folder), { recursive: true });
    await symlink(tmp.path, folder);
    await expect(makeServerFolder(folder)).rejects.toThrow(/is not a folder/);
  });
});
