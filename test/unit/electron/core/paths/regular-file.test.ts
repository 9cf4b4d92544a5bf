import { execFileSync } from 'node:child_process';
import { mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NotAFileError, readRegularFile } from '../../../../../electron/core/paths/regular-file.js';
import { useTempDir } from '../log/temp-dir.js';

const tmp = useTempDir();

describe('readRegularFile', () => {
  it('reads a whole file within the cap, not cut', async () => {
    const file = path.join(tmp.path, 'a.txt');
    await writeFile(file, 'hello');
    expect(await readRegularFile(file, 5)).toEqual({ bytes: Buffer.from('hello'), cut: false, size: 5 });
  });

  it('reads only the cap of a longer file and says it was cut', async () => {
    const file = path.join(tmp.path, 'big.bin');
    await writeFile(file, 'abcdef');
    await truncate(file, 100 * 1024 * 1024);
    const read = await readRegularFile(file, 4);
    expect(read?.bytes.toString()).toBe('abcd');
    expect(read).toMatchObject({ cut: true, size: 100 * 1024 * 1024 });
  });

  it('returns null when nothing is there', async () => {
    expect(await readRegularFile(path.join(tmp.path, 'missing.txt'), 10)).toBeNull();
    expect(await readRegularFile(path.join(tmp.path, 'missing', 'deeper.txt'), 10)).toBeNull();
  });

  it('refuses a FIFO at once instead of waiting for a writer', async () => {
    const fifo = path.join(tmp.path, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const err = await readRegularFile(fifo, 10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotAFileError);
    expect((err as Error).message).toBe(`${fifo} is not a regular file`);
  });

  it('refuses a folder', async () => {
    await mkdir(path.join(tmp.path, 'sub'));
    await expect(readRegularFile(path.join(tmp.path, 'sub'), 10)).rejects.toThrow(/sub is a folder$/);
  });

  it('refuses a symbolic link rather than following it, since callers pass resolved paths', async () => {
    await writeFile(path.join(tmp.path, 'target.txt'), 'x');
    await symlink('target.txt', path.join(tmp.path, 'link'));
    await expect(readRegularFile(path.join(tmp.path, 'link'), 10)).rejects.toThrow(/link is a symbolic link$/);
  });
});
