/**
 * Folders that are never a workspace (SPEC §9, issue 19 item 6): `/`, the home folder (by
 * any link to it), a folder holding it, the data folder and what is inside it, and any
 * folder holding the data folder. Each refusal says why and suggests a folder instead.
 */
import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  refuseWorkspace,
  workspaceRefusal,
  WorkspaceRefusedError,
  type RefusalPlaces,
} from '../../../../../electron/core/paths/workspace-refusal.js';

let root: string;
let places: RefusalPlaces;

// A home of its own, with the data folder where Electron keeps it on Linux.
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-refusal-')));
  const home = path.join(root, 'home', 'me');
  places = { home, dataDir: path.join(home, '.config', 'Gatehouse') };
  await mkdir(path.join(places.dataDir, 'sessions'), { recursive: true });
  await mkdir(path.join(home, 'code', 'myproject'), { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('refused workspaces', () => {
  it('refuses / and says why, suggesting a project folder', async () => {
    const words = await workspaceRefusal('/', places);
    expect(words).toBe(
      "Gatehouse will not open the root folder / as a workspace: a command there could reach every project and the app's own data. Open a project folder, such as ~/code/myproject.",
    );
  });

  it('refuses the home folder with the words of the review', async () => {
    expect(await workspaceRefusal(places.home, places)).toBe(
      "Gatehouse will not open your home folder as a workspace: a command there could reach every project and the app's own data. Open a project folder inside it, such as ~/code/myproject.",
    );
  });

  it('refuses a link to the home folder, and the home folder written with a trailing slash or ..', async () => {
    const link = path.join(root, 'link-to-home');
    await symlink(places.home, link);
    for (const dir of [link, `${places.home}/`, path.join(places.home, 'code', '..')]) {
      expect(await workspaceRefusal(dir, places)).toMatch(/^Gatehouse will not open your home folder/);
    }
  });

  it('refuses a home given through a link, compared by real path', async () => {
    const linkedHome = path.join(root, 'home-link');
    await symlink(places.home, linkedHome);
    expect(await workspaceRefusal(places.home, { ...places, home: linkedHome })).toMatch(/your home folder/);
  });

  it('refuses a folder that holds the home folder', async () => {
    const parent = path.dirname(places.home);
    expect(await workspaceRefusal(parent, places)).toBe(
      `Gatehouse will not open ${parent} as a workspace: it holds your home folder, so a command there could reach every project and the app's own data. Open a project folder, such as ~/code/myproject.`,
    );
  });

  it('refuses a folder that holds the data folder, suggesting a subfolder of it', async () => {
    const config = path.join(places.home, '.config');
    expect(await workspaceRefusal(config, places)).toBe(
      "Gatehouse will not open ~/.config as a workspace: it holds the app's own data folder (~/.config/Gatehouse), which a command there could change. Open a project folder inside it, such as ~/.config/myproject.",
    );
  });

  it('refuses a folder holding a data folder that lies outside the home folder', async () => {
    const srv = path.join(root, 'srv');
    const elsewhere = { ...places, dataDir: path.join(srv, 'gatehouse-data') };
    await mkdir(elsewhere.dataDir, { recursive: true });
    expect(await workspaceRefusal(srv, elsewhere)).toMatch(
      new RegExp(
        `^Gatehouse will not open ${srv} as a workspace: it holds the app's own data folder \\(${elsewhere.dataDir}\\)`,
      ),
    );
    expect(await workspaceRefusal(srv, elsewhere)).toContain(`such as ${path.join(srv, 'myproject')}.`);
  });

  it('refuses the data folder itself and a folder inside it', async () => {
    expect(await workspaceRefusal(places.dataDir, places)).toBe(
      "Gatehouse will not open ~/.config/Gatehouse as a workspace: it is the app's own data folder, which holds every session's log and your settings. Open a project folder, such as ~/code/myproject.",
    );
    expect(await workspaceRefusal(path.join(places.dataDir, 'sessions'), places)).toBe(
      "Gatehouse will not open ~/.config/Gatehouse/sessions as a workspace: it is inside the app's own data folder (~/.config/Gatehouse), which holds every session's log and your settings. Open a project folder, such as ~/code/myproject.",
    );
  });

  it('refuses a folder holding a data folder not made yet', async () => {
    const later = { ...places, dataDir: path.join(root, 'work', 'not-yet', 'data') };
    await mkdir(path.join(root, 'work'));
    expect(await workspaceRefusal(path.join(root, 'work'), later)).toMatch(/holds the app's own data folder/);
  });

  it('throws the words as a WorkspaceRefusedError', async () => {
    const refused = refuseWorkspace(places.home, places);
    await expect(refused).rejects.toBeInstanceOf(WorkspaceRefusedError);
    await expect(refuseWorkspace(places.home, places)).rejects.toThrow(/^Gatehouse will not open your home folder/);
  });
});

describe('accepted workspaces', () => {
  it('accepts a project folder inside the home folder, and a link to one', async () => {
    const project = path.join(places.home, 'code', 'myproject');
    expect(await workspaceRefusal(project, places)).toBeNull();
    expect(await workspaceRefusal(path.join(places.home, 'code'), places)).toBeNull();
    const link = path.join(root, 'link-to-project');
    await symlink(project, link);
    expect(await workspaceRefusal(link, places)).toBeNull();
    await expect(refuseWorkspace(project, places)).resolves.toBeUndefined();
  });

  it('accepts a folder beside the data folder, and leaves a missing folder to the open that follows', async () => {
    await mkdir(path.join(places.home, '.config', 'other'));
    expect(await workspaceRefusal(path.join(places.home, '.config', 'other'), places)).toBeNull();
    expect(await workspaceRefusal(path.join(root, 'missing'), places)).toBeNull();
  });
});
