/**
 * AtomicWriter through write_file: the temporary name of a long name, and a folder on the
 * way swapped while the write is under way (injected through AtomicWriteFs).
 */
import { promises as nodeFs } from 'node:fs';
import { mkdir, readdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtomicWriter, type AtomicWriteFs } from '../../../../../electron/core/tools/atomic-write.js';
import { StalePlanError } from '../../../../../electron/core/tools/tool-def.js';
import { createWriteFileTool } from '../../../../../electron/core/tools/write-file.js';
import { tempWorkspace, type TempWorkspace } from './temp-workspace.js';

describe('write_file with a long non-ASCII name', () => {
  it('writes a 243-byte name of three-byte characters, whose temporary name is cut by bytes', async () => {
    const t = await tempWorkspace();
    const name = '日'.repeat(80) + '.md';
    expect(Buffer.byteLength(name)).toBe(243);
    const r = await t.tools.execute(await t.tools.plan('write_file', { path: name, content: 'long name' }));
    expect(r.ok).toBe(true);
    expect((await t.get(name))?.toString()).toBe('long name');
    expect(await readdir(t.dir)).toEqual([name]);
  });
});

describe('write_file when a folder is swapped while writing (injected file system)', () => {
  function writerWith(overrides: Partial<AtomicWriteFs>): AtomicWriter {
    return new AtomicWriter({
      mkdir: (d, o) => nodeFs.mkdir(d, o),
      open: (f, fl, m) => nodeFs.open(f, fl, m),
      rename: (from, to) => nodeFs.rename(from, to),
      unlink: (f) => nodeFs.unlink(f),
      rmdir: (d) => nodeFs.rmdir(d),
      realpath: (f) => nodeFs.realpath(f),
      lstat: (f) => nodeFs.lstat(f),
      ...overrides,
    });
  }

  it('throws StalePlanError and writes nothing outside when the folder becomes a link to outside before the rename', async () => {
    const at: { t?: TempWorkspace } = {};
    const swapThenOpen = async (file: string, flags: string, mode: number) => {
      const t = at.t;
      if (t !== undefined) {
        // The temporary file is then created through the link, outside.
        await nodeFs.rename(path.join(t.dir, 'sub'), path.join(t.dir, 'moved'));
        await symlink(path.join(t.parent, 'outside'), path.join(t.dir, 'sub'));
      }
      return nodeFs.open(file, flags, mode);
    };
    const t = (at.t = await tempWorkspace([createWriteFileTool(writerWith({ open: swapThenOpen }))]));
    await mkdir(path.join(t.parent, 'outside'));
    await t.put('sub/a.txt', 'old');
    const plan = await t.tools.plan('write_file', { path: 'sub/a.txt', content: 'new' });
    await expect(t.tools.execute(plan)).rejects.toThrow(StalePlanError);
    expect(await readdir(path.join(t.parent, 'outside'))).toEqual([]);
    expect((await t.get('moved/a.txt'))?.toString()).toBe('old');
  });

  it('throws StalePlanError when the folder is replaced by another one at the same path before the rename', async () => {
    const at: { t?: TempWorkspace } = {};
    const replaceAfterOpen = async (file: string, flags: string, mode: number) => {
      const handle = await nodeFs.open(file, flags, mode);
      const t = at.t;
      if (t !== undefined) {
        await nodeFs.rename(path.join(t.dir, 'sub'), path.join(t.dir, 'moved'));
        await mkdir(path.join(t.dir, 'sub'));
      }
      return handle;
    };
    const t = (at.t = await tempWorkspace([createWriteFileTool(writerWith({ open: replaceAfterOpen }))]));
    await t.put('sub/a.txt', 'old');
    const plan = await t.tools.plan('write_file', { path: 'sub/a.txt', content: 'new' });
    await expect(t.tools.execute(plan)).rejects.toThrow(/replaced by another folder/);
    expect(await readdir(path.join(t.dir, 'sub'))).toEqual([]);
    expect((await t.get('moved/a.txt'))?.toString()).toBe('old');
  });

  it('throws StalePlanError when a new folder is swapped for a link to outside during mkdir', async () => {
    const at: { t?: TempWorkspace } = {};
    const mkdirThenSwap = async (dir: string, options: { recursive: true }) => {
      const first = await nodeFs.mkdir(dir, options);
      const t = at.t;
      if (t !== undefined) {
        await rm(path.join(t.dir, 'new'), { recursive: true });
        await symlink(path.join(t.parent, 'outside'), path.join(t.dir, 'new'));
      }
      return first;
    };
    const t = (at.t = await tempWorkspace([createWriteFileTool(writerWith({ mkdir: mkdirThenSwap }))]));
    await mkdir(path.join(t.parent, 'outside', 'deeper'), { recursive: true });
    const plan = await t.tools.plan('write_file', { path: 'new/deeper/a.txt', content: 'new' });
    await expect(t.tools.execute(plan)).rejects.toThrow(/a folder on the way was swapped for a link/);
    expect(await readdir(path.join(t.parent, 'outside', 'deeper'))).toEqual([]);
  });
});
