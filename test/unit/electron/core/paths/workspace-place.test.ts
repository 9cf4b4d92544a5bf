/**
 * A session's place of its own is inside the data folder (SPEC §15): opened as that
 * session's workspace its files are inside it, and nothing else of the data folder is.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { workspaceRefusal } from '../../../../../electron/core/paths/workspace-refusal.js';

let root: string;
let data: string;
let place: string;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-ws-place-')));
  data = path.join(root, 'data');
  place = path.join(data, 'places', 's1', 'proj');
  await fs.mkdir(place, { recursive: true });
  await fs.writeFile(path.join(place, 'a.txt'), 'a');
  await fs.writeFile(path.join(data, 'settings.json'), '{}');
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

it('admits exactly the place named, whose files are then inside', async () => {
  await expect(Workspace.open(place, { dataDir: data })).rejects.toThrow(/inside the app's data folder/);
  const ws = await Workspace.open(place, { dataDir: data, admittedPlace: place });
  expect((await ws.resolve('a.txt')).inside).toBe(true);
  // The rest of the data folder stays outside, asked on a card.
  expect((await ws.resolve(path.join(data, 'settings.json'))).inside).toBe(false);
  await expect(Workspace.open(path.join(data, 'places'), { dataDir: data, admittedPlace: place })).rejects.toThrow(
    /inside the app's data folder/,
  );
});

it('the refusal lets through only the admitted place', async () => {
  const places = { home: path.join(root, 'home'), dataDir: data };
  expect(await workspaceRefusal(place, places)).toMatch(/inside the app's own data folder/);
  expect(await workspaceRefusal(place, { ...places, admittedPlace: place })).toBeNull();
  expect(await workspaceRefusal(path.join(data, 'places', 's1'), { ...places, admittedPlace: place })).toMatch(
    /inside the app's own data folder/,
  );
});
