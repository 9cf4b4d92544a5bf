import { chmod, readdir, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPLACE_MAX_BYTES, WRITE_MAX_BYTES } from '../../../../../shared/limits.js';
import { StalePlanError, type WritePlan } from '../../../../../electron/core/tools/tool-def.js';
import { tempWorkspace, type TempWorkspace } from './temp-workspace.js';

async function replace(t: TempWorkspace, args: Record<string, unknown>) {
  return t.tools.execute(await t.tools.plan('search_replace', args));
}

describe('search_replace', () => {
  it('replaces a string that occurs exactly once', async () => {
    const t = await tempWorkspace();
    await t.put('a.ts', 'const a = 1;\nconst b = 2;\n');
    const r = await replace(t, { path: 'a.ts', old: 'b = 2', new: 'b = 3' });
    expect(r).toMatchObject({ ok: true, output: 'Replaced 1 occurrence in a.ts (now 26 bytes).' });
    expect((await t.get('a.ts'))?.toString()).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('plans the whole proposed file, the bytes before, and their digest', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'one two');
    const plan = (await t.tools.plan('search_replace', { path: 'a.txt', old: 'two', new: '2' })) as WritePlan;
    expect(plan).toMatchObject({ kind: 'write', tool: 'search_replace' });
    expect(plan.before?.toString()).toBe('one two');
    expect(plan.after.toString()).toBe('one 2');
    expect(plan.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('says "not found" naming the path, and changes nothing', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'hello');
    await expect(t.tools.plan('search_replace', { path: 'a.txt', old: 'bye', new: 'x' })).rejects.toThrow(
      '"old" was not found in "a.txt"',
    );
    expect((await t.get('a.txt'))?.toString()).toBe('hello');
  });

  it('says "found 2 times" naming the path when old is not unique, and changes nothing', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'x = 1\nx = 1\n');
    await expect(t.tools.plan('search_replace', { path: 'a.txt', old: 'x = 1', new: 'x = 2' })).rejects.toThrow(
      /"old" was found 2 times in "a.txt".*replace_all/,
    );
    expect((await t.get('a.txt'))?.toString()).toBe('x = 1\nx = 1\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'aXbXcX');
    const r = await replace(t, { path: 'a.txt', old: 'X', new: '--', replace_all: true });
    expect(r).toMatchObject({ ok: true, output: 'Replaced 3 occurrences in a.txt (now 9 bytes).' });
    expect((await t.get('a.txt'))?.toString()).toBe('a--b--c--');
  });

  it('counts non-overlapping occurrences, as replaceAll does', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'aaaa');
    await replace(t, { path: 'a.txt', old: 'aa', new: 'b', replace_all: true });
    expect((await t.get('a.txt'))?.toString()).toBe('bb');
  });

  it('deletes text when new is empty', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'keep DROP keep');
    await replace(t, { path: 'a.txt', old: ' DROP', new: '' });
    expect((await t.get('a.txt'))?.toString()).toBe('keep keep');
  });

  it('leaves bytes outside the match exactly as they were, invalid UTF-8 and CRLF included', async () => {
    const t = await tempWorkspace();
    const before = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('\r\nold\r\n'), Buffer.from([0xc3])]);
    await t.put('a.bin', before);
    await replace(t, { path: 'a.bin', old: 'old', new: 'new' });
    const expected = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('\r\nnew\r\n'), Buffer.from([0xc3])]);
    expect((await t.get('a.bin'))?.equals(expected)).toBe(true);
  });

  it('refuses to edit a binary file (a NUL byte in its first 8 KiB), and changes nothing', async () => {
    const t = await tempWorkspace();
    const bytes = Buffer.from('name=old\u0000\u0001\u0002', 'latin1');
    await t.put('data.bin', bytes);
    await expect(t.tools.plan('search_replace', { path: 'data.bin', old: 'old', new: 'new' })).rejects.toThrow(
      'cannot write "data.bin": it is a binary file (a NUL byte in its first 8 KiB); write_file and search_replace edit text files only',
    );
    expect((await t.get('data.bin'))?.equals(bytes)).toBe(true);
  });

  it('refuses a replacement that would put a NUL byte into the file, and changes nothing', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'a = 1;\n');
    await expect(t.tools.plan('search_replace', { path: 'a.txt', old: '1', new: '\u0000' })).rejects.toThrow(
      'search_replace: the resulting "a.txt" would contain a NUL byte (at byte 4); search_replace writes text only',
    );
    expect((await t.get('a.txt'))?.toString()).toBe('a = 1;\n');
  });

  it("keeps the file's mode", async () => {
    const t = await tempWorkspace();
    const file = await t.put('run.sh', 'echo a\n');
    await chmod(file, 0o750);
    await replace(t, { path: 'run.sh', old: 'a', new: 'b' });
    expect((await stat(file)).mode & 0o777).toBe(0o750);
    expect(await readdir(t.dir)).toEqual(['run.sh']);
  });

  it('refuses a missing file and points to write_file', async () => {
    const t = await tempWorkspace();
    await expect(t.tools.plan('search_replace', { path: 'nope.txt', old: 'a', new: 'b' })).rejects.toThrow(
      /"nope.txt" does not exist; use write_file/,
    );
  });

  it('refuses old equal to new', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'a');
    await expect(t.tools.plan('search_replace', { path: 'a.txt', old: 'a', new: 'a' })).rejects.toThrow(/are the same/);
  });
});

describe('search_replace at the 256 KiB result limit', () => {
  it('accepts a result of exactly 256 KiB', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'x'.repeat(WRITE_MAX_BYTES - 1) + 'A');
    expect(await replace(t, { path: 'a.txt', old: 'A', new: 'B' })).toMatchObject({ ok: true });
    expect((await t.get('a.txt'))?.length).toBe(WRITE_MAX_BYTES);
  });

  it('accepts a result one byte under 256 KiB', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'x'.repeat(WRITE_MAX_BYTES - 2) + 'A');
    expect(await replace(t, { path: 'a.txt', old: 'A', new: 'B' })).toMatchObject({ ok: true });
  });

  it('refuses a result of 256 KiB plus one byte and changes nothing', async () => {
    const t = await tempWorkspace();
    const original = 'x'.repeat(WRITE_MAX_BYTES - 1) + 'A';
    await t.put('a.txt', original);
    await expect(t.tools.plan('search_replace', { path: 'a.txt', old: 'A', new: 'BB' })).rejects.toThrow(
      /"a.txt" would be 262145 bytes/,
    );
    expect((await t.get('a.txt'))?.toString()).toBe(original);
  });

  it('allows shrinking a file that is over the limit to within it', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'x'.repeat(WRITE_MAX_BYTES) + 'CUT');
    expect(await replace(t, { path: 'a.txt', old: 'CUT', new: '' })).toMatchObject({ ok: true });
  });
});

describe('search_replace on a file at the 8 MiB replace limit', () => {
  it('edits an existing file of exactly 8 MiB', async () => {
    const t = await tempWorkspace();
    const bulk = 'y'.repeat(REPLACE_MAX_BYTES - 4);
    await t.put('a.txt', `keep${bulk}`);
    expect(await replace(t, { path: 'a.txt', old: bulk, new: '' })).toMatchObject({ ok: true });
    expect((await t.get('a.txt'))?.toString()).toBe('keep');
  });

  it('refuses an existing file over 8 MiB, saying why, and changes nothing', async () => {
    const t = await tempWorkspace();
    const file = await t.put('a.txt', 'A');
    await truncate(file, REPLACE_MAX_BYTES + 1);
    await expect(t.tools.plan('search_replace', { path: 'a.txt', old: 'A', new: 'B' })).rejects.toThrow(
      `cannot write "a.txt": it is ${REPLACE_MAX_BYTES + 1} bytes, and an existing file is replaced only up to ${REPLACE_MAX_BYTES} bytes (8 MiB), since its diff could not be shown on a card`,
    );
    expect((await stat(file)).size).toBe(REPLACE_MAX_BYTES + 1);
  });
});

describe('search_replace when the file changed after planning', () => {
  it('throws StalePlanError and leaves the changed file untouched', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'alpha beta');
    const plan = await t.tools.plan('search_replace', { path: 'a.txt', old: 'beta', new: 'gamma' });
    await t.put('a.txt', 'alpha beta!');
    await expect(t.tools.execute(plan)).rejects.toBeInstanceOf(StalePlanError);
    expect((await t.get('a.txt'))?.toString()).toBe('alpha beta!');
    expect(await readdir(path.join(t.dir))).toEqual(['a.txt']);
  });
});
