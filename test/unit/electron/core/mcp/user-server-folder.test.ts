/**
 * A user's own stdio server starts with no card and unconfined, so it must never start in
 * the workspace (SPEC §10): launchers run code from their working folder, and a checkout
 * could plant it. Checked with real launchers, npx and python -m, against planted code
 * that leaves a mark when it runs.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../core-harness.js';
import { serverLog, testServer, writeMcpJson } from './mcp-harness.js';

const run = promisify(execFile);

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The real interpreter behind `python3` (a pyenv shim needs the real HOME), or null without one. */
const PYTHON = (() => {
  try {
    return execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
})();

/** What `npx --no planted-mcp` runs from ./node_modules/.bin, and `python3 -m planted_mod` from ./ */
async function plant(workspace: string, marker: string): Promise<void> {
  const bin = path.join(workspace, 'node_modules', '.bin');
  await fs.mkdir(bin, { recursive: true });
  await fs.writeFile(path.join(bin, 'planted-mcp'), `#!/bin/sh\necho npx >> '${marker}'\n`, { mode: 0o755 });
  await fs.writeFile(
    path.join(workspace, 'planted_mod.py'),
    `open(${JSON.stringify(marker)}, 'a').write('python\\n')\n`,
  );
}

/** npx never reaches the registry here: --offline, and --no to install nothing. */
const NPX_ARGS = ['--offline', '--no', 'planted-mcp'];

const marks = (marker: string) => fs.readFile(marker, 'utf8').catch(() => '');

describe("a user's own stdio server", () => {
  it('does not run code planted in the workspace for npx or python -m', async () => {
    h = await startHarness();
    const marker = path.join(h.outside, 'planted-ran');
    await plant(h.workspace, marker);
    // The premise: started in the workspace, each launcher does run what was planted there.
    const env = { PATH: h.env.PATH, HOME: h.home };
    await run('npx', NPX_ARGS, { cwd: h.workspace, env });
    if (PYTHON) await run(PYTHON, ['-m', 'planted_mod'], { cwd: h.workspace, env });
    expect(await marks(marker)).toBe(PYTHON ? 'npx\npython\n' : 'npx\n');
    await fs.rm(marker);

    await writeMcpJson(path.join(h.dataDir, 'mcp.json'), {
      npx: { command: 'npx', args: NPX_ARGS },
      ...(PYTHON ? { py: { command: PYTHON, args: ['-m', 'planted_mod'] } } : {}),
    });
    const id = await h.open();
    h.fake.enqueue({ text: 'ok' });
    await h.call('session.send', { id, text: 'go' });
    await h.event(id, 'turn_ended');
    expect(await marks(marker)).toBe('');
    // Found nothing to run in a folder of their own, so neither started.
    const servers = (await h.call('mcp.list', { id })).servers;
    expect(servers.map((s) => s.state)).toEqual(servers.map(() => 'failed'));
  });

  it('runs in <data folder>/mcp-cwd/<server>, made 0700; a cwd its config names still wins', async () => {
    h = await startHarness();
    const log = path.join(h.outside, 'calls.jsonl');
    const logThere = path.join(h.outside, 'calls-there.jsonl');
    await writeMcpJson(path.join(h.dataDir, 'mcp.json'), {
      mine: testServer(log),
      there: { ...testServer(logThere), cwd: h.outside },
    });
    const id = await h.open();
    h.fake.enqueue({ text: 'ok' });
    await h.call('session.send', { id, text: 'go' });
    await h.event(id, 'turn_ended');
    expect((await h.call('mcp.list', { id })).servers.map((s) => s.state)).toEqual(['ready', 'ready']);
    const own = path.join(h.dataDir, 'mcp-cwd', 'mine');
    expect(await cwdOf(log)).toBe(own);
    expect((await fs.stat(own)).mode & 0o777).toBe(0o700);
    expect(await fs.readdir(own)).toEqual([]);
    expect(await cwdOf(logThere)).toBe(h.outside);
  });
});

/** The working folder of the (unconfined, so host-pid) server that logged its start to `log`. */
async function cwdOf(log: string): Promise<string> {
  const pid = (await serverLog(log)).find((l) => l.event === 'started')!.pid;
  return fs.readlink(`/proc/${pid}/cwd`);
}
