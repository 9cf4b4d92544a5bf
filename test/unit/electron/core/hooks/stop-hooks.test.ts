import { execFileSync } from 'node:child_process';
import { mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { WORKSPACE_SETTINGS_MAX_BYTES } from '../../../../../shared/limits.js';
import { readStopHooks, WORKSPACE_SETTINGS } from '../../../../../electron/core/hooks/stop-hooks.js';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { useTempDir } from '../log/temp-dir.js';

const tmp = useTempDir();
let root: string;
let settings: string;
let workspace: Workspace;

beforeEach(async () => {
  root = path.join(tmp.path, 'ws');
  await mkdir(path.join(root, '.gatehouse'), { recursive: true });
  settings = path.join(root, WORKSPACE_SETTINGS);
  workspace = await Workspace.open(root);
});

describe('readStopHooks', () => {
  it('returns the argvs under hooks.stop', async () => {
    await writeFile(
      settings,
      JSON.stringify({
        hooks: {
          stop: [
            ['npm', 'test'],
            ['npx', 'tsc', '--noEmit'],
          ],
        },
      }),
    );
    expect(await readStopHooks(workspace)).toEqual({
      ok: true,
      hooks: [
        ['npm', 'test'],
        ['npx', 'tsc', '--noEmit'],
      ],
    });
  });

  it('returns no hooks when there is no settings file', async () => {
    expect(await readStopHooks(workspace)).toEqual({ ok: true, hooks: [] });
  });

  it('returns no hooks when the settings file has no hooks', async () => {
    await writeFile(settings, '{}');
    expect(await readStopHooks(workspace)).toEqual({ ok: true, hooks: [] });
  });

  it('reports invalid JSON', async () => {
    await writeFile(settings, '{ "hooks": ');
    const r = await readStopHooks(workspace);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problem).toMatch(/^\.gatehouse\/settings\.json is not valid JSON: /);
  });

  it('reports the wrong shape, naming where', async () => {
    await writeFile(settings, JSON.stringify({ hooks: { stop: ['npm test'] } }));
    const r = await readStopHooks(workspace);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problem).toMatch(/^\.gatehouse\/settings\.json: hooks\.stop\.0: /);
  });

  it('reports an empty argv', async () => {
    await writeFile(settings, JSON.stringify({ hooks: { stop: [[]] } }));
    expect(await readStopHooks(workspace)).toEqual({
      ok: false,
      problem: '.gatehouse/settings.json: hooks.stop.0: a hook argv needs at least one string',
    });
  });

  it('reads a settings file of exactly 1 MiB', async () => {
    const json = JSON.stringify({ hooks: { stop: [['true']] } });
    await writeFile(settings, json.padEnd(WORKSPACE_SETTINGS_MAX_BYTES, ' '));
    expect(await readStopHooks(workspace)).toEqual({ ok: true, hooks: [['true']] });
  });

  it('refuses a settings file over 1 MiB without parsing it', async () => {
    await writeFile(settings, '{}');
    await truncate(settings, WORKSPACE_SETTINGS_MAX_BYTES + 1);
    expect(await readStopHooks(workspace)).toEqual({
      ok: false,
      problem: `.gatehouse/settings.json is ${WORKSPACE_SETTINGS_MAX_BYTES + 1} bytes; it is read only up to ${WORKSPACE_SETTINGS_MAX_BYTES} bytes (1 MiB)`,
    });
  });

  it('reports a FIFO named settings.json at once instead of hanging on it', async () => {
    execFileSync('mkfifo', [settings]);
    expect(await readStopHooks(workspace)).toEqual({
      ok: false,
      problem: `cannot read .gatehouse/settings.json: ${settings} is not a regular file`,
    });
  });

  it('reports a settings file that links out of the workspace, and does not use it', async () => {
    const outside = path.join(tmp.path, 'settings.json');
    await writeFile(outside, JSON.stringify({ hooks: { stop: [['rm', '-rf', '/']] } }));
    await symlink(outside, settings);
    const r = await readStopHooks(workspace);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problem).toMatch(/^cannot read \.gatehouse\/settings\.json: refused: .*symlink/);
  });

  it("never reads settings linked into the app's data folder, even with the data folder inside the workspace", async () => {
    const dataDir = path.join(root, '.gatehouse-data');
    await mkdir(dataDir);
    await writeFile(path.join(dataDir, 'settings.json'), JSON.stringify({ hooks: { stop: [['cat', 'web-token']] } }));
    await symlink(path.join(dataDir, 'settings.json'), settings);
    const guarded = await Workspace.open(root, { dataDir });
    expect(await readStopHooks(guarded)).toEqual({ ok: true, hooks: [] });
  });
});
