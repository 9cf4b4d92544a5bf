import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIST_MAX_NAMES } from '../../../../../shared/limits.js';
import { StalePlanError, type ToolResult } from '../../../../../electron/core/tools/tool-def.js';
import { tempWorkspace, toolsWithResolveHooks, type TempWorkspace } from './temp-workspace.js';

async function list(t: TempWorkspace, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return t.tools.execute(await t.tools.plan('list_dir', args));
}

async function listLines(t: TempWorkspace, args: Record<string, unknown> = {}): Promise<string[]> {
  const r = await list(t, args);
  if (!r.ok) throw new Error(`expected ok, got: ${r.error}`);
  return r.output.split('\n');
}

async function makeFiles(dir: string, n: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all(
    Array.from({ length: n }, (_, i) => writeFile(path.join(dir, `f${String(i).padStart(4, '0')}`), '')),
  );
}

describe('list_dir', () => {
  it('lists one level, sorted, with folders ending in /', async () => {
    const t = await tempWorkspace();
    await t.put('b.txt', '');
    await t.put('a/deep/file.txt', '');
    await t.put('C.md', '');
    expect(await listLines(t)).toEqual(['C.md', 'a/', 'b.txt']);
  });

  it('lists a subfolder given as the path', async () => {
    const t = await tempWorkspace();
    await t.put('src/x.ts', '');
    expect(await listLines(t, { path: 'src' })).toEqual(['x.ts']);
  });

  it('names a symlink as a link without following it, broken links included', async () => {
    const t = await tempWorkspace();
    await t.put('real/inner.txt', '');
    await symlink('real', path.join(t.dir, 'to-folder'));
    await symlink('does-not-exist', path.join(t.dir, 'broken'));
    await symlink('/', path.join(t.dir, 'root'));
    expect(await listLines(t)).toEqual(['broken -> does-not-exist', 'real/', 'root -> /', 'to-folder -> real']);
  });

  it('says when a folder is empty', async () => {
    const t = await tempWorkspace();
    await mkdir(path.join(t.dir, 'empty'));
    expect(await listLines(t, { path: 'empty' })).toEqual(['[list_dir: "empty" is empty]']);
  });

  it('lists exactly 500 names with no "more" note', async () => {
    const t = await tempWorkspace();
    await makeFiles(path.join(t.dir, 'many'), LIST_MAX_NAMES);
    const lines = await listLines(t, { path: 'many' });
    expect(lines).toHaveLength(LIST_MAX_NAMES);
    expect(lines.at(-1)).toBe('f0499');
  });

  it('lists 499 names whole', async () => {
    const t = await tempWorkspace();
    await makeFiles(path.join(t.dir, 'many'), LIST_MAX_NAMES - 1);
    expect(await listLines(t, { path: 'many' })).toHaveLength(LIST_MAX_NAMES - 1);
  });

  it('lists the first 500 of 501 names and says 1 more', async () => {
    const t = await tempWorkspace();
    await makeFiles(path.join(t.dir, 'many'), LIST_MAX_NAMES + 1);
    const r = await list(t, { path: 'many' });
    const lines = r.ok ? r.output.split('\n') : [];
    expect(lines).toHaveLength(LIST_MAX_NAMES + 1);
    expect(lines[LIST_MAX_NAMES - 1]).toBe('f0499');
    expect(lines.at(-1)).toBe('[list_dir: 500 of 501 names shown; 1 more not shown]');
    expect(r.details).toMatchObject({ total: 501, shown: 500, more: 1 });
  });

  it('refuses a file and points to read_file', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', '');
    await expect(t.tools.plan('list_dir', { path: 'a.txt' })).rejects.toThrow(
      /"a.txt" is a file, not a folder; use read_file/,
    );
  });

  it('refuses a missing folder', async () => {
    const t = await tempWorkspace();
    await expect(t.tools.plan('list_dir', { path: 'nope' })).rejects.toThrow(/"nope" does not exist/);
  });

  it('refuses a relative path through a link that points out', async () => {
    const t = await tempWorkspace();
    await mkdir(path.join(t.parent, 'outside'));
    await symlink(path.join(t.parent, 'outside'), path.join(t.dir, 'out'));
    await expect(t.tools.plan('list_dir', { path: 'out' })).rejects.toThrow(/symlink that points out/);
  });

  it('plans an absolute folder outside as an outside read and lists it', async () => {
    const t = await tempWorkspace();
    await t.put(path.join(t.parent, 'outside/o.txt'), '');
    const plan = await t.tools.plan('list_dir', { path: path.join(t.parent, 'outside') });
    expect(plan).toMatchObject({ kind: 'read', tool: 'list_dir', target: { inside: false } });
    expect(await t.tools.execute(plan)).toMatchObject({ ok: true, output: 'o.txt' });
  });
});

describe('list_dir when the folder is swapped during execute', () => {
  it('drops the listing when the folder became a link to outside after the re-resolve', async () => {
    const t = await tempWorkspace();
    await t.put('sub/inside.txt', '');
    await t.put(path.join(t.parent, 'outside/secret.txt'), '');
    const plan = await t.tools.plan('list_dir', { path: 'sub' });
    const tools = toolsWithResolveHooks(t, {
      after: async (n) => {
        if (n !== 1) return;
        await rename(path.join(t.dir, 'sub'), path.join(t.dir, 'sub-moved'));
        await symlink(path.join(t.parent, 'outside'), path.join(t.dir, 'sub'));
      },
    });
    await expect(tools.execute(plan)).rejects.toBeInstanceOf(StalePlanError);
  });

  it('drops the listing when the folder was replaced by another one while it was listed', async () => {
    const t = await tempWorkspace();
    await t.put('sub/inside.txt', '');
    const plan = await t.tools.plan('list_dir', { path: 'sub' });
    const tools = toolsWithResolveHooks(t, {
      before: async (n) => {
        if (n !== 2) return;
        await rename(path.join(t.dir, 'sub'), path.join(t.dir, 'sub-moved'));
        await mkdir(path.join(t.dir, 'sub'));
      },
    });
    await expect(tools.execute(plan)).rejects.toThrow(/"sub" was moved or replaced while it was being listed/);
  });
});
