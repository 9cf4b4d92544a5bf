import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmod,
  lstat,
  mkdir,
  readdir,
  readlink,
  rm,
  stat,
  symlink,
  truncate,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { promises as nodeFs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BINARY_SNIFF_BYTES, REPLACE_MAX_BYTES, WRITE_MAX_BYTES } from '../../../../../shared/limits.js';
import { AtomicWriter, type AtomicWriteFs } from '../../../../../electron/core/tools/atomic-write.js';
import { createWriteFileTool } from '../../../../../electron/core/tools/write-file.js';
import { StalePlanError, type WritePlan } from '../../../../../electron/core/tools/tool-def.js';
import { tempWorkspace } from './temp-workspace.js';

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

function failing(code: string): Error {
  return Object.assign(new Error(`${code}: simulated failure`), { code });
}

describe('write_file planning', () => {
  it('plans a new file with before null and the digest "absent"', async () => {
    const t = await tempWorkspace();
    const plan = (await t.tools.plan('write_file', { path: 'new.txt', content: 'hi' })) as WritePlan;
    expect(plan).toMatchObject({ kind: 'write', tool: 'write_file', before: null, digest: 'absent' });
    expect(plan.after.toString()).toBe('hi');
    expect(await t.get('new.txt')).toBeNull();
  });

  it('plans an existing file with its bytes and their SHA-256', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'old');
    const plan = (await t.tools.plan('write_file', { path: 'a.txt', content: 'new' })) as WritePlan;
    expect(plan.before?.toString()).toBe('old');
    expect(plan.digest).toBe(createHash('sha256').update('old').digest('hex'));
  });

  it('accepts exactly 256 KiB', async () => {
    const t = await tempWorkspace();
    const plan = await t.tools.plan('write_file', { path: 'big.txt', content: 'x'.repeat(WRITE_MAX_BYTES) });
    expect(await t.tools.execute(plan)).toMatchObject({ ok: true });
    expect((await t.get('big.txt'))?.length).toBe(WRITE_MAX_BYTES);
  });

  it('accepts one byte under 256 KiB', async () => {
    const t = await tempWorkspace();
    await expect(
      t.tools.plan('write_file', { path: 'a.txt', content: 'x'.repeat(WRITE_MAX_BYTES - 1) }),
    ).resolves.toBeTruthy();
  });

  it('refuses 256 KiB plus one byte, counting bytes not characters, and writes nothing', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'old');
    const content = 'x'.repeat(WRITE_MAX_BYTES - 1) + 'é'; // 'é' is two bytes
    await expect(t.tools.plan('write_file', { path: 'a.txt', content })).rejects.toThrow(/262145 bytes.*262144/);
    expect((await t.get('a.txt'))?.toString()).toBe('old');
  });

  it('replaces an existing text file of exactly 8 MiB, the replace limit', async () => {
    const t = await tempWorkspace();
    await t.put('big.txt', 'x'.repeat(REPLACE_MAX_BYTES));
    const plan = (await t.tools.plan('write_file', { path: 'big.txt', content: 'small' })) as WritePlan;
    expect(plan.before?.length).toBe(REPLACE_MAX_BYTES);
    expect(await t.tools.execute(plan)).toMatchObject({ ok: true });
    expect((await t.get('big.txt'))?.toString()).toBe('small');
  });

  it('refuses content holding a NUL byte, naming where, and writes nothing', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'old');
    const content = `${'x'.repeat(20_000)}\u0000tail`; // past the 8 KiB sniff: anywhere counts
    await expect(t.tools.plan('write_file', { path: 'a.txt', content })).rejects.toThrow(
      'write_file: the resulting "a.txt" would contain a NUL byte (at byte 20000); write_file writes text only',
    );
    await expect(t.tools.plan('write_file', { path: 'new.txt', content: '\u0000' })).rejects.toThrow(/NUL byte/);
    expect((await t.get('a.txt'))?.toString()).toBe('old');
    expect(await t.get('new.txt')).toBeNull();
  });

  it('refuses to replace a binary file (a NUL byte in its first 8 KiB), and writes nothing', async () => {
    const t = await tempWorkspace();
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    await t.put('logo.png', image);
    await expect(t.tools.plan('write_file', { path: 'logo.png', content: 'text' })).rejects.toThrow(
      'cannot write "logo.png": it is a binary file (a NUL byte in its first 8 KiB); write_file and search_replace edit text files only',
    );
    expect((await t.get('logo.png'))?.equals(image)).toBe(true);
  });

  it('replaces a text file whose first NUL byte lies past the first 8 KiB, as read_file would read it', async () => {
    const t = await tempWorkspace();
    await t.put('late.txt', Buffer.concat([Buffer.alloc(BINARY_SNIFF_BYTES, 0x61), Buffer.from([0])]));
    const plan = (await t.tools.plan('write_file', { path: 'late.txt', content: 'clean' })) as WritePlan;
    expect(plan.before?.length).toBe(BINARY_SNIFF_BYTES + 1);
  });

  it('refuses to replace an existing file over 8 MiB, saying why, and writes nothing', async () => {
    const t = await tempWorkspace();
    const file = await t.put('big.bin', 'x');
    await truncate(file, REPLACE_MAX_BYTES + 1);
    await expect(t.tools.plan('write_file', { path: 'big.bin', content: 'small' })).rejects.toThrow(
      `cannot write "big.bin": it is ${REPLACE_MAX_BYTES + 1} bytes, and an existing file is replaced only up to ${REPLACE_MAX_BYTES} bytes (8 MiB), since its diff could not be shown on a card`,
    );
    expect((await stat(file)).size).toBe(REPLACE_MAX_BYTES + 1);
  });

  it('refuses a FIFO at once instead of waiting for a writer', async () => {
    const t = await tempWorkspace();
    execFileSync('mkfifo', [path.join(t.dir, 'pipe')]);
    await expect(t.tools.plan('write_file', { path: 'pipe', content: 'x' })).rejects.toThrow(
      /cannot write "pipe": .*pipe is not a regular file/,
    );
  });

  it('refuses a folder', async () => {
    const t = await tempWorkspace();
    await mkdir(path.join(t.dir, 'sub'));
    await expect(t.tools.plan('write_file', { path: 'sub', content: 'x' })).rejects.toThrow(/is a folder/);
  });

  it('refuses a path whose parent is a file, creating nothing', async () => {
    const t = await tempWorkspace();
    await t.put('file.txt', 'x');
    await expect(t.tools.plan('write_file', { path: 'file.txt/child/c.txt', content: 'x' })).rejects.toThrow(
      /cannot create "file.txt\/child\/c.txt": .*file.txt is a file, not a folder/,
    );
    expect(await readdir(t.dir)).toEqual(['file.txt']);
  });

  it('refuses a relative path that escapes with ..', async () => {
    const t = await tempWorkspace();
    await expect(t.tools.plan('write_file', { path: '../x.txt', content: 'x' })).rejects.toThrow(/"\.\." to walk out/);
  });

  it('plans an absolute path outside as an outside write, which executes on that path', async () => {
    const t = await tempWorkspace();
    const file = path.join(t.parent, 'outside.txt');
    const plan = await t.tools.plan('write_file', { path: file, content: 'out there' });
    expect(plan).toMatchObject({ kind: 'write', target: { real: file, inside: false } });
    expect(await t.tools.execute(plan)).toMatchObject({ ok: true });
    expect((await nodeFs.readFile(file)).toString()).toBe('out there');
  });
});

describe('write_file execution', () => {
  it('creates missing parent folders and gives a new file mode 0644 whatever the umask', async () => {
    const t = await tempWorkspace();
    const previous = process.umask(0o077);
    try {
      await t.tools.execute(await t.tools.plan('write_file', { path: 'a/b/c.txt', content: 'deep' }));
    } finally {
      process.umask(previous);
    }
    expect((await t.get('a/b/c.txt'))?.toString()).toBe('deep');
    expect(await modeOf(path.join(t.dir, 'a/b/c.txt'))).toBe(0o644);
  });

  it('replaces the file by renaming a new one into place and leaves no temporary file', async () => {
    const t = await tempWorkspace();
    const file = await t.put('a.txt', 'old');
    const inodeBefore = (await stat(file)).ino;
    const r = await t.tools.execute(await t.tools.plan('write_file', { path: 'a.txt', content: 'new' }));
    expect(r).toMatchObject({ ok: true, output: 'Wrote a.txt (3 bytes, was 3 bytes).' });
    expect((await t.get('a.txt'))?.toString()).toBe('new');
    expect((await stat(file)).ino).not.toBe(inodeBefore);
    expect(await readdir(t.dir)).toEqual(['a.txt']);
  });

  it("keeps an existing file's mode", async () => {
    const t = await tempWorkspace();
    const script = await t.put('run.sh', '#!/bin/sh\n');
    const secret = await t.put('secret.txt', 'a');
    await chmod(script, 0o755);
    await chmod(secret, 0o600);
    await t.tools.execute(await t.tools.plan('write_file', { path: 'run.sh', content: '#!/bin/sh\necho hi\n' }));
    await t.tools.execute(await t.tools.plan('write_file', { path: 'secret.txt', content: 'b' }));
    expect(await modeOf(script)).toBe(0o755);
    expect(await modeOf(secret)).toBe(0o600);
  });

  it('writes through a link inside to its target and keeps the link', async () => {
    const t = await tempWorkspace();
    await t.put('target.txt', 'old');
    await symlink('target.txt', path.join(t.dir, 'link'));
    await t.tools.execute(await t.tools.plan('write_file', { path: 'link', content: 'new' }));
    expect((await t.get('target.txt'))?.toString()).toBe('new');
    expect((await lstat(path.join(t.dir, 'link'))).isSymbolicLink()).toBe(true);
    expect(await readlink(path.join(t.dir, 'link'))).toBe('target.txt');
  });

  it('fails cleanly when the parent became a file after planning, writing nothing', async () => {
    const t = await tempWorkspace();
    const plan = await t.tools.plan('write_file', { path: 'dir/new.txt', content: 'x' });
    await writeFile(path.join(t.dir, 'dir'), 'now a file');
    const r = await t.tools.execute(plan);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/could not write "dir\/new.txt".*the file is unchanged/);
    expect((await t.get('dir'))?.toString()).toBe('now a file');
  });
});

describe('write_file when the world changed after planning', () => {
  it('throws StalePlanError and leaves the file as changed when its bytes changed', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'v1');
    const plan = await t.tools.plan('write_file', { path: 'a.txt', content: 'mine' });
    await t.put('a.txt', 'v2');
    await expect(t.tools.execute(plan)).rejects.toBeInstanceOf(StalePlanError);
    expect((await t.get('a.txt'))?.toString()).toBe('v2');
  });

  it('throws StalePlanError when the file grew past the 8 MiB replace limit meanwhile', async () => {
    const t = await tempWorkspace();
    const file = await t.put('a.txt', 'v1');
    const plan = await t.tools.plan('write_file', { path: 'a.txt', content: 'mine' });
    await truncate(file, REPLACE_MAX_BYTES + 1);
    await expect(t.tools.execute(plan)).rejects.toThrow(StalePlanError);
    expect((await stat(file)).size).toBe(REPLACE_MAX_BYTES + 1);
  });

  it('throws StalePlanError when a file planned as new appeared meanwhile', async () => {
    const t = await tempWorkspace();
    const plan = await t.tools.plan('write_file', { path: 'a.txt', content: 'mine' });
    await t.put('a.txt', 'theirs');
    await expect(t.tools.execute(plan)).rejects.toBeInstanceOf(StalePlanError);
    expect((await t.get('a.txt'))?.toString()).toBe('theirs');
  });

  it('throws StalePlanError when the file was deleted meanwhile', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'v1');
    const plan = await t.tools.plan('write_file', { path: 'a.txt', content: 'mine' });
    await rm(path.join(t.dir, 'a.txt'));
    await expect(t.tools.execute(plan)).rejects.toBeInstanceOf(StalePlanError);
    expect(await t.get('a.txt')).toBeNull();
  });

  it('throws StalePlanError when a link on the path now points elsewhere, writing neither file', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'same');
    await t.put('b.txt', 'same');
    await symlink('a.txt', path.join(t.dir, 'link'));
    const plan = await t.tools.plan('write_file', { path: 'link', content: 'mine' });
    await unlink(path.join(t.dir, 'link'));
    await symlink('b.txt', path.join(t.dir, 'link'));
    await expect(t.tools.execute(plan)).rejects.toThrow(StalePlanError);
    expect((await t.get('a.txt'))?.toString()).toBe('same');
    expect((await t.get('b.txt'))?.toString()).toBe('same');
  });

  it('throws StalePlanError when a link on the path now points out of the workspace', async () => {
    const t = await tempWorkspace();
    await mkdir(path.join(t.dir, 'real'));
    await mkdir(path.join(t.parent, 'outside'));
    await symlink('real', path.join(t.dir, 'dir'));
    const plan = await t.tools.plan('write_file', { path: 'dir/new.txt', content: 'mine' });
    await unlink(path.join(t.dir, 'dir'));
    await symlink(path.join(t.parent, 'outside'), path.join(t.dir, 'dir'));
    await expect(t.tools.execute(plan)).rejects.toThrow(/no longer resolves as planned.*symlink/);
    expect(await readdir(path.join(t.parent, 'outside'))).toEqual([]);
  });
});

describe('write_file failing half way (injected file system)', () => {
  function writerWith(overrides: Partial<AtomicWriteFs>, renames: string[][] = []): AtomicWriter {
    return new AtomicWriter({
      mkdir: (d, o) => nodeFs.mkdir(d, o),
      open: (f, fl, m) => nodeFs.open(f, fl, m),
      rename: async (from, to) => {
        renames.push([from, to]);
        await nodeFs.rename(from, to);
      },
      unlink: (f) => nodeFs.unlink(f),
      rmdir: (d) => nodeFs.rmdir(d),
      realpath: (f) => nodeFs.realpath(f),
      lstat: (f) => nodeFs.lstat(f),
      ...overrides,
    });
  }

  it("renames from a temporary file in the target's own folder", async () => {
    const renames: string[][] = [];
    const t = await tempWorkspace([createWriteFileTool(writerWith({}, renames))]);
    await t.put('sub/a.txt', 'old');
    await t.tools.execute(await t.tools.plan('write_file', { path: 'sub/a.txt', content: 'new' }));
    const [from, to] = renames[0] ?? [];
    expect(to).toBe(path.join(t.dir, 'sub/a.txt'));
    expect(path.dirname(from ?? '')).toBe(path.join(t.dir, 'sub'));
    expect(from).not.toBe(to);
  });

  it('keeps the old content and removes the temporary file when the rename fails', async () => {
    const writer = writerWith({ rename: () => Promise.reject(failing('EIO')) });
    const t = await tempWorkspace([createWriteFileTool(writer)]);
    await t.put('a.txt', 'old');
    const r = await t.tools.execute(await t.tools.plan('write_file', { path: 'a.txt', content: 'new' }));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/EIO: simulated failure; the file is unchanged/);
    expect((await t.get('a.txt'))?.toString()).toBe('old');
    expect(await readdir(t.dir)).toEqual(['a.txt']);
  });

  it('keeps the old content and removes the temporary file when writing stops half way', async () => {
    const halfThenFail = async (file: string, flags: string, mode: number) => {
      const handle = await nodeFs.open(file, flags, mode);
      return new Proxy(handle, {
        get(target, prop) {
          if (prop === 'writeFile') {
            return async (data: Buffer) => {
              await target.write(data.subarray(0, data.length / 2));
              throw failing('ENOSPC');
            };
          }
          const value: unknown = Reflect.get(target, prop);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    };
    const t = await tempWorkspace([createWriteFileTool(writerWith({ open: halfThenFail }))]);
    await t.put('a.txt', 'old content');
    const r = await t.tools.execute(await t.tools.plan('write_file', { path: 'a.txt', content: 'new content!' }));
    expect(r.ok).toBe(false);
    expect((await t.get('a.txt'))?.toString()).toBe('old content');
    expect(await readdir(t.dir)).toEqual(['a.txt']);
  });

  it('removes the folders it created when the write then fails', async () => {
    const writer = writerWith({ rename: () => Promise.reject(failing('EIO')) });
    const t = await tempWorkspace([createWriteFileTool(writer)]);
    await t.put('keep/existing.txt', 'x');
    await t.tools.execute(await t.tools.plan('write_file', { path: 'keep/new1/new2/a.txt', content: 'new' }));
    expect(await readdir(t.dir)).toEqual(['keep']);
    expect(await readdir(path.join(t.dir, 'keep'))).toEqual(['existing.txt']);
  });
});
