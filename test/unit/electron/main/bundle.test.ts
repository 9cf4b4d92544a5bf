/**
 * The built app, not the sources: electron-vite builds main, preload and renderer into a
 * scratch folder, and the main bundle starts in plain Node with a stand-in electron module
 * (bundle-stub/). This catches what only the bundle can get wrong: its module format, its
 * externals, the preload's single require, the diff worker beside main, the page served
 * through the app scheme.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_NAMES } from '../../../../shared/contract.js';
import { callChannel } from '../../../../electron/main/ipc-channels.js';

const repo = path.resolve(import.meta.dirname, '../../../..');
// Inside the repo, so the bundle's externals resolve from node_modules as in the app.
const out = path.join(repo, 'out', `bundle-test-${process.pid}`);
let scratch: string;
let reports: { what: string; data: unknown }[] = [];
const reported = (what: string) => reports.find((r) => r.what === what)?.data;

beforeAll(async () => {
  const build = spawnSync(
    process.execPath,
    [path.join(repo, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: repo, env: { ...process.env, GATEHOUSE_BUILD_OUT: out }, encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`electron-vite build failed:\n${build.stdout}\n${build.stderr}`);
  scratch = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-bundle-')));
  await fs.mkdir(path.join(scratch, 'ws'));
  const run = spawnSync(
    process.execPath,
    ['--import', path.join(import.meta.dirname, 'bundle-stub', 'register.mjs'), path.join(out, 'main', 'index.js')],
    {
      cwd: repo,
      env: {
        PATH: process.env.PATH,
        HOME: scratch,
        GATEHOUSE_HOME: path.join(scratch, 'data'),
        STUB_WORKSPACE: path.join(scratch, 'ws'),
      },
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  reports = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('stub:'))
    .map((line) => JSON.parse(line.slice('stub:'.length)));
  if (run.status !== 0) throw new Error(`the bundle failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
}, 120_000);

afterAll(async () => {
  await fs.rm(out, { recursive: true, force: true });
  if (scratch) await fs.rm(scratch, { recursive: true, force: true });
});

describe('the built app', () => {
  it('emits main, the diff worker beside it, a CommonJS preload and the renderer', () => {
    for (const file of ['main/index.js', 'main/diff-worker.js', 'preload/index.cjs', 'renderer/index.html']) {
      expect(existsSync(path.join(out, file)), file).toBe(true);
    }
  });

  it("bundles the preload whole: its only require is 'electron'", () => {
    const preload = readFileSync(path.join(out, 'preload', 'index.cjs'), 'utf8');
    expect([...new Set([...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]))]).toEqual(['electron']);
  });

  it('keeps node-pty and ripgrep out of the main bundle, to load them from disk', () => {
    const main = readFileSync(path.join(out, 'main', 'index.js'), 'utf8');
    expect(main).toMatch(/from "@vscode\/ripgrep"/);
    expect(main).not.toContain('pty.node');
  });

  it('starts in Node: the locked-down window loads the page and its script over gatehouse://, with the CSP', () => {
    expect(reported('window')).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(reported('page')).toMatchObject({
      url: 'gatehouse://app/index.html',
      status: 200,
      script: { status: 200, type: 'text/javascript; charset=utf-8' },
    });
    expect((reported('page') as { csp: string }).csp).toContain("script-src 'self'");
    expect(reported('tray')).toBe(path.join(repo, 'build', 'tray', 'tray.png'));
  });

  it('answers the contract over IPC, for the app page only', () => {
    expect((reported('channels') as string[]).sort()).toEqual(CALL_NAMES.map(callChannel).sort());
    expect(reported('sessions.open')).toMatchObject({ ok: true, data: { workspace: path.join(scratch, 'ws') } });
    expect(reported('refused')).toMatchObject({ ok: false });
  });

  it('holds the quit until the core has closed, then quits', () => {
    expect(reports.filter((r) => r.what === 'quit').map((r) => r.data)).toEqual([{ held: true }, { held: false }]);
  });
});
