import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathEscapeError, PathInputError, Workspace } from '../../../../../electron/core/paths/workspace.js';

let parent: string;
let root: string;
let outside: string;
let ws: Workspace;

beforeEach(async () => {
  parent = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-paths-'));
  root = path.join(parent, 'ws');
  outside = path.join(parent, 'outside');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, 'src', 'a.ts'), 'a');
  await writeFile(path.join(outside, 'secret.txt'), 's');
  ws = await Workspace.open(root);
});

afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

async function escapeOf(input: string): Promise<PathEscapeError> {
  const err = await ws.resolve(input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PathEscapeError);
  return err as PathEscapeError;
}

describe('Workspace.resolve, paths meant to be inside', () => {
  it('resolves a relative path to its real location inside', async () => {
    expect(await ws.resolve('src/a.ts')).toEqual({
      input: 'src/a.ts',
      real: path.join(root, 'src/a.ts'),
      inside: true,
      exists: true,
    });
  });

  it('resolves a file that does not exist yet below missing folders', async () => {
    const r = await ws.resolve('new/deeper/file.txt');
    expect(r).toMatchObject({ real: path.join(root, 'new/deeper/file.txt'), inside: true, exists: false });
  });

  it('refuses ../x as a dotdot escape', async () => {
    const err = await escapeOf('../x');
    expect(err.escape).toBe('dotdot');
    expect(err.message).toContain('".."');
  });

  it('refuses a/../../x as a dotdot escape', async () => {
    expect((await escapeOf('a/../../x')).escape).toBe('dotdot');
  });

  it('allows a/../x, which stays inside', async () => {
    expect((await ws.resolve('a/../src/a.ts')).real).toBe(path.join(root, 'src/a.ts'));
  });

  it('refuses a file inside a symlinked folder that points out, saying symlink', async () => {
    await symlink(outside, path.join(root, 'out'));
    const err = await escapeOf('out/secret.txt');
    expect(err.escape).toBe('symlink');
    expect(err.message).toContain('symlink');
    expect(err.real).toBe(path.join(outside, 'secret.txt'));
  });

  it('refuses a new file below a symlinked folder that points out', async () => {
    await symlink(outside, path.join(root, 'out'));
    expect((await escapeOf('out/new.txt')).escape).toBe('symlink');
  });

  it('refuses a chain of symlinks that ends outside', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'c2'));
    await symlink('c2', path.join(root, 'c1'));
    expect((await escapeOf('c1')).escape).toBe('symlink');
  });

  it('allows a chain of symlinks that ends inside', async () => {
    await symlink('src/a.ts', path.join(root, 'c2'));
    await symlink('c2', path.join(root, 'c1'));
    expect(await ws.resolve('c1')).toMatchObject({ real: path.join(root, 'src/a.ts'), inside: true, exists: true });
  });

  it('refuses a symlink to /', async () => {
    await symlink('/', path.join(root, 'slash'));
    expect((await escapeOf('slash')).escape).toBe('symlink');
    expect((await escapeOf('slash/etc/passwd')).escape).toBe('symlink');
  });

  it('follows a dangling symlink inside to where it would create the file', async () => {
    await symlink('missing.txt', path.join(root, 'dangling'));
    expect(await ws.resolve('dangling')).toMatchObject({
      real: path.join(root, 'missing.txt'),
      inside: true,
      exists: false,
    });
  });

  it('refuses a dangling symlink that points out', async () => {
    await symlink(path.join(outside, 'nothing-here.txt'), path.join(root, 'dangling'));
    const err = await escapeOf('dangling');
    expect(err.escape).toBe('symlink');
    expect(err.real).toBe(path.join(outside, 'nothing-here.txt'));
  });

  it('resolves a dangling relative link from the folder it really sits in, as the OS does', async () => {
    // linkdir -> real/deep; real/deep/dl -> ../target.txt: the OS creates real/target.txt.
    await mkdir(path.join(root, 'real/deep'), { recursive: true });
    await symlink('real/deep', path.join(root, 'linkdir'));
    await symlink('../target.txt', path.join(root, 'real/deep/dl'));
    const resolved = await ws.resolve('linkdir/dl');
    await writeFile(path.join(root, 'linkdir/dl'), 'created through the link');
    expect(resolved.real).toBe(path.join(root, 'real/target.txt'));
    expect(await readFile(resolved.real, 'utf8')).toBe('created through the link');
  });

  it('allows a symlink whose target is inside', async () => {
    await symlink(path.join(root, 'src'), path.join(root, 'alias'));
    expect(await ws.resolve('alias/a.ts')).toMatchObject({ real: path.join(root, 'src/a.ts'), inside: true });
  });

  it('reports a symlink loop as an unusable path', async () => {
    await symlink('loop', path.join(root, 'loop'));
    await expect(ws.resolve('loop/x')).rejects.toBeInstanceOf(PathInputError);
  });

  it('rejects an empty path and a path with a NUL byte', async () => {
    await expect(ws.resolve('')).rejects.toBeInstanceOf(PathInputError);
    await expect(ws.resolve('a\0b')).rejects.toBeInstanceOf(PathInputError);
  });
});

describe('Workspace.resolve, absolute paths', () => {
  it('treats an absolute path inside the workspace as inside', async () => {
    expect(await ws.resolve(path.join(root, 'src/a.ts'))).toMatchObject({ inside: true, exists: true });
  });

  it('classifies an absolute path outside as outside without refusing it', async () => {
    const file = path.join(outside, 'secret.txt');
    expect(await ws.resolve(file)).toEqual({ input: file, real: file, inside: false, exists: true });
  });

  it('classifies an absolute path through an inside link that points out as outside', async () => {
    await symlink(outside, path.join(root, 'out'));
    expect(await ws.resolve(path.join(root, 'out/secret.txt'))).toMatchObject({
      real: path.join(outside, 'secret.txt'),
      inside: false,
    });
  });
});

describe('Workspace opened through a symlink', () => {
  it('uses the real root, so relative and linked absolute paths land inside', async () => {
    const link = path.join(parent, 'ws-link');
    await symlink(root, link);
    const linked = await Workspace.open(link);
    expect(linked.root).toBe(root);
    expect(await linked.resolve('src/a.ts')).toMatchObject({ real: path.join(root, 'src/a.ts'), inside: true });
    expect(await linked.resolve(path.join(link, 'src/a.ts'))).toMatchObject({ inside: true, exists: true });
    expect(await linked.resolve(path.join(link, 'new.txt'))).toMatchObject({
      real: path.join(root, 'new.txt'),
      inside: true,
    });
  });

  it('still refuses .. out of the linked root', async () => {
    const link = path.join(parent, 'ws-link');
    await symlink(root, link);
    const linked = await Workspace.open(link);
    await expect(linked.resolve('../outside/secret.txt')).rejects.toMatchObject({ escape: 'dotdot' });
  });

  it('refuses to open a file as a workspace', async () => {
    await expect(Workspace.open(path.join(root, 'src/a.ts'))).rejects.toBeInstanceOf(PathInputError);
  });
});

describe('Workspace.contains', () => {
  it('does not count a sibling folder that shares the root as a name prefix', async () => {
    expect(ws.contains(root + '-other/x')).toBe(false);
    expect(ws.contains(root)).toBe(true);
    expect(ws.relative(root)).toBe('.');
  });
});
