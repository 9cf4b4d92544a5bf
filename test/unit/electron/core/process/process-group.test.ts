import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveGroupMembers } from '../../../../../electron/core/process/group-liveness.js';
import { ProcessGroup, StartCancelled } from '../../../../../electron/core/process/process-group.js';
import { CommandStartError } from '../../../../../electron/core/process/start-error.js';
import type { ConfinedSpec, Sandbox, SandboxProfile } from '../../../../../electron/core/sandbox/sandbox.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-group-')));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A sandbox that "confines" by running the spec as it is, and counts what it was asked to release. */
function countingSandbox(): { sandbox: Sandbox; released: () => number } {
  let released = 0;
  const sandbox: Sandbox = {
    availability: async () => ({ available: true }) as never,
    profile: async () => ({}) as SandboxProfile,
    confine: async (spec): Promise<ConfinedSpec> => ({
      ...spec,
      env: { ...spec.env },
      initPidOnFd3: true,
      signalInside: async (pid, signal) => {
        process.kill(-pid, signal);
        return 1;
      },
      release: async () => {
        released += 1;
      },
    }),
    dispose: async () => {},
  };
  return { sandbox, released: () => released };
}

describe('a process group', () => {
  it('stops every member, SIGKILLing those that ignore SIGTERM, however often it is asked', async () => {
    const group = await ProcessGroup.start({
      argv: ['sh', '-c', 'trap "" TERM; sleep 100 & sleep 100 & wait'],
      cwd: dir,
      env: process.env,
      stdin: 'ignore',
    });
    await new Promise((r) => setTimeout(r, 200));
    expect((await liveGroupMembers(group.pid)).length).toBeGreaterThanOrEqual(3);
    await Promise.all([group.stop(), group.stop()]);
    expect(await liveGroupMembers(group.pid)).toEqual([]);
    expect(await group.exited).toMatchObject({ signal: 'SIGKILL' });
  });

  it('that cannot start says why, and releases what the sandbox set up for it', async () => {
    const { sandbox, released } = countingSandbox();
    const start = ProcessGroup.start({
      argv: [path.join(dir, 'missing')],
      cwd: dir,
      env: process.env,
      stdin: 'ignore',
      confine: { sandbox, profile: {} as SandboxProfile },
    });
    await expect(start).rejects.toBeInstanceOf(CommandStartError);
    expect(released()).toBe(1);
  });

  it('aborted while the sandbox was being prepared starts nothing, and releases it', async () => {
    const { sandbox, released } = countingSandbox();
    const abort = new AbortController();
    const marker = path.join(dir, 'ran');
    const start = ProcessGroup.start({
      argv: ['touch', marker],
      cwd: dir,
      env: process.env,
      stdin: 'ignore',
      confine: { sandbox, profile: {} as SandboxProfile },
      signal: abort.signal,
    });
    abort.abort();
    await expect(start).rejects.toBeInstanceOf(StartCancelled);
    expect(released()).toBe(1);
    await expect(fs.access(marker)).rejects.toThrow();
  });

  it('releases what the sandbox set up once, however often it is asked', async () => {
    const { sandbox, released } = countingSandbox();
    const group = await ProcessGroup.start({
      argv: ['true'],
      cwd: dir,
      env: process.env,
      stdin: 'ignore',
      confine: { sandbox, profile: {} as SandboxProfile },
    });
    await group.exited;
    await Promise.all([group.release(), group.release()]);
    expect(released()).toBe(1);
  });
});
