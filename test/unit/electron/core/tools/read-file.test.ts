import { execFileSync } from 'node:child_process';
import { mkdir, open, rename, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BINARY_SNIFF_BYTES, READ_MAX_BYTES } from '../../../../../shared/limits.js';
import { StalePlanError, type ToolResult } from '../../../../../electron/core/tools/tool-def.js';
import { tempWorkspace, toolsWithResolveHooks, type TempWorkspace } from './temp-workspace.js';

async function read(t: TempWorkspace, args: Record<string, unknown>): Promise<ToolResult> {
  return t.tools.execute(await t.tools.plan('read_file', args));
}

async function readOk(t: TempWorkspace, args: Record<string, unknown>) {
  const r = await read(t, args);
  if (!r.ok) throw new Error(`expected ok, got: ${r.error}`);
  return {
    output: r.output,
    details: r.details as { start: number; end: number; next?: { offset?: number; line?: number } },
  };
}

/** The text part of an output, without the continuation note (always preceded by one newline). */
function textOf(output: string): string {
  return output.replace(/\n\[read_file: [^\]]*\]$/, '');
}

describe('read_file at the 32 KiB limit', () => {
  it('returns a file of exactly 32 KiB whole, with no continuation note', async () => {
    const t = await tempWorkspace();
    const content = 'x'.repeat(READ_MAX_BYTES);
    await t.put('f.txt', content);
    const r = await readOk(t, { path: 'f.txt', offset: 0 });
    expect(r.output).toBe(content);
    expect(r.details.next).toBeUndefined();
  });

  it('returns a file one byte under 32 KiB whole', async () => {
    const t = await tempWorkspace();
    await t.put('f.txt', 'x'.repeat(READ_MAX_BYTES - 1));
    expect((await readOk(t, { path: 'f.txt' })).output).toBe('x'.repeat(READ_MAX_BYTES - 1));
  });

  it('returns 32 KiB of a file one byte over and gives the next offset', async () => {
    const t = await tempWorkspace();
    await t.put('f.txt', 'x'.repeat(READ_MAX_BYTES) + 'y');
    const first = await readOk(t, { path: 'f.txt', offset: 0 });
    expect(textOf(first.output)).toBe('x'.repeat(READ_MAX_BYTES));
    expect(first.details.next).toEqual({ offset: READ_MAX_BYTES });
    expect(first.output).toContain(`offset=${READ_MAX_BYTES}`);
    const second = await readOk(t, { path: 'f.txt', offset: READ_MAX_BYTES });
    expect(second.output).toBe('y');
  });
});

describe('read_file by offset', () => {
  it('reads from a byte offset to the end', async () => {
    const t = await tempWorkspace();
    await t.put('f.txt', 'hello world');
    expect((await readOk(t, { path: 'f.txt', offset: 6 })).output).toBe('world');
  });

  it('never splits a 3-byte character straddling the 32 KiB boundary', async () => {
    const t = await tempWorkspace();
    // 1 + 3 * 10922 = 32767 bytes, so the next "€" spans bytes 32767..32769.
    const content = 'a' + '€'.repeat(10922 + 5);
    await t.put('f.txt', content);
    const r = await readOk(t, { path: 'f.txt', offset: 0 });
    expect(textOf(r.output)).toBe('a' + '€'.repeat(10922));
    expect(r.output).not.toContain('\uFFFD');
    expect(r.details.next).toEqual({ offset: 32767 });
  });

  it('never splits a 4-byte character straddling the 32 KiB boundary', async () => {
    const t = await tempWorkspace();
    // 2 + 4 * 8191 = 32766 bytes, so the next emoji spans bytes 32766..32769.
    const content = 'ab' + '😀'.repeat(8191 + 3);
    await t.put('f.txt', content);
    const r = await readOk(t, { path: 'f.txt', offset: 0 });
    expect(textOf(r.output)).toBe('ab' + '😀'.repeat(8191));
    expect(r.details.next).toEqual({ offset: 32766 });
  });

  it('pages through a multi-byte file by next offsets and gets every byte back', async () => {
    const t = await tempWorkspace();
    const content = 'héllo wörld ✓ 😀 '.repeat(6000);
    await t.put('f.txt', content);
    let offset: number | undefined = 0;
    let joined = '';
    while (offset !== undefined) {
      const r = await readOk(t, { path: 'f.txt', offset });
      joined += textOf(r.output);
      offset = r.details.next?.offset;
    }
    expect(joined).toBe(content);
  });

  it('moves an offset that falls inside a character forward to the next whole one', async () => {
    const t = await tempWorkspace();
    await t.put('f.txt', '€€');
    const r = await readOk(t, { path: 'f.txt', offset: 2 });
    expect(r.output).toBe('€');
    expect(r.details.start).toBe(3);
  });

  it('says there is nothing to read at an offset equal to the size', async () => {
    const t = await tempWorkspace();
    await t.put('f.txt', 'abc');
    expect((await readOk(t, { path: 'f.txt', offset: 3 })).output).toMatch(/nothing to read; the file is 3 bytes/);
  });

  it('refuses an offset past the end and says the size', async () => {
    const t = await tempWorkspace();
    await t.put('f.txt', 'abc');
    const r = await read(t, { path: 'f.txt', offset: 4 });
    expect(r).toMatchObject({ ok: false });
    expect(!r.ok && r.error).toMatch(/offset 4 is past the end of "f.txt" \(3 bytes\)/);
  });

  it('reads a window near the end of a 4 GiB sparse file without loading the file', async () => {
    const t = await tempWorkspace();
    const file = await t.put('huge.txt', 'text at the start\n'.repeat(1000));
    const size = 4 * 1024 ** 3;
    const handle = await open(file, 'r+');
    await handle.write('the end', size - 7);
    await handle.close();
    const r = await readOk(t, { path: 'huge.txt', offset: size - 7 });
    expect(r.output).toBe('the end');
  });
});

describe('read_file by line', () => {
  const lines = (n: number) =>
    Array.from({ length: n }, (_, i) => `line ${String(i + 1).padStart(4, '0')} ${'.'.repeat(89)}\n`);

  it('starts at a 1-based line', async () => {
    const t = await tempWorkspace();
    await t.put('f.txt', 'one\ntwo\nthree\n');
    expect((await readOk(t, { path: 'f.txt', line: 2 })).output).toBe('two\nthree\n');
  });

  it('returns whole lines only and gives the next line', async () => {
    const t = await tempWorkspace();
    const all = lines(1000); // 100 bytes each: 327 whole lines fit in 32 KiB
    await t.put('f.txt', all.join(''));
    const r = await readOk(t, { path: 'f.txt', line: 1 });
    expect(textOf(r.output)).toBe(all.slice(0, 327).join(''));
    expect(r.details.next).toEqual({ line: 328 });
    expect(r.output).toContain('line=328');
  });

  it('pages through a file by next lines and gets every line back', async () => {
    const t = await tempWorkspace();
    const all = lines(1000);
    await t.put('f.txt', all.join(''));
    let line: number | undefined = 1;
    let joined = '';
    while (line !== undefined) {
      const r = await readOk(t, { path: 'f.txt', line });
      joined += textOf(r.output);
      line = r.details.next?.line;
    }
    expect(joined).toBe(all.join(''));
  });

  it('defaults to line 1 when neither offset nor line is given', async () => {
    const t = await tempWorkspace();
    await t.put('f.txt', lines(1000).join(''));
    expect((await readOk(t, { path: 'f.txt' })).details.next).toEqual({ line: 328 });
  });

  it('returns a line of exactly 32 KiB (newline included) whole', async () => {
    const t = await tempWorkspace();
    const long = 'z'.repeat(READ_MAX_BYTES - 1) + '\n';
    await t.put('f.txt', long + 'next\n');
    const r = await readOk(t, { path: 'f.txt', line: 1 });
    expect(textOf(r.output)).toBe(long);
    expect(r.details.next).toEqual({ line: 2 });
  });

  it('cuts a single line longer than 32 KiB and gives the next offset, not a line', async () => {
    const t = await tempWorkspace();
    const long = 'q' + '€'.repeat(20000) + '\n';
    await t.put('f.txt', 'short\n' + long + 'after\n');
    const r = await readOk(t, { path: 'f.txt', line: 2 });
    expect(r.details.next?.line).toBeUndefined();
    expect(r.details.next?.offset).toBe(6 + 1 + 3 * 10922);
    expect(textOf(r.output)).toBe('q' + '€'.repeat(10922));
    expect(r.output).toMatch(/offset=32773\]$/);
  });

  it('reads the last line when it has no newline', async () => {
    const t = await tempWorkspace();
    await t.put('f.txt', 'a\nb');
    expect((await readOk(t, { path: 'f.txt', line: 2 })).output).toBe('b');
  });

  it('refuses a line past the end and says how many lines there are', async () => {
    const t = await tempWorkspace();
    await t.put('f.txt', 'a\nb\n');
    const r = await read(t, { path: 'f.txt', line: 3 });
    expect(!r.ok && r.error).toMatch(/line 3 is past the end of "f.txt" \(2 lines\)/);
  });

  it('reads line 1 of an empty file as nothing', async () => {
    const t = await tempWorkspace();
    await t.put('empty.txt', '');
    expect((await readOk(t, { path: 'empty.txt', line: 1 })).output).toMatch(/nothing to read; the file is 0 bytes/);
  });
});

describe('read_file refusals', () => {
  it('refuses a file with a NUL in its first 8 KiB and gives its size', async () => {
    const t = await tempWorkspace();
    const bytes = Buffer.alloc(20000, 0x61);
    bytes[BINARY_SNIFF_BYTES - 1] = 0;
    await t.put('bin.dat', bytes);
    const r = await read(t, { path: 'bin.dat' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/looks binary.*20000 bytes/);
  });

  it('reads a file whose first NUL is just past the first 8 KiB', async () => {
    const t = await tempWorkspace();
    const bytes = Buffer.alloc(BINARY_SNIFF_BYTES + 10, 0x61);
    bytes[BINARY_SNIFF_BYTES] = 0;
    await t.put('late-nul.txt', bytes);
    expect((await read(t, { path: 'late-nul.txt' })).ok).toBe(true);
  });

  it('refuses a folder and points to list_dir', async () => {
    const t = await tempWorkspace();
    await t.put('sub/f.txt', 'x');
    await expect(t.tools.plan('read_file', { path: 'sub' })).rejects.toThrow(/"sub" is a folder; use list_dir/);
  });

  it('refuses a missing file', async () => {
    const t = await tempWorkspace();
    await expect(t.tools.plan('read_file', { path: 'nope.txt' })).rejects.toThrow(/"nope.txt" does not exist/);
  });

  it('refuses a FIFO instead of hanging on it', async () => {
    const t = await tempWorkspace();
    execFileSync('mkfifo', [path.join(t.dir, 'pipe')]);
    await expect(t.tools.plan('read_file', { path: 'pipe' })).rejects.toThrow(/not a regular file/);
  });
});

describe('read_file paths', () => {
  it('plans an absolute path outside as an outside read and reads it when executed', async () => {
    const t = await tempWorkspace();
    const file = path.join(t.parent, 'outside.txt');
    await t.put(file, 'far away');
    const plan = await t.tools.plan('read_file', { path: file });
    expect(plan).toMatchObject({ kind: 'read', tool: 'read_file', target: { real: file, inside: false } });
    expect(await t.tools.execute(plan)).toMatchObject({ ok: true, output: 'far away' });
  });

  it('refuses a relative path through a link that points out', async () => {
    const t = await tempWorkspace();
    await t.put(path.join(t.parent, 'outside.txt'), 'secret');
    await symlink(path.join(t.parent, 'outside.txt'), path.join(t.dir, 'link'));
    await expect(t.tools.plan('read_file', { path: 'link' })).rejects.toThrow(/symlink that points out/);
  });

  it('throws StalePlanError when a link was re-pointed between plan and execute', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'A');
    await t.put('b.txt', 'B');
    await symlink('a.txt', path.join(t.dir, 'link'));
    const plan = await t.tools.plan('read_file', { path: 'link' });
    await unlink(path.join(t.dir, 'link'));
    await symlink('b.txt', path.join(t.dir, 'link'));
    await expect(t.tools.execute(plan)).rejects.toBeInstanceOf(StalePlanError);
  });
});

describe('read_file when the path is swapped during execute', () => {
  it('refuses a link to outside swapped in at the leaf before the open, instead of reading through it', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'inside');
    await t.put(path.join(t.parent, 'outside.txt'), 'secret');
    const plan = await t.tools.plan('read_file', { path: 'a.txt' });
    await unlink(path.join(t.dir, 'a.txt'));
    await symlink(path.join(t.parent, 'outside.txt'), path.join(t.dir, 'a.txt'));
    const err = await t.tools.execute(plan).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StalePlanError);
    expect((err as Error).message).toMatch(/a.txt is a symbolic link/);
  });

  it('drops the answer when a parent folder was a link to outside at the open, even if swapped back since', async () => {
    const t = await tempWorkspace();
    await t.put('dir/a.txt', 'inside');
    await t.put(path.join(t.parent, 'outside/a.txt'), 'secret');
    const plan = await t.tools.plan('read_file', { path: 'dir/a.txt' });
    // At the open, dir/ leads outside...
    await rename(path.join(t.dir, 'dir'), path.join(t.dir, 'dir-moved'));
    await symlink(path.join(t.parent, 'outside'), path.join(t.dir, 'dir'));
    const tools = toolsWithResolveHooks(t, {
      // ...and it is back in place by the check after the open.
      before: async () => {
        await unlink(path.join(t.dir, 'dir'));
        await rename(path.join(t.dir, 'dir-moved'), path.join(t.dir, 'dir'));
      },
    });
    const err = await tools.execute(plan).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StalePlanError);
    expect((err as Error).message).toMatch(/changed while it was being opened/);
  });

  it('drops the answer when the file was replaced after the open, so what was opened is no longer there', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'approved');
    const plan = await t.tools.plan('read_file', { path: 'a.txt' });
    const tools = toolsWithResolveHooks(t, {
      before: async () => {
        await unlink(path.join(t.dir, 'a.txt'));
        await t.put('a.txt', 'another file');
      },
    });
    const err = await tools.execute(plan).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StalePlanError);
  });

  it('reads normally when nothing moved, resolving the path again once, after the open', async () => {
    const t = await tempWorkspace();
    await mkdir(path.join(t.dir, 'dir'));
    await t.put('dir/a.txt', 'inside');
    const resolves: number[] = [];
    const tools = toolsWithResolveHooks(t, { after: async (n) => void resolves.push(n) });
    const plan = await t.tools.plan('read_file', { path: 'dir/a.txt' });
    expect(await tools.execute(plan)).toMatchObject({ ok: true, output: 'inside' });
    expect(resolves).toEqual([1]);
  });

  it("drops the read's own error too when the open file was outside, so it cannot tell that file's size", async () => {
    const t = await tempWorkspace();
    await t.put('dir/a.txt', 'a longer file inside');
    await t.put(path.join(t.parent, 'outside/a.txt'), 'tiny');
    // Offset 10 is inside the planned file but past the end of the outside one.
    const plan = await t.tools.plan('read_file', { path: 'dir/a.txt', offset: 10 });
    await rename(path.join(t.dir, 'dir'), path.join(t.dir, 'dir-moved'));
    await symlink(path.join(t.parent, 'outside'), path.join(t.dir, 'dir'));
    const tools = toolsWithResolveHooks(t, {
      before: async () => {
        await unlink(path.join(t.dir, 'dir'));
        await rename(path.join(t.dir, 'dir-moved'), path.join(t.dir, 'dir'));
      },
    });
    const err = await tools.execute(plan).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StalePlanError);
    expect((err as Error).message).not.toMatch(/4 bytes|past the end/);
  });
});
