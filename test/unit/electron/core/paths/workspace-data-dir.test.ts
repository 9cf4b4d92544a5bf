/**
 * The app's data folder is outside every workspace (SPEC §11), even one that contains it,
 * as a workspace at `~` contains Electron's userData.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathInputError, Workspace } from '../../../../../electron/core/paths/workspace.js';

let root: string;
let dataDir: string;
let ws: Workspace;

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-datadir-')));
  dataDir = path.join(root, '.gatehouse-data');
  await mkdir(path.join(dataDir, 'sessions', 's1'), { recursive: true });
  await writeFile(path.join(dataDir, 'web-token'), 'token');
  await writeFile(path.join(root, 'a.txt'), 'a');
  ws = await Workspace.open(root, { dataDir });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('a workspace that contains the data folder', () => {
  it('resolves a relative path into the data folder as outside, not as an escape', async () => {
    expect(await ws.resolve('.gatehouse-data/web-token')).toEqual({
      input: '.gatehouse-data/web-token',
      real: path.join(dataDir, 'web-token'),
      inside: false,
      exists: true,
    });
  });

  it('resolves the data folder itself, an absolute path into it, and a missing file there as outside', async () => {
    expect(await ws.resolve('.gatehouse-data')).toMatchObject({ real: dataDir, inside: false });
    expect(await ws.resolve(path.join(dataDir, 'sessions/s1'))).toMatchObject({ inside: false, exists: true });
    expect(await ws.resolve('.gatehouse-data/sessions/s2/events.jsonl')).toMatchObject({
      real: path.join(dataDir, 'sessions/s2/events.jsonl'),
      inside: false,
      exists: false,
    });
  });

  it('follows a link inside the workspace to the data folder and calls it outside', async () => {
    await symlink('.gatehouse-data', path.join(root, 'innocent'));
    await symlink(path.join(dataDir, 'web-token'), path.join(root, 'notes.txt'));
    expect(await ws.resolve('innocent/web-token')).toMatchObject({
      real: path.join(dataDir, 'web-token'),
      inside: false,
    });
    expect(await ws.resolve('notes.txt')).toMatchObject({ real: path.join(dataDir, 'web-token'), inside: false });
    expect(await ws.resolve('innocent/../a.txt')).toMatchObject({ real: path.join(root, 'a.txt'), inside: true });
  });

  it('keeps the rest of the workspace inside, a sibling sharing the name as a prefix included', async () => {
    expect(await ws.resolve('.')).toMatchObject({ real: root, inside: true });
    expect(await ws.resolve('a.txt')).toMatchObject({ inside: true });
    expect(await ws.resolve('.gatehouse-data-old/x')).toMatchObject({ inside: true });
  });

  it('counts the data folder named in another case or Unicode form as the data folder', async () => {
    // On a case-insensitive volume this is the very folder; on others a look-alike only costs a card.
    expect(await ws.resolve('.GateHouse-Data/web-token')).toMatchObject({ inside: false });
    const accented = path.join(root, 'caf\u00e9');
    const other = await Workspace.open(root, { dataDir: accented });
    expect(await other.resolve('cafe\u0301/x')).toMatchObject({ inside: false });
  });

  it('knows the data folder when it was given through a link', async () => {
    const link = path.join(root, 'data-link');
    await symlink(dataDir, link);
    const linked = await Workspace.open(root, { dataDir: link });
    expect(linked.dataDir).toBe(dataDir);
    expect(await linked.resolve('.gatehouse-data/web-token')).toMatchObject({ inside: false });
  });

  it('says where the data folder lies below a folder, as path segments', () => {
    expect(ws.dataDirBelow(root)).toEqual(['.gatehouse-data']);
    expect(ws.dataDirBelow(path.dirname(root))).toEqual([path.basename(root), '.gatehouse-data']);
    expect(ws.dataDirBelow(path.join(root, 'src'))).toBeNull();
    expect(ws.dataDirBelow(dataDir)).toBeNull();
    expect(ws.dataDirBelow(path.join(dataDir, 'sessions'))).toBeNull();
  });
});

describe('opening a workspace with a data folder', () => {
  it('refuses a workspace that is the data folder or inside it', async () => {
    await expect(Workspace.open(dataDir, { dataDir })).rejects.toBeInstanceOf(PathInputError);
    await expect(Workspace.open(path.join(dataDir, 'sessions'), { dataDir })).rejects.toThrow(
      /inside the app's data folder/,
    );
  });

  it('changes nothing for a workspace beside the data folder', async () => {
    await mkdir(path.join(root, 'ws'));
    const beside = await Workspace.open(path.join(root, 'ws'), { dataDir });
    expect(beside.dataDirBelow(beside.root)).toBeNull();
    expect(await beside.resolve(path.join(dataDir, 'web-token'))).toMatchObject({ inside: false });
  });

  it('accepts a data folder that does not exist yet', async () => {
    const later = await Workspace.open(root, { dataDir: path.join(root, 'later', 'data') });
    expect(await later.resolve('later/data/keys.json')).toMatchObject({ inside: false, exists: false });
    expect(await later.resolve('later/other.txt')).toMatchObject({ inside: true });
  });
});
