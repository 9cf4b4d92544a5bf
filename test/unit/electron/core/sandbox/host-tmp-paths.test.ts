/**
 * A program that lives under the host's /tmp (an app or a checkout run from there) still
 * starts inside the sandbox's private /tmp, and nothing else of the host's /tmp shows.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runToEnd } from '../../../../../electron/core/process/command-run.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { hostTmpPaths } from '../../../../../electron/core/sandbox/host-tmp-paths.js';

let tmp: string;
let ws: string;
beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-host-tmp-')));
  ws = await fs.realpath(await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-host-tmp-ws-')));
  await fs.mkdir(path.join(tmp, 'bin'));
  await fs.writeFile(path.join(tmp, 'bin', 'hello'), '#!/bin/sh\necho hello from tmp\n', { mode: 0o755 });
  await fs.writeFile(path.join(tmp, 'secret-beside.txt'), 'not for the command');
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
  await fs.rm(ws, { recursive: true, force: true });
});

describe('host folders under /tmp', () => {
  it('are the program’s folder and the PATH entries under /tmp, never a hidden place', () => {
    const bin = path.join(tmp, 'bin');
    expect(hostTmpPaths(path.join(bin, 'hello'), '/usr/bin', [])).toEqual([bin]);
    expect(hostTmpPaths('hello', `/usr/bin${path.delimiter}${bin}`, [])).toEqual([bin]);
    expect(hostTmpPaths('hello', bin, [tmp])).toEqual([]);
    expect(hostTmpPaths('hello', '/tmp', [])).toEqual([]);
  });

  it('let a program from the host’s /tmp start confined, by path and by PATH, and show nothing beside it', async () => {
    const sandbox = new BwrapSandbox({
      dataDir: path.join(ws, '.data'),
      home: path.join(ws, 'home'),
      env: process.env,
    });
    const profile = await sandbox.profile(ws, { network: false, git: false });
    const env = { PATH: `${path.join(tmp, 'bin')}:/usr/bin:/bin` };
    const confine = { sandbox, profile };
    for (const argv of [[path.join(tmp, 'bin', 'hello')], ['hello']]) {
      const outcome = await runToEnd({ argv, cwd: ws, env, timeoutMs: 10_000 }, confine);
      expect(outcome.stdout.text).toBe('hello from tmp\n');
    }
    const peek = await runToEnd(
      { argv: ['cat', path.join(tmp, 'secret-beside.txt')], cwd: ws, env, timeoutMs: 10_000 },
      confine,
    );
    expect(peek.exitCode).not.toBe(0);
    expect(peek.stdout.text).toBe('');
  });
});
