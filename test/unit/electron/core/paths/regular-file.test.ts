import { execFileSync } from 'node:child_process';
import { promises as nodeFs } from 'node:fs';
import { mkdir, rename, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isOpenAt,
  NotAFileError,
  openRegularFile,
  readRegularFile,
  type RegularFileFs,
} from '../../../../../electron/core/paths/regular-file.js';
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

/** The real file system, recording every path it is asked to open. */
function recordingFs(opened: string[], lstat: RegularFileFs['lstat'] = (p) => nodeFs.lstat(p)): RegularFileFs {
  return {
    lstat,
    open: (p, flags) => {
      opened.push(p);
      return nodeFs.open(p, flags);
    },
  };
}

describe('openRegularFile refuses before opening', () => {
  it('refuses a device such as /dev/null without opening it', async () => {
    const opened: string[] = [];
    const err = await openRegularFile('/dev/null', recordingFs(opened)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotAFileError);
    expect((err as Error).message).toBe('/dev/null is not a regular file');
    expect(opened).toEqual([]);
  });

  it('refuses a FIFO without opening it, so no writer waiting on it is released', async () => {
    const fifo = path.join(tmp.path, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const opened: string[] = [];
    await expect(openRegularFile(fifo, recordingFs(opened))).rejects.toThrow(`${fifo} is not a regular file`);
    expect(opened).toEqual([]);
  });

  it('refuses a symbolic link and a folder without opening them', async () => {
    await writeFile(path.join(tmp.path, 'target.txt'), 'x');
    await symlink('target.txt', path.join(tmp.path, 'link'));
    await mkdir(path.join(tmp.path, 'sub'));
    const opened: string[] = [];
    await expect(openRegularFile(path.join(tmp.path, 'link'), recordingFs(opened))).rejects.toThrow(
      /link is a symbolic link$/,
    );
    await expect(openRegularFile(path.join(tmp.path, 'sub'), recordingFs(opened))).rejects.toThrow(/sub is a folder$/);
    expect(opened).toEqual([]);
  });

  it('refuses a file replaced by another between the lstat and the open', async () => {
    const file = path.join(tmp.path, 'a.txt');
    await writeFile(file, 'first');
    const swapAfterLstat: RegularFileFs['lstat'] = async (p) => {
      const st = await nodeFs.lstat(p);
      await writeFile(path.join(tmp.path, 'b.txt'), 'second');
      await rename(path.join(tmp.path, 'b.txt'), file);
      return st;
    };
    await expect(openRegularFile(file, recordingFs([], swapAfterLstat))).rejects.toThrow(
      `${file} was replaced while it was being opened`,
    );
  });

  it('refuses a symbolic link swapped in between the lstat and the open, without following it', async () => {
    const file = path.join(tmp.path, 'a.txt');
    await writeFile(file, 'inside');
    await writeFile(path.join(tmp.path, 'elsewhere.txt'), 'elsewhere');
    const linkAfterLstat: RegularFileFs['lstat'] = async (p) => {
      const st = await nodeFs.lstat(p);
      await nodeFs.unlink(file);
      await symlink('elsewhere.txt', file);
      return st;
    };
    await expect(openRegularFile(file, recordingFs([], linkAfterLstat))).rejects.toThrow(/a.txt is a symbolic link$/);
  });
});

describe('isOpenAt', () => {
  it('is true for the file still at its path, and false once another file took its place', async () => {
    const file = path.join(tmp.path, 'a.txt');
    await writeFile(file, 'first');
    const open = await openRegularFile(file);
    if (open === null) throw new Error('expected the file to open');
    try {
      expect(await isOpenAt(open, file)).toBe(true);
      await writeFile(path.join(tmp.path, 'b.txt'), 'second');
      await rename(path.join(tmp.path, 'b.txt'), file);
      expect(await isOpenAt(open, file)).toBe(false);
    } finally {
      await open.handle.close();
    }
  });

  it('is false when the file was reached through a folder that is no longer at the path', async () => {
    await mkdir(path.join(tmp.path, 'real'));
    await writeFile(path.join(tmp.path, 'real', 'a.txt'), 'x');
    const open = await openRegularFile(path.join(tmp.path, 'real', 'a.txt'));
    if (open === null) throw new Error('expected the file to open');
    try {
      await rename(path.join(tmp.path, 'real'), path.join(tmp.path, 'moved'));
      await mkdir(path.join(tmp.path, 'real'));
      await writeFile(path.join(tmp.path, 'real', 'a.txt'), 'x');
      expect(await isOpenAt(open, path.join(tmp.path, 'real', 'a.txt'))).toBe(false);
    } finally {
      await open.handle.close();
    }
  });
});
